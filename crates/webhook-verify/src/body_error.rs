//! [`BodyError`]: an authentic body that is not an event this crate can read.

use std::error::Error;
use std::fmt;

/// The body is not an event: not JSON, not an object with an `event` (or an envelope's `type` and `data`),
/// or an event of a known type whose fields do not have that type's shape.
///
/// A body of an event type this version does not know is **not** an error: it parses as
/// [`Event::Unknown`](crate::Event::Unknown).
#[derive(Debug)]
pub struct BodyError(Kind);

#[derive(Debug)]
enum Kind {
    /// The bytes are not JSON, or not the shape of the event type they announce.
    Json {
        event_type: Option<String>,
        source: serde_json::Error,
    },
    /// Valid JSON, but no event: what is missing.
    NotAnEvent(&'static str),
    /// An envelope whose `type` differs from its `data`'s own `event`.
    TypeMismatch {
        envelope_type: String,
        data_event: String,
    },
}

impl BodyError {
    pub(crate) fn json(event_type: Option<&str>, source: serde_json::Error) -> Self {
        Self(Kind::Json {
            event_type: event_type.map(str::to_owned),
            source,
        })
    }

    pub(crate) fn not_an_event(reason: &'static str) -> Self {
        Self(Kind::NotAnEvent(reason))
    }

    pub(crate) fn type_mismatch(envelope_type: &str, data_event: &str) -> Self {
        Self(Kind::TypeMismatch {
            envelope_type: envelope_type.to_owned(),
            data_event: data_event.to_owned(),
        })
    }

    /// The event type the body announced, when it announced one (its `event`, or an envelope's `type`) but
    /// its fields did not match that type.
    pub fn event_type(&self) -> Option<&str> {
        match &self.0 {
            Kind::Json { event_type, .. } => event_type.as_deref(),
            Kind::TypeMismatch { envelope_type, .. } => Some(envelope_type),
            Kind::NotAnEvent(_) => None,
        }
    }
}

impl fmt::Display for BodyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Kind::Json {
                event_type: Some(event_type),
                source,
            } => write!(f, "invalid {event_type:?} event: {source}"),
            Kind::Json {
                event_type: None,
                source,
            } => write!(f, "invalid event JSON: {source}"),
            Kind::NotAnEvent(reason) => write!(f, "not an event: {reason}"),
            Kind::TypeMismatch {
                envelope_type,
                data_event,
            } => write!(
                f,
                "envelope type {envelope_type:?} differs from its data's event {data_event:?}"
            ),
        }
    }
}

impl Error for BodyError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match &self.0 {
            Kind::Json { source, .. } => Some(source),
            Kind::NotAnEvent(_) | Kind::TypeMismatch { .. } => None,
        }
    }
}
