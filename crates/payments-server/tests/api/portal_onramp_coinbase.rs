//! "Pay with card" through Coinbase Onramp against its documented HTTP API, mocked with wiremock:
//! `POST /platform/v2/onramp/sessions`, JSON, authenticated by a CDP JWT signed with the key's Ed25519 half;
//! its single-use URLs are never handed out twice, and its error types map to the spec's categories.

use payments_core::Wallet;
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

use crate::orders::merchant_with_split;
use crate::portal_onramp::{
    CDP_KEY_ID, ED25519_PUBLIC, coinbase, press_card, read, receipt, refused_with, spawn,
};

#[tokio::test]
async fn coinbase_gets_a_jwt_signed_session_for_exactly_the_amount_with_the_redirect() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/platform/v2/onramp/sessions"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "session": {"onrampUrl": "https://pay.coinbase.com/buy?sessionToken=tok_cb_1&defaultAsset=USDC"}
        })))
        .mount(&server)
        .await;
    let api = spawn(Some(coinbase(&server))).await;
    let merchant = merchant_with_split(&api).await;
    let deposit = receipt(&api, &merchant.key, "card-5", None).await;

    let first = press_card(&api, &merchant.key, "card-5").await;
    let second = press_card(&api, &merchant.key, "card-5").await;

    assert_eq!(first.status, 200, "{}", first.json);
    assert_eq!(first.json["provider"], "coinbase");
    assert_eq!(first.json["sessionId"], "tok_cb_1");
    assert_eq!(
        first.json["url"],
        "https://pay.coinbase.com/buy?sessionToken=tok_cb_1&defaultAsset=USDC"
    );
    assert_eq!(second.json["reused"], false, "Coinbase URLs are single-use");
    let requests = server.received_requests().await.unwrap();
    assert_eq!(requests.len(), 2);
    let request = &requests[0];
    let body: Value = serde_json::from_slice(&request.body).unwrap();
    assert_eq!(
        body,
        json!({
            "purchaseCurrency": "USDC",
            "destinationNetwork": "base",
            "destinationAddress": Wallet::parse(&deposit).unwrap().to_checksum(),
            "purchaseAmount": "12.65",
            "paymentCurrency": "USD",
            "redirectUrl": "https://shop.example/thanks",
            "clientIp": "127.0.0.1",
            "partnerUserRef": "card-5",
        })
    );
    let bearer = request.headers["authorization"].to_str().unwrap();
    let token = bearer.strip_prefix("Bearer ").unwrap();
    let header = jsonwebtoken::decode_header(token).unwrap();
    assert_eq!(header.alg, jsonwebtoken::Algorithm::EdDSA);
    assert_eq!(header.kid.as_deref(), Some(CDP_KEY_ID));
    let key = jsonwebtoken::DecodingKey::from_ed_der(&hex::decode(ED25519_PUBLIC).unwrap());
    let mut validation = jsonwebtoken::Validation::new(jsonwebtoken::Algorithm::EdDSA);
    validation.set_issuer(&["cdp"]);
    validation.validate_nbf = true;
    let claims = jsonwebtoken::decode::<Value>(token, &key, &validation)
        .unwrap()
        .claims;
    assert_eq!(claims["sub"], CDP_KEY_ID);
    let host = server.uri().trim_start_matches("http://").to_owned();
    assert_eq!(claims["uri"], format!("POST {host}/platform/v2/onramp/sessions"));
    assert_eq!(
        claims["exp"].as_u64().unwrap() - claims["nbf"].as_u64().unwrap(),
        120
    );
    let nonce = |request: &Request| {
        let bearer = request.headers["authorization"].to_str().unwrap();
        let header = bearer
            .strip_prefix("Bearer ")
            .unwrap()
            .split('.')
            .next()
            .unwrap()
            .to_owned();
        use base64::Engine as _;
        let decoded = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(header)
            .unwrap();
        serde_json::from_slice::<Value>(&decoded).unwrap()["nonce"].clone()
    };
    assert!(nonce(&requests[0]).as_str().is_some_and(|n| n.len() == 32));
    assert_ne!(
        nonce(&requests[0]),
        nonce(&requests[1]),
        "a fresh nonce per token"
    );
}

#[tokio::test]
async fn coinbase_errors_map_to_failure_categories() {
    let server = MockServer::start().await;
    let api = spawn(Some(coinbase(&server))).await;
    let merchant = merchant_with_split(&api).await;
    receipt(&api, &merchant.key, "card-4", None).await;
    let route = "/platform/v2/onramp/sessions";
    let error = |status: u16, kind: &str| {
        ResponseTemplate::new(status).set_body_json(json!({
            "errorType": kind, "errorMessage": "no", "correlationId": "c-1",
            "errorLink": "https://docs.cdp.coinbase.com/api-reference/v2/errors"
        }))
    };
    let cases = [
        (error(400, "guest_region_forbidden"), "compliance"),
        (error(400, "guest_transaction_limit"), "limits"),
        (error(401, "unauthorized"), "system"),
        (error(429, "rate_limit_exceeded"), "system"),
        (error(503, "internal_server_error"), "system"),
        (
            ResponseTemplate::new(200)
                .set_body_json(json!({"session": {"onrampUrl": "https://pay.coinbase.com/buy"}})),
            "system",
        ),
    ];

    for (answer, category) in cases {
        let reply = refused_with(&server, route, answer, &api, &merchant.key).await;

        assert_eq!(reply.status, 502, "{}", reply.json);
        assert_eq!(reply.json["failureCategory"], category, "{}", reply.json);
    }
    assert_eq!(
        read(&api, &merchant.key, "card-4").await["onrampSessionId"],
        Value::Null
    );
}
