//! Header lookup that works with any web framework, and the header names of both schemes.

use std::collections::{BTreeMap, HashMap};
use std::hash::BuildHasher;

use crate::error::VerifyError;

/// `X-Service-Signature: sha256=<lowercase hex>`, the HMAC of the raw body keyed with the API key.
pub const X_SERVICE_SIGNATURE: &str = "x-service-signature";
/// `X-Service-Timestamp: <unix ms>`, when the delivery was made. Not covered by the signature.
pub const X_SERVICE_TIMESTAMP: &str = "x-service-timestamp";
/// `X-Service-Delivery: <uuid>`, stable across retries of one delivery: the deduplication key.
pub const X_SERVICE_DELIVERY: &str = "x-service-delivery";
/// `X-Service-Event: receipt.status_updated`.
pub const X_SERVICE_EVENT: &str = "x-service-event";
/// Standard Webhooks `webhook-id`, signed.
pub const WEBHOOK_ID: &str = "webhook-id";
/// Standard Webhooks `webhook-timestamp: <unix seconds>`, signed.
pub const WEBHOOK_TIMESTAMP: &str = "webhook-timestamp";
/// Standard Webhooks `webhook-signature: v1,<base64> [v1,<base64> ...]`.
pub const WEBHOOK_SIGNATURE: &str = "webhook-signature";

/// The longest header value the verifier reads. The service's values are under 100 bytes, and a
/// `webhook-signature` with dozens of signatures still fits; the bound keeps the work per request small
/// whatever a sender puts in a header.
pub const MAX_HEADER_BYTES: usize = 4096;

/// Read access to a request's headers, so the verifier works with any framework.
///
/// Implemented for slices, arrays and `Vec`s of `(name, value)` pairs, for `HashMap` and `BTreeMap`, for
/// references to those, and for `http::HeaderMap` with the `http` feature. Names match ASCII
/// case-insensitively.
///
/// ```
/// use webhook_verify::Headers;
///
/// let headers = [("X-Service-Timestamp", "1760000000000"), ("content-type", "application/json")];
/// assert_eq!(headers.get_all("x-service-timestamp"), vec![b"1760000000000".as_slice()]);
/// ```
pub trait Headers {
    /// Every value of the header `name` (any letter case), in the order they appear; empty when absent.
    fn get_all(&self, name: &str) -> Vec<&[u8]>;
}

impl<H: Headers + ?Sized> Headers for &H {
    fn get_all(&self, name: &str) -> Vec<&[u8]> {
        (**self).get_all(name)
    }
}

impl<K: AsRef<str>, V: AsRef<[u8]>> Headers for [(K, V)] {
    fn get_all(&self, name: &str) -> Vec<&[u8]> {
        matching(self.iter().map(|(k, v)| (k, v)), name)
    }
}

impl<K: AsRef<str>, V: AsRef<[u8]>, const N: usize> Headers for [(K, V); N] {
    fn get_all(&self, name: &str) -> Vec<&[u8]> {
        self.as_slice().get_all(name)
    }
}

impl<K: AsRef<str>, V: AsRef<[u8]>> Headers for Vec<(K, V)> {
    fn get_all(&self, name: &str) -> Vec<&[u8]> {
        self.as_slice().get_all(name)
    }
}

impl<K: AsRef<str>, V: AsRef<[u8]>, S: BuildHasher> Headers for HashMap<K, V, S> {
    fn get_all(&self, name: &str) -> Vec<&[u8]> {
        matching(self.iter(), name)
    }
}

impl<K: AsRef<str>, V: AsRef<[u8]>> Headers for BTreeMap<K, V> {
    fn get_all(&self, name: &str) -> Vec<&[u8]> {
        matching(self.iter(), name)
    }
}

#[cfg(feature = "http")]
impl Headers for http::HeaderMap {
    fn get_all(&self, name: &str) -> Vec<&[u8]> {
        // `HeaderMap` lookups by `&str` are case-insensitive and return nothing for an invalid name.
        http::HeaderMap::get_all(self, name)
            .iter()
            .map(http::HeaderValue::as_bytes)
            .collect()
    }
}

/// Values of every pair whose name equals `name` ignoring ASCII case (a map may hold two spellings).
fn matching<'a, K, V>(pairs: impl Iterator<Item = (&'a K, &'a V)>, name: &str) -> Vec<&'a [u8]>
where
    K: AsRef<str> + 'a,
    V: AsRef<[u8]> + 'a,
{
    pairs
        .filter(|(k, _)| k.as_ref().eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_ref())
        .collect()
}

/// The one value of `name`, `None` when absent, an error when it appears more than once.
pub(crate) fn single<'h, H: Headers + ?Sized>(
    headers: &'h H,
    name: &'static str,
) -> Result<Option<&'h [u8]>, VerifyError> {
    let mut values = headers.get_all(name);
    match values.len() {
        0 => Ok(None),
        1 => Ok(values.pop()),
        count => Err(VerifyError::AmbiguousHeader { name, count }),
    }
}

/// The one value of `name` as trimmed text; absent, repeated or non-UTF-8 values are errors.
pub(crate) fn required_text<'h, H: Headers + ?Sized>(
    headers: &'h H,
    name: &'static str,
) -> Result<&'h str, VerifyError> {
    let value = single(headers, name)?.ok_or(VerifyError::MissingHeader { name })?;
    text(value, name)
}

/// A header value as text without the optional whitespace HTTP allows around it; values longer than
/// [`MAX_HEADER_BYTES`] are refused before any other work.
pub(crate) fn text<'v>(value: &'v [u8], name: &'static str) -> Result<&'v str, VerifyError> {
    if value.len() > MAX_HEADER_BYTES {
        return Err(VerifyError::MalformedHeader {
            name,
            reason: "value is longer than 4096 bytes",
        });
    }
    let text = std::str::from_utf8(value).map_err(|_| VerifyError::MalformedHeader {
        name,
        reason: "value is not UTF-8",
    })?;
    Ok(text.trim_matches([' ', '\t']))
}
