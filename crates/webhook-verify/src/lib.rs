//! Verify `receipt.status_updated` webhooks from the merchant payments service.
//!
//! Every webhook the service sends is signed. Before you trust one, check it against the **raw body bytes**
//! you received, with the API key that created the receipt:
//!
//! ```
//! # #[cfg(feature = "serde")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use std::time::{Duration, UNIX_EPOCH};
//! use webhook_verify::{ApiKey, ReceiptStatus, Verifier};
//!
//! // Once, at start-up (e.g. from the MERCHANT_API_KEY environment variable):
//! let verifier = Verifier::new(ApiKey::new("c3j27xdcg2lMLzgeonyLGcTJFiz4soCm")?);
//!
//! // In the handler: the headers (any framework, see `Headers`) and the body exactly as received.
//! let headers = [
//!     ("X-Service-Signature", "sha256=247257e9be62a5719c5b22c41bfc6a749e53f13401f8f241633975b2222d03ca"),
//!     ("X-Service-Timestamp", "1767599992000"),
//! ];
//! let body = br#"{"event":"receipt.status_updated","receiptId":"R-000123","status":"paid","previousStatus":"checkout_initialized","totalUsd":25.0}"#;
//! # let now = UNIX_EPOCH + Duration::from_millis(1_767_599_992_500);
//! # let event = verifier.verify_and_parse_at(&headers, body, now)?;
//! # /*
//! let event = verifier.verify_and_parse(&headers, body)?;
//! # */
//! assert_eq!(event.receipt_id, "R-000123");
//! assert_eq!(event.status, ReceiptStatus::Paid);
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "serde"))]
//! # fn main() {}
//! ```
//!
//! # The two schemes
//!
//! **`X-Service-Signature`** ([`Verifier::new`]): `sha256=<64 lowercase hex>`, the HMAC-SHA256 of the raw body
//! keyed with your API key's UTF-8 bytes. The verifier also checks that `X-Service-Timestamp` (Unix
//! milliseconds) is within the [`Tolerance`] of now (five minutes by default).
//!
//! That timestamp is **not covered by the signature**: anyone who captured one delivery can resend the same
//! body with a fresh timestamp, and it will verify. The freshness check only stops naive delays. Protect
//! yourself against replays by deduplicating on `X-Service-Delivery` (stable across retries of one
//! delivery) and by making your handler idempotent.
//!
//! **Standard Webhooks** ([`Verifier::standard_webhooks`], <https://www.standardwebhooks.com>): the service
//! also sends `webhook-id`, `webhook-timestamp` (Unix **seconds**) and `webhook-signature: v1,<base64>`, an
//! HMAC-SHA256 of `{id}.{timestamp}.{body}` keyed with the base64-decoded part of your `whsec_...` secret.
//! Because id and timestamp are signed, a replay cannot refresh the timestamp and the id is a trustworthy
//! deduplication key ([`Verified::webhook_id`]). Prefer this scheme. The service keys it with your API key
//! too, so [`WebhookSecret::from_api_key`] gives the matching secret when you have no `whsec_` text. The
//! header may carry several space-separated signatures; one valid signature is enough.
//!
//! # Key rotation
//!
//! Build the verifier with every key that may still sign deliveries, new and old, with
//! [`Verifier::from_api_keys`] or [`Verifier::from_webhook_secrets`]; any of them is accepted. Drop the old
//! key once deliveries signed with it can no longer arrive (after the retry window).
//!
//! # Guarantees
//!
//! - Signatures are compared in constant time (`hmac`'s `verify_slice`).
//! - A header that must appear once but appears several times is an error
//!   ([`VerifyError::AmbiguousHeader`]), never "first wins".
//! - Malformed input of any kind (non-UTF-8, uppercase hex, wrong length, bad base64, huge numbers) yields
//!   an error, never a panic.
//! - `Debug` of keys and secrets prints `[redacted]`; error messages never contain key material.
//!
//! # Features
//!
//! - `serde` (default): `ReceiptStatusUpdated` and `Verifier::verify_and_parse`.
//! - `http`: [`Headers`] for `http::HeaderMap` (hyper, axum, reqwest, ...).
//! - `test-helpers`: the `testing` module, which signs bodies so you can test your own handler.
#![forbid(unsafe_code)]

mod error;
#[cfg(feature = "serde")]
mod event;
mod headers;
mod keys;
mod signature;
mod standard;
#[cfg(feature = "serde")]
mod status;
#[cfg(feature = "test-helpers")]
pub mod testing;
mod tolerance;
mod verifier;

pub use error::{KeyError, VerifyError};
#[cfg(feature = "serde")]
pub use event::{BodyError, RECEIPT_STATUS_UPDATED, ReceiptStatusUpdated};
pub use headers::{
    Headers, WEBHOOK_ID, WEBHOOK_SIGNATURE, WEBHOOK_TIMESTAMP, X_SERVICE_DELIVERY, X_SERVICE_EVENT,
    X_SERVICE_SIGNATURE, X_SERVICE_TIMESTAMP,
};
pub use keys::{ApiKey, WebhookSecret};
#[cfg(feature = "serde")]
pub use status::{FailureCategory, ReceiptStatus};
pub use tolerance::Tolerance;
pub use verifier::{Scheme, Verified, Verifier};
