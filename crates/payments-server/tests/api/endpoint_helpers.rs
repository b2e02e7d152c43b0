//! Shared steps of the webhook endpoint tests: registering an endpoint, verifying what it received with its
//! `whsec_` secret (webhook-verify), and reading its delivery log.

use std::time::{Duration, UNIX_EPOCH};

use reqwest::Method;
use serde_json::{Value, json};
use webhook_verify::{Verifier, VerifyError, WebhookSecret};

use crate::helpers::{Api, send};
use crate::webhook_receiver::Received;
use payments_server::testing::eventually;

/// A registered endpoint: its id and the secret shown on create.
pub(crate) struct Endpoint {
    pub(crate) id: String,
    pub(crate) secret: String,
}

/// Registers `url` for `events`; answers the endpoint.
pub(crate) async fn register(api: &Api, url: &str, events: &[&str]) -> Endpoint {
    let reply = send(
        api.dev(Method::POST, "/api/webhook-endpoints")
            .json(&json!({"url": url, "events": events, "description": "test receiver"})),
    )
    .await;
    assert_eq!(reply.status, 201, "endpoint not created: {}", reply.json);
    Endpoint {
        id: reply.json["id"].as_str().unwrap().to_owned(),
        secret: reply.json["secret"].as_str().unwrap().to_owned(),
    }
}

/// Verifies `request` with `secret` at the time it was signed.
pub(crate) fn verify_with(secret: &str, request: &Received) -> Result<(), VerifyError> {
    verify_body_with(secret, request, &request.body)
}

/// Verifies `request`'s headers over `body` (a tampered one, say).
pub(crate) fn verify_body_with(secret: &str, request: &Received, body: &[u8]) -> Result<(), VerifyError> {
    let signed_at: u64 = request.header("webhook-timestamp").parse().unwrap();
    Verifier::standard_webhooks(WebhookSecret::new(secret).unwrap())
        .verify_at(
            &request.headers,
            body,
            UNIX_EPOCH + Duration::from_secs(signed_at),
        )
        .map(|_| ())
}

/// The endpoint's delivery log (newest first), with `query` appended.
pub(crate) async fn deliveries(api: &Api, endpoint: &str, query: &str) -> Value {
    let reply = send(api.dev(
        Method::GET,
        &format!("/api/webhook-endpoints/{endpoint}/deliveries{query}"),
    ))
    .await;
    assert_eq!(reply.status, 200, "{}", reply.json);
    reply.json
}

/// Waits until the endpoint's newest delivery has `attempts` attempts recorded; returns it.
pub(crate) async fn newest_after(api: &Api, endpoint: &str, attempts: i64) -> Value {
    eventually("the endpoint's delivery log", Duration::from_secs(10), || async {
        let page = deliveries(api, endpoint, "").await;
        let newest = page["deliveries"].get(0)?.clone();
        (newest["attempts"].as_i64()? >= attempts).then_some(newest)
    })
    .await
}

/// Sends a test event of `event_type` (to `endpoint` only, when given).
pub(crate) async fn trigger(api: &Api, event_type: &str, endpoint: Option<&str>) -> Value {
    let reply = send(
        api.dev(Method::POST, "/api/webhook-endpoints/test-event")
            .json(&json!({"type": event_type, "endpointId": endpoint})),
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.json);
    reply.json
}
