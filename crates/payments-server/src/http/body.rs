//! Reading the request body under the size limit, and JSON decoding that names the offending field.

use bytes::{Bytes, BytesMut};
use http_body_util::BodyExt;
use hyper::HeaderMap;
use hyper::header::CONTENT_LENGTH;
use serde::de::DeserializeOwned;

use crate::http::context::RequestBody;
use crate::http::error::ApiError;

const BODY: &str = "the request body";

/// Reads the whole body, refusing more than `limit` bytes with 413 (early, from Content-Length, when declared;
/// otherwise as soon as the bytes read pass the limit, so no more than `limit` is ever held).
pub(crate) async fn read_limited(
    headers: &HeaderMap,
    mut body: RequestBody,
    limit: usize,
) -> Result<Bytes, ApiError> {
    let declared = headers
        .get(CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    if declared.is_some_and(|length| length > limit as u64) {
        return Err(ApiError::PayloadTooLarge { subject: BODY, limit });
    }
    let capacity = declared.map_or(0, |length| usize::try_from(length).unwrap_or(limit));
    let mut collected = BytesMut::with_capacity(capacity);
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|error| {
            ApiError::invalid_input(None, format!("could not read the request body: {error}"))
        })?;
        // Trailers carry nothing a route reads.
        if let Ok(data) = frame.into_data() {
            if collected.len().saturating_add(data.len()) > limit {
                return Err(ApiError::PayloadTooLarge { subject: BODY, limit });
            }
            collected.extend_from_slice(&data);
        }
    }
    Ok(collected.freeze())
}

/// Decodes a JSON body. Errors name the field by its path (`shippingConfig.dimensions.unit`); missing fields
/// are named by serde's own message (`missing field `sku``).
pub(crate) fn json<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(ApiError::invalid_input(
            None,
            "the request body must be a JSON object".to_owned(),
        ));
    }
    // Amounts and rates arrive as JSON numbers, which the decoder reads as floats: refuse digits a float
    // would silently drop (`19.9900000000000000001`) rather than round them.
    if let Some(number) = payments_core::first_inexact_number(body) {
        let shown: String = number.chars().take(40).collect();
        return Err(ApiError::invalid_input(
            None,
            format!(
                "the number {shown} has more digits than can be read exactly (amounts take at most 2 decimals)"
            ),
        ));
    }
    let mut deserializer = serde_json::Deserializer::from_slice(body);
    let value = serde_path_to_error::deserialize(&mut deserializer).map_err(|error| {
        let path = error.path().to_string();
        let message = error.inner().to_string();
        if error.inner().is_syntax() || error.inner().is_eof() {
            // Not JSON at all, so no field is at fault: say where the text stops being JSON and what was
            // expected there (serde_json's message: "expected value at line 1 column 1").
            ApiError::invalid_input(None, format!("the request body is not valid JSON: {message}"))
        } else if path == "." {
            ApiError::invalid_input(missing_field(&message), message)
        } else {
            ApiError::invalid_input(Some(path.clone()), format!("{path}: {message}"))
        }
    })?;
    deserializer.end().map_err(|error| {
        ApiError::invalid_input(None, format!("unexpected data after the JSON value: {error}"))
    })?;
    Ok(value)
}

/// serde reports a missing field at the parent's path; recover the name from its message so the envelope's
/// `field` is set for missing fields too.
fn missing_field(message: &str) -> Option<String> {
    // Unknown fields (`deny_unknown_fields`) are reported at the parent's path too.
    let rest = message
        .strip_prefix("missing field `")
        .or_else(|| message.strip_prefix("unknown field `"))?;
    rest.split_once('`').map(|(name, _)| name.to_owned())
}
