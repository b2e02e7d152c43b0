use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde::Deserialize;

use super::*;

#[derive(Deserialize)]
struct VectorFile {
    vectors: Vec<Vector>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Vector {
    api_key: String,
    body_base64: String,
    x_service_signature: String,
    standard_webhooks: StandardVector,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct StandardVector {
    secret: String,
    webhook_id: String,
    webhook_timestamp: String,
    webhook_signature: String,
}

fn vectors() -> Vec<Vector> {
    let text = include_str!("../tests/vectors/webhook-signatures.json");
    serde_json::from_str::<VectorFile>(text).unwrap().vectors
}

#[test]
fn every_x_service_signature_vector_matches() {
    let vectors = vectors();
    assert!(!vectors.is_empty());
    for vector in vectors {
        let body = BASE64.decode(&vector.body_base64).unwrap();
        assert_eq!(
            x_service_signature(vector.api_key.as_bytes(), &body),
            vector.x_service_signature
        );
    }
}

#[test]
fn every_standard_webhooks_vector_matches() {
    for vector in vectors() {
        let body = BASE64.decode(&vector.body_base64).unwrap();
        let standard = vector.standard_webhooks;
        let secret = StandardWebhooksSecret::parse(&standard.secret).unwrap();
        let timestamp: i64 = standard.webhook_timestamp.parse().unwrap();
        assert_eq!(
            secret.sign(&standard.webhook_id, timestamp, &body),
            standard.webhook_signature
        );
        assert_eq!(secret.to_whsec(), standard.secret);
    }
}

#[test]
fn malformed_secrets_are_refused_and_never_printed() {
    assert_eq!(
        StandardWebhooksSecret::parse("p72dpiifA9SHEA8J"),
        Err(SecretError::MissingPrefix)
    );
    assert_eq!(
        StandardWebhooksSecret::parse("whsec_"),
        Err(SecretError::NotBase64)
    );
    assert_eq!(
        StandardWebhooksSecret::parse("whsec_!!!"),
        Err(SecretError::NotBase64)
    );
    let secret = StandardWebhooksSecret::from_key_bytes(b"sk_live_secret");
    assert!(!format!("{secret:?}").contains("sk_live"));
}

#[test]
fn the_body_carries_every_field_of_the_spec_in_camel_case() {
    let body = ReceiptStatusUpdated {
        event: RECEIPT_STATUS_UPDATED.into(),
        receipt_id: "R-1".into(),
        status: ReceiptStatus::Paid,
        previous_status: ReceiptStatus::CheckoutInitialized,
        failure_code: None,
        failure_category: None,
        failure_reason: None,
        failure_action: None,
        transaction_hash: Some("0xabc".into()),
        buyer_wallet: Some(Wallet::parse("0x00000000000000000000000000000000000000bb").unwrap()),
        merchant_wallet: Wallet::parse("0x00000000000000000000000000000000000000aa").unwrap(),
        total_usd: Cents::new(2500),
        token: "USDC".into(),
        onramp_session_id: None,
        is_onramp_session_unique: false,
        transaction_id: Some("order-7".into()),
        metadata: Some(serde_json::json!({"k": "v"})),
        timestamp: 1_767_599_992_000,
        brand_key: "acme".into(),
        paid_late: false,
        balance: None,
        payment: None,
    };
    let json = serde_json::to_value(&body).unwrap();
    let mut keys: Vec<_> = json.as_object().unwrap().keys().cloned().collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "brandKey",
            "buyerWallet",
            "event",
            "failureAction",
            "failureCategory",
            "failureCode",
            "failureReason",
            "isOnrampSessionUnique",
            "merchantWallet",
            "metadata",
            "onrampSessionId",
            "previousStatus",
            "receiptId",
            "status",
            "timestamp",
            "token",
            "totalUsd",
            "transactionHash",
            "transactionId",
        ]
    );
    assert_eq!(json["totalUsd"], serde_json::json!(25));
    assert_eq!(json["status"], "paid");
    assert_eq!(json["failureCode"], serde_json::Value::Null);
    let back: ReceiptStatusUpdated = serde_json::from_value(json).unwrap();
    assert_eq!(back, body);
}
