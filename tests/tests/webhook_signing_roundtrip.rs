//! The server signs with `payments-core`; merchants verify with `webhook-verify`. The two must agree.
#![allow(clippy::unwrap_used, reason = "test helpers fail loudly on broken fixtures")]

use std::time::{Duration, UNIX_EPOCH};

use payments_core::{
    Cents, FailureCategory, PaymentBlock, RECEIPT_STATUS_UPDATED, ReceiptBalance, ReceiptStatus,
    ReceiptStatusUpdated, StandardWebhooksSecret, TokenAmount, Wallet, x_service_signature,
};
use webhook_verify::{ApiKey, Event, Verifier, VerifyError, WebhookSecret};

const API_KEY: &str = "sk_test_6cf2d133187c8df95247f2866028de71";
const SENT_AT_MS: u64 = 1_767_599_992_000;

fn paid_event() -> ReceiptStatusUpdated {
    ReceiptStatusUpdated {
        event: RECEIPT_STATUS_UPDATED.into(),
        receipt_id: "R-000123".into(),
        status: ReceiptStatus::Paid,
        previous_status: ReceiptStatus::CheckoutInitialized,
        failure_code: None,
        failure_category: None,
        failure_reason: None,
        failure_action: None,
        transaction_hash: Some("0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060".into()),
        buyer_wallet: Some(Wallet::parse("0x00000000000000000000000000000000000000bb").unwrap()),
        merchant_wallet: Wallet::parse("0x00000000000000000000000000000000000000aa").unwrap(),
        total_usd: Cents::new(2608),
        token: "USDC".into(),
        onramp_session_id: None,
        is_onramp_session_unique: false,
        transaction_id: Some("order-7".into()),
        metadata: Some(serde_json::json!({ "cart": "c-1" })),
        timestamp: SENT_AT_MS as i64,
        brand_key: "acme".into(),
        paid_late: false,
        // One base unit over the total: the exact amounts must survive the trip.
        balance: Some(ReceiptBalance::of(
            Cents::new(2608),
            TokenAmount::from_base_units(26_080_001),
        )),
        payment: Some(PaymentBlock::at(
            1_234,
            format!("0x{}", "ab".repeat(32)),
            1_237,
            1_170,
        )),
    }
}

fn now() -> std::time::SystemTime {
    UNIX_EPOCH + Duration::from_millis(SENT_AT_MS + 1_000)
}

#[test]
fn a_body_signed_by_the_core_verifies_and_parses_with_webhook_verify() {
    let body = serde_json::to_vec(&paid_event()).unwrap();
    let signature = x_service_signature(API_KEY.as_bytes(), &body);
    let timestamp = SENT_AT_MS.to_string();
    let headers = [
        ("X-Service-Signature", signature.as_str()),
        ("X-Service-Timestamp", timestamp.as_str()),
    ];

    let verifier = Verifier::new(ApiKey::new(API_KEY).unwrap());
    let webhook = verifier.verify_and_parse_at(&headers[..], &body, now()).unwrap();

    let Event::ReceiptStatusUpdated(event) = webhook.into_event() else {
        panic!("expected a receipt event");
    };

    assert_eq!(event.receipt_id, "R-000123");
    assert_eq!(event.status.as_str(), "paid");
    assert_eq!(
        event
            .previous_status
            .as_ref()
            .map(|s| s.as_str().to_owned())
            .as_deref(),
        Some("checkout_initialized")
    );
    assert_eq!(event.total_cents(), Some(2608));
    assert_eq!(event.amount_received_base_units.as_deref(), Some("26080001"));
    assert_eq!(event.amount_received_usd, Some(26.080001));
    assert_eq!(event.overpaid_base_units.as_deref(), Some("1"));
    assert_eq!(event.amount_due_base_units.as_deref(), Some("0"));
    let payment = event.payment.as_ref().unwrap();
    assert_eq!(
        (payment.block_number, payment.confirmations, payment.finalized),
        (1_234, 3, false)
    );
    assert_eq!(
        event.merchant_wallet.as_deref(),
        Some("0x00000000000000000000000000000000000000aa")
    );
    assert_eq!(event.transaction_id.as_deref(), Some("order-7"));
}

#[test]
fn the_standard_webhooks_signature_made_by_the_core_verifies_with_the_whsec_form_of_the_key() {
    let body = serde_json::to_vec(&paid_event()).unwrap();
    let secret = StandardWebhooksSecret::from_key_bytes(API_KEY.as_bytes());
    let seconds = (SENT_AT_MS / 1000) as i64;
    let signature = secret.sign("msg_delivery_1", seconds, &body);
    let timestamp = seconds.to_string();
    let headers = [
        ("webhook-id", "msg_delivery_1"),
        ("webhook-timestamp", timestamp.as_str()),
        ("webhook-signature", signature.as_str()),
    ];

    let verifier = Verifier::standard_webhooks(WebhookSecret::new(secret.to_whsec()).unwrap());

    assert!(verifier.verify_at(&headers[..], &body, now()).is_ok());
    let mut tampered = body;
    tampered[10] ^= 1;
    assert!(verifier.verify_at(&headers[..], &tampered, now()).is_err());
}

#[test]
fn a_failed_event_carries_its_failure_fields_to_the_merchant() {
    let mut event = paid_event();
    event.status = ReceiptStatus::Failed;
    event.previous_status = ReceiptStatus::Pending;
    event.transaction_hash = None;
    event.failure_code = Some("PORTAL_PAY_INSUFFICIENT_FUNDS".into());
    event.failure_category = Some(FailureCategory::CardDecline);
    event.failure_reason = Some("insufficient funds".into());
    event.failure_action = Some("use another payment method".into());
    let body = serde_json::to_vec(&event).unwrap();
    let signature = x_service_signature(API_KEY.as_bytes(), &body);
    let timestamp = SENT_AT_MS.to_string();
    let headers = [
        ("x-service-signature", signature.as_str()),
        ("x-service-timestamp", timestamp.as_str()),
    ];

    let webhook = Verifier::new(ApiKey::new(API_KEY).unwrap())
        .verify_and_parse_at(&headers[..], &body, now())
        .unwrap();

    let Event::ReceiptStatusUpdated(parsed) = webhook.into_event() else {
        panic!("expected a receipt event");
    };

    assert_eq!(
        parsed.failure_code.as_deref(),
        Some("PORTAL_PAY_INSUFFICIENT_FUNDS")
    );
    assert_eq!(
        parsed
            .failure_category
            .as_ref()
            .map(|c| c.as_str().to_owned())
            .as_deref(),
        Some("card_decline")
    );
    assert_eq!(parsed.transaction_hash, None);
}

#[test]
fn a_signature_made_with_another_merchants_key_is_rejected() {
    let body = serde_json::to_vec(&paid_event()).unwrap();
    let signature = x_service_signature(b"sk_test_someone_else", &body);
    let timestamp = SENT_AT_MS.to_string();
    let headers = [
        ("X-Service-Signature", signature.as_str()),
        ("X-Service-Timestamp", timestamp.as_str()),
    ];

    let outcome = Verifier::new(ApiKey::new(API_KEY).unwrap()).verify_at(&headers[..], &body, now());

    assert!(
        matches!(outcome, Err(VerifyError::SignatureMismatch)),
        "{outcome:?}"
    );
}
