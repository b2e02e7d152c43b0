//! [`Verifier`]: the one entry point that checks a webhook request.

use std::fmt;
use std::time::SystemTime;

use crate::error::{KeyError, VerifyError};
use crate::headers::Headers;
use crate::keys::{ApiKey, WebhookSecret};
use crate::tolerance::Tolerance;
#[cfg(feature = "serde")]
use crate::webhook::Webhook;
use crate::{signature, standard};

/// Checks that a webhook request was sent by the payments service, signed with one of your keys, and is fresh.
///
/// A verifier checks exactly one scheme, chosen by how you build it:
///
/// - [`Verifier::new`] / [`Verifier::from_api_keys`]: `X-Service-Signature` (HMAC of the raw body with your API
///   key) plus the freshness of `X-Service-Timestamp`.
/// - [`Verifier::standard_webhooks`] / [`Verifier::from_webhook_secrets`]: Standard Webhooks `webhook-id`,
///   `webhook-timestamp` and `webhook-signature`, where id and timestamp are signed too (replay protection).
///
/// Building it once at start-up and sharing it (it is `Clone + Send + Sync`) is cheap and recommended.
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// use webhook_verify::{ApiKey, Scheme, Verifier};
///
/// let verifier = Verifier::new(ApiKey::new("c3j27xdcg2lMLzgeonyLGcTJFiz4soCm")?);
/// let body = br#"{"event":"receipt.status_updated","receiptId":"R-000123","status":"paid","previousStatus":"checkout_initialized","totalUsd":25.0}"#;
/// let headers = [
///     ("X-Service-Signature", "sha256=247257e9be62a5719c5b22c41bfc6a749e53f13401f8f241633975b2222d03ca"),
///     ("X-Service-Timestamp", "1767599992000"),
/// ];
/// // A recorded delivery, checked as of one second after it was sent. In a handler: `verifier.verify(..)`.
/// let now = UNIX_EPOCH + Duration::from_millis(1_767_599_993_000);
/// let verified = verifier.verify_at(&headers, body, now)?;
/// assert_eq!(verified.scheme, Scheme::XService);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Verifier {
    keys: Keys,
    tolerance: Tolerance,
}

/// The candidate keys, all of one scheme.
#[derive(Clone, Debug)]
enum Keys {
    XService(Vec<ApiKey>),
    StandardWebhooks(Vec<WebhookSecret>),
}

/// The signature scheme a [`Verifier`] checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Scheme {
    /// `X-Service-Signature: sha256=<hex>` over the raw body, keyed with the API key.
    XService,
    /// Standard Webhooks `webhook-signature: v1,<base64>` over `{id}.{timestamp}.{body}`.
    StandardWebhooks,
}

impl fmt::Display for Scheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::XService => "X-Service-Signature",
            Self::StandardWebhooks => "Standard Webhooks",
        })
    }
}

/// What a successful [`Verifier::verify`] established.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Verified {
    /// The scheme whose signature held.
    pub scheme: Scheme,
    /// The delivery timestamp that passed the freshness check; `None` when the check is disabled for
    /// [`Scheme::XService`].
    pub timestamp: Option<SystemTime>,
    /// The signed `webhook-id` ([`Scheme::StandardWebhooks`] only): a replay-safe deduplication key.
    pub webhook_id: Option<String>,
}

impl Verifier {
    /// A verifier of `X-Service-Signature` with one API key and the default five-minute tolerance.
    pub fn new(api_key: ApiKey) -> Self {
        Self {
            keys: Keys::XService(vec![api_key]),
            tolerance: Tolerance::DEFAULT,
        }
    }

    /// A verifier of `X-Service-Signature` that accepts a signature made with any of `api_keys`, for key
    /// rotation: list the new key and the old one until no delivery signed with the old one can arrive.
    ///
    /// # Errors
    ///
    /// [`KeyError::NoKeys`] when `api_keys` is empty.
    pub fn from_api_keys(api_keys: impl IntoIterator<Item = ApiKey>) -> Result<Self, KeyError> {
        let keys: Vec<_> = api_keys.into_iter().collect();
        if keys.is_empty() {
            return Err(KeyError::NoKeys);
        }
        Ok(Self {
            keys: Keys::XService(keys),
            tolerance: Tolerance::DEFAULT,
        })
    }

    /// A verifier of the Standard Webhooks headers with one `whsec_` secret and the default tolerance.
    pub fn standard_webhooks(secret: WebhookSecret) -> Self {
        Self {
            keys: Keys::StandardWebhooks(vec![secret]),
            tolerance: Tolerance::DEFAULT,
        }
    }

    /// A verifier of the Standard Webhooks headers that accepts a signature made with any of `secrets`.
    ///
    /// # Errors
    ///
    /// [`KeyError::NoKeys`] when `secrets` is empty.
    pub fn from_webhook_secrets(secrets: impl IntoIterator<Item = WebhookSecret>) -> Result<Self, KeyError> {
        let secrets: Vec<_> = secrets.into_iter().collect();
        if secrets.is_empty() {
            return Err(KeyError::NoKeys);
        }
        Ok(Self {
            keys: Keys::StandardWebhooks(secrets),
            tolerance: Tolerance::DEFAULT,
        })
    }

    /// Replaces the freshness tolerance (default: [`Tolerance::DEFAULT`], five minutes).
    #[must_use]
    pub fn with_tolerance(mut self, tolerance: Tolerance) -> Self {
        self.tolerance = tolerance;
        self
    }

    /// The scheme this verifier checks.
    pub fn scheme(&self) -> Scheme {
        match self.keys {
            Keys::XService(_) => Scheme::XService,
            Keys::StandardWebhooks(_) => Scheme::StandardWebhooks,
        }
    }

    /// The freshness tolerance in force.
    pub fn tolerance(&self) -> Tolerance {
        self.tolerance
    }

    /// Checks a request's headers against its **raw** body bytes, as received, before any JSON parsing.
    ///
    /// # Errors
    ///
    /// [`VerifyError::MissingHeader`], [`VerifyError::AmbiguousHeader`] or [`VerifyError::MalformedHeader`]
    /// when the scheme's headers are absent, repeated or not in its format; [`VerifyError::SignatureMismatch`]
    /// when no candidate key signed these bytes; [`VerifyError::Stale`] or [`VerifyError::FromTheFuture`]
    /// when the timestamp is outside the tolerance.
    pub fn verify<H: Headers + ?Sized>(&self, headers: &H, body: &[u8]) -> Result<Verified, VerifyError> {
        self.verify_at(headers, body, SystemTime::now())
    }

    /// [`Verifier::verify`] with an explicit "now", for tests and replays of recorded requests.
    ///
    /// # Errors
    ///
    /// As [`Verifier::verify`].
    pub fn verify_at<H: Headers + ?Sized>(
        &self,
        headers: &H,
        body: &[u8],
        now: SystemTime,
    ) -> Result<Verified, VerifyError> {
        match &self.keys {
            Keys::XService(keys) => signature::verify(keys, headers, body, self.tolerance, now),
            Keys::StandardWebhooks(secrets) => standard::verify(secrets, headers, body, self.tolerance, now),
        }
    }

    /// Verifies the request, then reads the authentic body as a typed [`Webhook`]: the event itself, or the
    /// endpoint envelope around it.
    ///
    /// Every event type parses: receipt and subscription events into their typed bodies, a type this
    /// version does not know into [`Event::Unknown`](crate::Event::Unknown), so a new event never fails a
    /// correctly signed delivery.
    ///
    /// ```
    /// # #[cfg(feature = "test-helpers")]
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use std::time::SystemTime;
    /// use webhook_verify::{Event, Verifier, WebhookSecret, testing};
    ///
    /// let secret = WebhookSecret::new("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")?;
    /// let body = br#"{"event":"subscription.paused","subscriptionId":"csub_1"}"#;
    /// let headers = testing::standard_webhooks_headers(&secret, "msg_1", body, SystemTime::now());
    ///
    /// let webhook = Verifier::standard_webhooks(secret).verify_and_parse(&headers, body)?;
    ///
    /// assert!(matches!(webhook.event(), Event::Unknown { event_type, .. } if event_type == "subscription.paused"));
    /// # Ok(())
    /// # }
    /// # #[cfg(not(feature = "test-helpers"))]
    /// # fn main() {}
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Verifier::verify`], and [`VerifyError::InvalidBody`] when the authentic body is not an event
    /// ([`Webhook::parse`]).
    #[cfg(feature = "serde")]
    pub fn verify_and_parse<H: Headers + ?Sized>(
        &self,
        headers: &H,
        body: &[u8],
    ) -> Result<Webhook, VerifyError> {
        self.verify_and_parse_at(headers, body, SystemTime::now())
    }

    /// [`Verifier::verify_and_parse`] with an explicit "now".
    ///
    /// # Errors
    ///
    /// As [`Verifier::verify_and_parse`].
    #[cfg(feature = "serde")]
    pub fn verify_and_parse_at<H: Headers + ?Sized>(
        &self,
        headers: &H,
        body: &[u8],
        now: SystemTime,
    ) -> Result<Webhook, VerifyError> {
        self.verify_at(headers, body, now)?;
        Webhook::parse(body).map_err(VerifyError::InvalidBody)
    }
}
