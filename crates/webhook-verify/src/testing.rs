//! Signed requests for testing your own webhook handler (feature `test-helpers`).
//!
//! Keep this feature in `[dev-dependencies]` only:
//!
//! ```toml
//! [dev-dependencies]
//! webhook-verify = { version = "0.1", features = ["test-helpers"] }
//! ```
//!
//! ```
//! use std::time::SystemTime;
//! use webhook_verify::{ApiKey, Verifier, testing};
//!
//! let key = ApiKey::new("sk_test_key")?;
//! let body = br#"{"event":"receipt.status_updated","receiptId":"R-1","status":"paid"}"#;
//! let headers = testing::x_service_headers(&key, body, SystemTime::now());
//! // Send `headers` and `body` to your handler; here we check them directly.
//! assert!(Verifier::new(key).verify(&headers, body).is_ok());
//! # Ok::<(), webhook_verify::KeyError>(())
//! ```

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::headers::{
    WEBHOOK_ID, WEBHOOK_SIGNATURE, WEBHOOK_TIMESTAMP, X_SERVICE_DELIVERY, X_SERVICE_EVENT,
    X_SERVICE_SIGNATURE, X_SERVICE_TIMESTAMP,
};
use crate::keys::{ApiKey, WebhookSecret};
use crate::{signature, standard};

/// The `X-Service-Event` of [`x_service_headers`]; the verifier does not read that header.
const X_SERVICE_EVENT_NAME: &str = "receipt.status_updated";

/// The `X-Service-Signature` value (`sha256=<hex>`) for `body` signed with `api_key`.
pub fn sign_x_service(api_key: &ApiKey, body: &[u8]) -> String {
    signature::sign(api_key, body)
}

/// The `webhook-signature` value (`v1,<base64>`) for `body` with this id and timestamp (Unix seconds).
pub fn sign_standard_webhooks(
    secret: &WebhookSecret,
    webhook_id: &str,
    timestamp_secs: u64,
    body: &[u8],
) -> String {
    standard::sign(secret, webhook_id, timestamp_secs, body)
}

/// The headers the service sends with `body` under the `X-Service-*` scheme, delivered at `timestamp`.
///
/// Contains `X-Service-Signature`, `X-Service-Timestamp`, `X-Service-Event` (always
/// `receipt.status_updated`: the verifier does not read it) and an `X-Service-Delivery` derived from the
/// signature (the same key and body give the same delivery id, like a retry).
pub fn x_service_headers(
    api_key: &ApiKey,
    body: &[u8],
    timestamp: SystemTime,
) -> Vec<(&'static str, String)> {
    let signature = sign_x_service(api_key, body);
    let delivery = delivery_id(&signature);
    vec![
        (X_SERVICE_SIGNATURE, signature),
        (
            X_SERVICE_TIMESTAMP,
            since_epoch(timestamp).as_millis().to_string(),
        ),
        (X_SERVICE_EVENT, X_SERVICE_EVENT_NAME.to_owned()),
        (X_SERVICE_DELIVERY, delivery),
    ]
}

/// The Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`) for `body`.
pub fn standard_webhooks_headers(
    secret: &WebhookSecret,
    webhook_id: &str,
    body: &[u8],
    timestamp: SystemTime,
) -> Vec<(&'static str, String)> {
    let secs = since_epoch(timestamp).as_secs();
    vec![
        (WEBHOOK_ID, webhook_id.to_owned()),
        (WEBHOOK_TIMESTAMP, secs.to_string()),
        (
            WEBHOOK_SIGNATURE,
            sign_standard_webhooks(secret, webhook_id, secs, body),
        ),
    ]
}

fn since_epoch(timestamp: SystemTime) -> Duration {
    timestamp.duration_since(UNIX_EPOCH).unwrap_or(Duration::ZERO)
}

/// A UUID-shaped id made of the signature's first 32 hex digits.
fn delivery_id(signature: &str) -> String {
    let mut id = String::with_capacity(36);
    for (i, digit) in signature
        .trim_start_matches("sha256=")
        .chars()
        .take(32)
        .enumerate()
    {
        if matches!(i, 8 | 12 | 16 | 20) {
            id.push('-');
        }
        id.push(digit);
    }
    id
}
