//! Ids of merchant webhook endpoints and of the events they receive (issue 28).

use std::fmt;

/// A webhook endpoint id: `we_` + 32 hex digits of a UUID v7.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct EndpointId(String);

const ENDPOINT_PREFIX: &str = "we_";
const EVENT_PREFIX: &str = "evt_";

fn is_generated(text: &str, prefix: &str) -> bool {
    text.strip_prefix(prefix)
        .is_some_and(|hex| hex.len() == 32 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
}

impl EndpointId {
    pub fn generate() -> Self {
        EndpointId(format!("{ENDPOINT_PREFIX}{}", uuid::Uuid::now_v7().simple()))
    }

    /// `None` unless `text` has the generated form (so a malformed id is simply not found).
    pub fn parse(text: &str) -> Option<Self> {
        is_generated(text, ENDPOINT_PREFIX).then(|| EndpointId(text.to_owned()))
    }

    pub fn from_stored(id: String) -> Self {
        EndpointId(id)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for EndpointId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// An event id: `evt_` + 32 hex digits of a UUID v7; the envelope's `id` and the `webhook-id` of every
/// delivery of the event, to every endpoint, on every attempt (receivers dedupe by it).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct EventId(String);

impl EventId {
    pub fn generate() -> Self {
        EventId(format!("{EVENT_PREFIX}{}", uuid::Uuid::now_v7().simple()))
    }

    pub fn from_stored(id: String) -> Self {
        EventId(id)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_endpoint_ids_parse_and_other_texts_do_not() {
        let id = EndpointId::generate();

        assert_eq!(EndpointId::parse(id.as_str()), Some(id));
        assert_eq!(EndpointId::parse("we_123"), None);
        assert_eq!(EndpointId::parse("evt_0123456789abcdef0123456789abcdef"), None);
    }
}
