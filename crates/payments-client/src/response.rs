//! Turning an HTTP response into a typed value or a typed [`ApiError`].

use std::time::Duration;

use reqwest::header::HeaderMap;
use reqwest::{Response, StatusCode};
use serde::Deserialize;
use serde::de::DeserializeOwned;

use payments_core::ErrorCode;

use crate::error::{ApiError, Error};
use crate::or_unknown::OrUnknown;

const CORRELATION_ID: &str = "x-correlation-id";
const RATE_LIMIT_RESET: &str = "x-ratelimit-reset";
/// Longest `Retry-After` believed: a larger value is a misconfigured proxy, not a plan.
const MAX_RETRY_AFTER_SECS: u64 = 24 * 60 * 60;
/// Longest excerpt of a non-JSON error body kept as the message.
const MAX_MESSAGE_CHARS: usize = 200;

/// The spec's error envelope; every field optional so that a partial body still yields the code.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ErrorBody {
    error: Option<String>,
    message: Option<String>,
    field: Option<String>,
    reset_at: Option<u64>,
}

/// Reads the body: the success type on 2xx, an [`ApiError`] otherwise.
pub(crate) async fn read_json<T: DeserializeOwned>(response: Response) -> Result<T, Error> {
    read_json_with_headers(response).await.map(|(value, _)| value)
}

/// [`read_json`], keeping the response headers of a success (a list's next-page cursor travels there).
pub(crate) async fn read_json_with_headers<T: DeserializeOwned>(
    response: Response,
) -> Result<(T, HeaderMap), Error> {
    let status = response.status();
    let headers = response.headers().clone();
    let body = response.bytes().await?;
    if status.is_success() {
        let value = serde_json::from_slice(&body).map_err(|source| Error::Decode {
            status: status.as_u16(),
            source,
            correlation_id: correlation_id(&headers),
        })?;
        Ok((value, headers))
    } else {
        Err(Error::from(api_error(status, &headers, &body)))
    }
}

/// A success answer that is not JSON: its headers and bytes.
#[derive(Debug)]
pub(crate) struct RawBody {
    pub(crate) headers: HeaderMap,
    pub(crate) bytes: Vec<u8>,
}

/// Reads the body as bytes on 2xx, an [`ApiError`] otherwise.
pub(crate) async fn read_raw(response: Response) -> Result<RawBody, Error> {
    let status = response.status();
    let headers = response.headers().clone();
    let body = response.bytes().await?;
    if status.is_success() {
        Ok(RawBody {
            headers,
            bytes: body.to_vec(),
        })
    } else {
        Err(Error::from(api_error(status, &headers, &body)))
    }
}

/// Builds the typed error of a non-success response, whatever its body.
pub(crate) fn api_error(status: StatusCode, headers: &HeaderMap, body: &[u8]) -> ApiError {
    let envelope = serde_json::from_slice::<ErrorBody>(body).unwrap_or(ErrorBody {
        error: None,
        message: None,
        field: None,
        reset_at: None,
    });
    let code = envelope
        .error
        .as_deref()
        .map_or_else(|| fallback_code(status), OrUnknown::parse);
    let message = match (envelope.message, &envelope.error) {
        (Some(message), _) => message,
        (None, Some(_)) => String::new(),
        (None, None) => excerpt(body),
    };
    let (field, reset_at) = (envelope.field, envelope.reset_at);
    ApiError {
        status: status.as_u16(),
        code,
        message,
        field,
        reset_at: reset_at.or_else(|| header_reset_ms(headers)),
        retry_after: retry_after(headers),
        correlation_id: correlation_id(headers),
    }
}

pub(crate) fn correlation_id(headers: &HeaderMap) -> Option<String> {
    headers
        .get(CORRELATION_ID)
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned)
}

/// `X-RateLimit-Reset`, read as Unix milliseconds (the reference server's unit), or as Unix seconds when
/// it is too small to be milliseconds (some gateways send seconds).
fn header_reset_ms(headers: &HeaderMap) -> Option<u64> {
    let value: u64 = headers
        .get(RATE_LIMIT_RESET)?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()?;
    // Unix seconds stay below 10^11 until the year 5138; Unix ms passed that in 1973.
    Some(if value < 100_000_000_000 {
        value.saturating_mul(1000)
    } else {
        value
    })
}

/// `Retry-After` in delta-seconds. The HTTP-date form is not read (the service sends seconds); the caller
/// then falls back to its own backoff.
fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let seconds: u64 = headers
        .get(reqwest::header::RETRY_AFTER)?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()?;
    Some(Duration::from_secs(seconds.min(MAX_RETRY_AFTER_SECS)))
}

/// A code for a response that carries none: 429 is still `rate_limited`, the rest `http_<status>`.
fn fallback_code(status: StatusCode) -> OrUnknown<ErrorCode> {
    if status == StatusCode::TOO_MANY_REQUESTS {
        OrUnknown::Known(ErrorCode::RateLimited)
    } else {
        OrUnknown::Unknown(format!("http_{}", status.as_u16()))
    }
}

fn excerpt(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let text = text.trim();
    match text.char_indices().nth(MAX_MESSAGE_CHARS) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use payments_core::ErrorCode;
    use reqwest::StatusCode;
    use reqwest::header::{HeaderMap, HeaderValue};

    use super::api_error;
    use crate::or_unknown::OrUnknown;

    #[test]
    fn the_envelope_gives_code_message_and_reset() {
        let mut headers = HeaderMap::new();
        headers.insert("x-correlation-id", HeaderValue::from_static("c-1"));
        let body = br#"{"error":"rate_limited","message":"slow down","resetAt":1700000000000}"#;
        let error = api_error(StatusCode::TOO_MANY_REQUESTS, &headers, body);
        assert_eq!(error.status, 429);
        assert_eq!(error.code, ErrorCode::RateLimited);
        assert_eq!(error.message, "slow down");
        assert_eq!(error.reset_at, Some(1_700_000_000_000));
        assert_eq!(error.correlation_id.as_deref(), Some("c-1"));
    }

    #[test]
    fn a_body_without_the_envelope_is_named_by_its_status() {
        let error = api_error(
            StatusCode::BAD_GATEWAY,
            &HeaderMap::new(),
            b"<html>bad gateway</html>",
        );
        assert_eq!(error.code, OrUnknown::Unknown("http_502".to_owned()));
        assert_eq!(error.message, "<html>bad gateway</html>");
    }

    #[test]
    fn retry_after_in_seconds_is_kept() {
        let mut headers = HeaderMap::new();
        headers.insert("retry-after", HeaderValue::from_static("5"));
        let body = br#"{"error":"datastore_unavailable","message":"busy"}"#;
        let error = api_error(StatusCode::SERVICE_UNAVAILABLE, &headers, body);
        assert_eq!(error.retry_after, Some(std::time::Duration::from_secs(5)));
    }

    #[test]
    fn the_reset_header_in_seconds_is_read_as_milliseconds() {
        let mut headers = HeaderMap::new();
        headers.insert("x-ratelimit-reset", HeaderValue::from_static("1700000000"));
        let error = api_error(StatusCode::TOO_MANY_REQUESTS, &headers, b"");
        assert_eq!(error.code, ErrorCode::RateLimited);
        assert_eq!(error.reset_at, Some(1_700_000_000_000));
    }
}
