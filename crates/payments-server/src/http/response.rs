//! JSON responses.

use bytes::Bytes;
use hyper::header::{CONTENT_TYPE, HeaderValue};
use hyper::{Response, StatusCode};
use payments_core::ErrorCode;
use serde::Serialize;

use crate::http::response_body::ResponseBody;

pub(crate) type HttpResponse = Response<ResponseBody>;

pub(crate) const JSON_CONTENT_TYPE: &str = "application/json";

/// Fallback when a body cannot be serialized: our own types always serialize, so this is never expected.
const SERIALIZATION_FAILED: &str = r#"{"error":"failed","message":"internal server error"}"#;

pub(crate) fn json(status: StatusCode, body: &impl Serialize) -> HttpResponse {
    let (status, bytes) = match serde_json::to_vec(body) {
        Ok(bytes) => (status, Bytes::from(bytes)),
        Err(error) => {
            tracing::error!(error = %error, "response serialization failed");
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                Bytes::from_static(SERIALIZATION_FAILED.as_bytes()),
            )
        }
    };
    json_bytes(status, bytes)
}

/// A JSON body already rendered.
pub(crate) fn json_bytes(status: StatusCode, bytes: Bytes) -> HttpResponse {
    let mut response = Response::new(ResponseBody::from(bytes));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static(JSON_CONTENT_TYPE));
    response
}

pub(crate) fn ok(body: &impl Serialize) -> HttpResponse {
    json(StatusCode::OK, body)
}

/// The spec's degraded-mode marker, flattened into a normal response body:
/// `"degraded": true, "reason": "datastore_unavailable"`. Its schema requires neither field: both are
/// present only in degraded mode.
#[derive(Debug, Clone, Copy, Serialize, utoipa::ToSchema)]
pub(crate) struct Degraded {
    /// `true`, only in degraded mode.
    #[schema(required = false)]
    degraded: bool,
    /// `datastore_unavailable`, only in degraded mode.
    #[schema(required = false)]
    reason: &'static str,
}

impl Degraded {
    pub(crate) fn datastore_unavailable() -> Self {
        Degraded {
            degraded: true,
            reason: ErrorCode::DatastoreUnavailable.as_str(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_serialization_fallback_speaks_the_shared_error_vocabulary() {
        let body: serde_json::Value = serde_json::from_str(SERIALIZATION_FAILED).unwrap();

        assert_eq!(body["error"], ErrorCode::Failed.as_str());
        assert_eq!(
            ErrorCode::Failed.http_status(),
            StatusCode::INTERNAL_SERVER_ERROR.as_u16()
        );
    }
}
