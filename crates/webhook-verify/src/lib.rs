//! Verify the webhooks of the merchant payments service: receipt events, subscription events, and the
//! envelopes of webhook endpoints.
//!
//! Every webhook the service sends is signed. Before you trust one, check it against the **raw body bytes**
//! you received, with the API key that created the receipt (or the plan), or with your webhook endpoint's
//! `whsec_` secret:
//!
//! ```
//! # #[cfg(feature = "serde")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use std::time::{Duration, UNIX_EPOCH};
//! use webhook_verify::{ApiKey, Event, ReceiptStatus, Verifier};
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
//! # let webhook = verifier.verify_and_parse_at(&headers, body, now)?;
//! # /*
//! let webhook = verifier.verify_and_parse(&headers, body)?;
//! # */
//! match webhook.event() {
//!     Event::ReceiptStatusUpdated(receipt) => {
//!         assert_eq!(receipt.receipt_id, "R-000123");
//!         assert_eq!(receipt.status, ReceiptStatus::Paid);
//!     }
//!     Event::SubscriptionCharged(charged) => println!("subscription {} charged", charged.subscription_id),
//!     // Answer 2xx to the rest: the service may add event types at any time.
//!     other => println!("ignored {}", other.event_type()),
//! }
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
//! HMAC-SHA256 of `{id}.{timestamp}.{body}` keyed with the base64-decoded part of a `whsec_...` secret.
//! Because id and timestamp are signed, a replay cannot refresh the timestamp and the id is a trustworthy
//! deduplication key ([`Verified::webhook_id`]). Prefer this scheme. The header may carry several
//! space-separated signatures (during a secret rotation the service signs with the new and the old
//! secret); one valid signature is enough. The official `standardwebhooks` and `svix` libraries verify
//! the same headers, and this crate verifies theirs.
//!
//! # The two kinds of secret
//!
//! - **Your API key** signs the webhooks of a receipt's `webhook_url` and of a plan's `webhookUrl`: the key
//!   that created the receipt or the plan. [`ApiKey::new`] for `X-Service-Signature`; for the Standard
//!   Webhooks headers of those deliveries, [`WebhookSecret::from_api_key`] (the service keys them with the
//!   API key's bytes, so their `whsec_` text is `whsec_` + base64 of the key).
//! - **A webhook endpoint's own secret**, `whsec_<base64 of 24 to 64 random bytes>`, shown when the endpoint
//!   is created or its secret rotated, signs that endpoint's deliveries (Standard Webhooks headers only):
//!   [`WebhookSecret::new`].
//!
//! # Events
//!
//! [`Verifier::verify_and_parse`] returns a [`Webhook`]: the body is either the event itself
//! ([`Webhook::Direct`], the per-receipt and per-plan webhooks) or an [`Envelope`] around it
//! (`{"id", "type", "createdAt", "test", "data"}`, the webhook-endpoint deliveries), and
//! [`Webhook::event`] gives the typed [`Event`] in both cases. Event types this version does not know
//! arrive as [`Event::Unknown`], never as an error; statuses it does not know arrive as an `Unknown`
//! variant of their enum.
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
//! - `serde` (default): the typed events ([`Webhook`], [`Event`], `ReceiptStatusUpdated`,
//!   `SubscriptionEvent`) and `Verifier::verify_and_parse`.
//! - `http`: [`Headers`] for `http::HeaderMap` (hyper, axum, reqwest, ...).
//! - `test-helpers`: the `testing` module, which signs bodies so you can test your own handler.
#![forbid(unsafe_code)]

#[cfg(feature = "serde")]
mod amount;
#[cfg(feature = "serde")]
mod body_error;
mod error;
mod headers;
mod keys;
#[cfg(feature = "serde")]
mod receipt_event;
mod signature;
mod standard;
#[cfg(feature = "serde")]
mod status;
#[cfg(feature = "serde")]
mod subscription_event;
#[cfg(feature = "test-helpers")]
pub mod testing;
mod tolerance;
mod verifier;
#[cfg(feature = "serde")]
mod webhook;

#[cfg(feature = "serde")]
pub use amount::Amount;
#[cfg(feature = "serde")]
pub use body_error::BodyError;
pub use error::{KeyError, VerifyError};
pub use headers::{
    Headers, MAX_HEADER_BYTES, WEBHOOK_ID, WEBHOOK_SIGNATURE, WEBHOOK_TIMESTAMP, X_SERVICE_DELIVERY,
    X_SERVICE_EVENT, X_SERVICE_SIGNATURE, X_SERVICE_TIMESTAMP,
};
pub use keys::{ApiKey, WebhookSecret};
#[cfg(feature = "serde")]
pub use receipt_event::{PaymentBlock, RECEIPT_STATUS_UPDATED, ReceiptStatusUpdated};
#[cfg(feature = "serde")]
pub use status::{BillingPeriod, FailureCategory, ReceiptStatus, SubscriptionStatus};
#[cfg(feature = "serde")]
pub use subscription_event::{
    PlanChange, SUBSCRIPTION_CANCELED, SUBSCRIPTION_CHARGE_FAILED, SUBSCRIPTION_CHARGE_UPCOMING,
    SUBSCRIPTION_CHARGED, SUBSCRIPTION_CREATED, SUBSCRIPTION_UPDATED, SubscriptionCharge, SubscriptionEvent,
    UpcomingCharge,
};
pub use tolerance::Tolerance;
pub use verifier::{Scheme, Verified, Verifier};
#[cfg(feature = "serde")]
pub use webhook::{Envelope, Event, Webhook};
