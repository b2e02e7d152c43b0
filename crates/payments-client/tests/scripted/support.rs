//! Shared arrangements: clients of a mock server, canned service answers.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use payments_client::{Client, RetryPolicy};
use serde_json::{Value, json};
use wiremock::{MockServer, Request, ResponseTemplate};

/// A client of `server` with a key and the given retry policy.
pub(crate) fn client(server: &MockServer, policy: RetryPolicy) -> Client {
    Client::builder(server.uri())
        .subscription_key("sk_test_scripted")
        .retries(policy)
        .build()
        .unwrap()
}

/// Retries with millisecond backoffs, so tests do not wait.
pub(crate) fn fast_retries(max_retries: u32) -> RetryPolicy {
    RetryPolicy::exponential(max_retries).backoff(Duration::from_millis(1), Duration::from_millis(5))
}

/// A receipt as the service renders it, with `status`.
pub(crate) fn receipt(status: &str) -> Value {
    json!({
        "receiptId": "r-1",
        "totalUsd": 12.5,
        "currency": "USD",
        "lineItems": [{ "label": "Mug", "priceUsd": 12.5 }],
        "createdAt": 1_700_000_000_000_i64,
        "status": status,
    })
}

/// `POST /api/orders`' success answer.
pub(crate) fn order_created() -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({ "ok": true, "receipt": receipt("generated") }))
}

/// `GET /healthz`' answer.
pub(crate) fn healthy() -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({ "status": "ok", "datastore": "ok" }))
}

/// The spec's error envelope with `status`.
pub(crate) fn refusal(status: u16, code: &str) -> ResponseTemplate {
    ResponseTemplate::new(status).set_body_json(json!({ "error": code, "message": "scripted" }))
}

/// 503 `datastore_unavailable` with `Retry-After: 0`, as the service answers while its database is locked.
pub(crate) fn datastore_busy() -> ResponseTemplate {
    refusal(503, "datastore_unavailable").insert_header("retry-after", "0")
}

/// 429 whose quota resets `wait` from now.
pub(crate) fn rate_limited_for(wait: Duration) -> ResponseTemplate {
    let reset_at = SystemTime::now().duration_since(UNIX_EPOCH).unwrap() + wait;
    ResponseTemplate::new(429).set_body_json(json!({
        "error": "rate_limited",
        "message": "slow down",
        "resetAt": u64::try_from(reset_at.as_millis()).unwrap(),
    }))
}

/// The requests the server received.
pub(crate) async fn received(server: &MockServer) -> Vec<Request> {
    server.received_requests().await.unwrap()
}

/// The `Idempotency-Key` of each request, in order.
pub(crate) fn idempotency_keys(requests: &[Request]) -> Vec<Option<String>> {
    requests
        .iter()
        .map(|request| {
            request
                .headers
                .get("idempotency-key")
                .map(|value| value.to_str().unwrap().to_owned())
        })
        .collect()
}

/// A server whose first connection is closed without an answer (as when a proxy or the network drops
/// it mid-request); the connections after it reach a wiremock server with `mocks` mounted. The first
/// connection is closed only once the mocks are in place, so the client's retry always finds them.
pub(crate) async fn dropping_first_connection(
    mocks: Vec<wiremock::Mock>,
) -> (String, tokio::task::JoinHandle<MockServer>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let uri = format!("http://{}", listener.local_addr().unwrap());
    let server = tokio::spawn(async move {
        let (first, _) = listener.accept().await.unwrap();
        let server = MockServer::builder()
            .listener(listener.into_std().unwrap())
            .start()
            .await;
        for mock in mocks {
            mock.mount(&server).await;
        }
        drop(first);
        server
    });
    (uri, server)
}

/// A client of `uri` (a server that is not a [`MockServer`]).
pub(crate) fn client_of(uri: &str, policy: RetryPolicy) -> Client {
    Client::builder(uri)
        .subscription_key("sk_test_scripted")
        .retries(policy)
        .build()
        .unwrap()
}
