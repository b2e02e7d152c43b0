//! `X-Correlation-Id`: the caller's when well-formed, else a fresh UUID.

use std::fmt;

use hyper::HeaderMap;
use hyper::header::HeaderValue;

pub(crate) const HEADER: &str = "x-correlation-id";
const MAX_LEN: usize = 64;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CorrelationId(String);

impl CorrelationId {
    /// Accepts 1-64 characters of `[A-Za-z0-9._-]`; anything else is replaced rather than echoed, so a
    /// caller cannot inject text into logs or response headers.
    pub(crate) fn from_headers(headers: &HeaderMap) -> Self {
        headers
            .get(HEADER)
            .and_then(|value| value.to_str().ok())
            .filter(|value| is_well_formed(value))
            .map(|value| CorrelationId(value.to_owned()))
            .unwrap_or_else(|| CorrelationId(uuid::Uuid::new_v4().to_string()))
    }

    pub(crate) fn header_value(&self) -> Option<HeaderValue> {
        HeaderValue::from_str(&self.0).ok()
    }
}

fn is_well_formed(value: &str) -> bool {
    (1..=MAX_LEN).contains(&value.len())
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

impl fmt::Display for CorrelationId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_header(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(HEADER, HeaderValue::from_str(value).unwrap());
        headers
    }

    #[test]
    fn well_formed_ids_are_kept() {
        assert_eq!(
            CorrelationId::from_headers(&with_header("abc-1.2_3")).to_string(),
            "abc-1.2_3"
        );
    }

    #[test]
    fn malformed_ids_are_replaced_with_a_uuid() {
        let id = CorrelationId::from_headers(&with_header("has space")).to_string();

        assert_eq!(id.len(), 36);
        assert_ne!(id, "has space");
    }
}
