//! Merchant webhook endpoints (issue 28): which events an endpoint subscribes to, the one envelope every
//! endpoint delivery carries, and the Standard Webhooks signature header with one or two secrets (during a
//! rotation both the new and the previous secret sign, space-separated, as the
//! [Standard Webhooks spec](https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md)
//! allows).

use std::fmt;
use std::time::Duration;

use serde::Serialize;
use thiserror::Error;

use crate::webhook::StandardWebhooksSecret;

/// The most endpoints one merchant may register.
pub const MAX_ENDPOINTS_PER_MERCHANT: usize = 16;
/// The most event patterns one endpoint may list.
pub const MAX_EVENT_FILTERS: usize = 32;
/// How long the previous secret keeps signing after a rotation.
pub const ROTATION_OVERLAP_MS: i64 = 24 * 60 * 60 * 1000;
/// An endpoint whose deliveries have failed without a success for this long is disabled.
pub const DISABLE_AFTER_FAILING_MS: i64 = 5 * 24 * 60 * 60 * 1000;
/// The event sent to a merchant's other endpoints when one is disabled.
pub const WEBHOOK_ENDPOINT_DISABLED: &str = "webhook_endpoint.disabled";

/// The default pause before each retry of an endpoint delivery: 5 s, 5 min, 30 min, 2 h, 5 h, then 10 h
/// six times (about 2.8 days in all), after which the delivery is `failed`.
pub fn default_endpoint_retry_schedule() -> Vec<Duration> {
    const MINUTE: u64 = 60;
    const HOUR: u64 = 60 * MINUTE;
    let mut schedule = vec![
        Duration::from_secs(5),
        Duration::from_secs(5 * MINUTE),
        Duration::from_secs(30 * MINUTE),
        Duration::from_secs(2 * HOUR),
        Duration::from_secs(5 * HOUR),
    ];
    schedule.extend(std::iter::repeat_n(Duration::from_secs(10 * HOUR), 6));
    schedule
}

/// One pattern of an endpoint's `events` list: `*` (every event), `receipt.*` (every event of a family),
/// or an exact type such as `subscription.charged`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventFilter {
    /// `*`
    All,
    /// `family.*`: the family (`receipt`) without the dot.
    Family(String),
    /// One exact event type.
    Exact(String),
}

/// A malformed event pattern or list.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum EventFilterError {
    /// No pattern at all: an endpoint must subscribe to something.
    #[error("events must list at least one event type or pattern (\"*\" for every event)")]
    Empty,
    /// More than [`MAX_EVENT_FILTERS`] patterns.
    #[error("events may list at most {MAX_EVENT_FILTERS} patterns")]
    TooMany,
    /// Not `*`, `family.*` or a type of lowercase letters, digits, `_` and dots.
    #[error(
        "event pattern '{0}' is not \"*\", \"family.*\" or an event type such as \"subscription.charged\""
    )]
    Malformed(String),
}

fn is_type_text(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= 64
        && text
            .bytes()
            .all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'_' || byte == b'.')
        && !text.starts_with('.')
        && !text.ends_with('.')
        && !text.contains("..")
}

impl EventFilter {
    /// Parses one pattern.
    ///
    /// ```
    /// use payments_core::EventFilter;
    /// assert!(EventFilter::parse("receipt.*").unwrap().matches("receipt.status_updated"));
    /// assert!(!EventFilter::parse("subscription.charged").unwrap().matches("subscription.created"));
    /// ```
    ///
    /// # Errors
    /// [`EventFilterError::Malformed`].
    pub fn parse(text: &str) -> Result<Self, EventFilterError> {
        let malformed = || EventFilterError::Malformed(text.chars().take(64).collect());
        if text == "*" {
            return Ok(EventFilter::All);
        }
        if let Some(family) = text.strip_suffix(".*") {
            return if is_type_text(family) {
                Ok(EventFilter::Family(family.to_owned()))
            } else {
                Err(malformed())
            };
        }
        if is_type_text(text) && text.contains('.') {
            Ok(EventFilter::Exact(text.to_owned()))
        } else {
            Err(malformed())
        }
    }

    /// Whether an event of `event_type` goes to an endpoint with this pattern.
    pub fn matches(&self, event_type: &str) -> bool {
        match self {
            EventFilter::All => true,
            EventFilter::Family(family) => event_type
                .strip_prefix(family.as_str())
                .is_some_and(|rest| rest.starts_with('.')),
            EventFilter::Exact(exact) => exact == event_type,
        }
    }
}

impl fmt::Display for EventFilter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EventFilter::All => f.write_str("*"),
            EventFilter::Family(family) => write!(f, "{family}.*"),
            EventFilter::Exact(exact) => f.write_str(exact),
        }
    }
}

/// An endpoint's `events` list, parsed; duplicates are dropped, order kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventFilters(Vec<EventFilter>);

impl EventFilters {
    /// Parses every pattern.
    ///
    /// # Errors
    /// [`EventFilterError::Empty`], [`EventFilterError::TooMany`] or the first malformed pattern.
    pub fn parse<S: AsRef<str>>(patterns: &[S]) -> Result<Self, EventFilterError> {
        if patterns.is_empty() {
            return Err(EventFilterError::Empty);
        }
        if patterns.len() > MAX_EVENT_FILTERS {
            return Err(EventFilterError::TooMany);
        }
        let mut filters: Vec<EventFilter> = Vec::with_capacity(patterns.len());
        for pattern in patterns {
            let filter = EventFilter::parse(pattern.as_ref())?;
            if !filters.contains(&filter) {
                filters.push(filter);
            }
        }
        Ok(EventFilters(filters))
    }

    /// Whether any pattern matches `event_type`.
    pub fn matches(&self, event_type: &str) -> bool {
        self.0.iter().any(|filter| filter.matches(event_type))
    }

    /// The patterns as text, in their order.
    pub fn to_strings(&self) -> Vec<String> {
        self.0.iter().map(ToString::to_string).collect()
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct EnvelopeHead<'a> {
    id: &'a str,
    #[serde(rename = "type")]
    event_type: &'a str,
    created_at: i64,
    test: bool,
}

/// One event as endpoints receive it, before it is written as the envelope
/// `{ "id", "type", "createdAt", "test", "data" }` (`createdAt` in Unix ms, as every time of the API).
#[derive(Debug, Clone, Copy)]
pub struct EventEnvelope<'a> {
    /// The event id (`evt_...`), also the `webhook-id` of every delivery of it.
    pub id: &'a str,
    /// The event type, e.g. `receipt.status_updated`.
    pub event_type: &'a str,
    /// When the event happened, unix ms.
    pub created_at_ms: i64,
    /// A test event sent by `payments webhooks trigger`.
    pub test: bool,
    /// The JSON of the receipt or subscription the event is about, as the per-object webhook sends it.
    pub data: &'a [u8],
}

impl EventEnvelope<'_> {
    /// The body bytes: the head fields, then `data` spliced in as it is (already JSON, so its exact number
    /// texts are kept).
    ///
    /// ```
    /// use payments_core::EventEnvelope;
    /// let body = EventEnvelope { id: "evt_1", event_type: "receipt.status_updated", created_at_ms: 0,
    ///     test: false, data: br#"{"status":"paid"}"# }.to_body();
    /// assert_eq!(body, br#"{"id":"evt_1","type":"receipt.status_updated","createdAt":0,"test":false,"data":{"status":"paid"}}"#);
    /// ```
    pub fn to_body(&self) -> Vec<u8> {
        let head = EnvelopeHead {
            id: self.id,
            event_type: self.event_type,
            created_at: self.created_at_ms,
            test: self.test,
        };
        // Serializing plain owned strings cannot fail; an empty head would fail verification loudly.
        let mut body = serde_json::to_vec(&head).unwrap_or_default();
        if body.last() == Some(&b'}') {
            body.pop();
        }
        body.extend_from_slice(b",\"data\":");
        body.extend_from_slice(self.data);
        body.push(b'}');
        body
    }
}

/// The `webhook-signature` header with every secret in `secrets`, space-separated (`v1,<a> v1,<b>`): during
/// a rotation's overlap the new and the previous secret both sign, so a receiver holding either accepts.
///
/// ```
/// use payments_core::{StandardWebhooksSecret, signature_header};
/// let new = StandardWebhooksSecret::from_key_bytes(b"new");
/// let old = StandardWebhooksSecret::from_key_bytes(b"old");
/// let header = signature_header(&[&new, &old], "evt_1", 1, b"{}");
/// assert_eq!(header.split(' ').count(), 2);
/// ```
pub fn signature_header(
    secrets: &[&StandardWebhooksSecret],
    webhook_id: &str,
    timestamp_secs: i64,
    body: &[u8],
) -> String {
    secrets
        .iter()
        .map(|secret| secret.sign(webhook_id, timestamp_secs, body))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
#[path = "webhook_endpoint_tests.rs"]
mod tests;
