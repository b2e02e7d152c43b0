//! The one API error type: owns the mapping to HTTP status and spec error code, and renders the envelope
//! `{"error": code, "message": text}` (plus `field` on invalid input, `resetAt` on 429).

mod category_schema;
mod from;
mod from_admin;
mod from_endpoints;
mod from_onramp;
mod from_receipts;
mod from_recurring;
mod from_reserve;
mod from_users;

use std::error::Error as StdError;

use hyper::header::{ALLOW, CONNECTION, HeaderValue, RETRY_AFTER};
use hyper::{Method, StatusCode};
use payments_core::{ErrorCode, FailureCategory, OnrampFailure};
use serde::Serialize;

use crate::http::response::{self, HttpResponse};
pub(crate) use category_schema::FailureCategory as FailureCategorySchema;

pub(crate) type BoxError = Box<dyn StdError + Send + Sync>;

#[derive(Debug)]
pub(crate) enum ApiError {
    Unauthorized,
    /// Admin routes: no live session, or a refused sign-in; also a key of the other mode (test/live) (401
    /// `unauthorized` with its own message).
    AdminUnauthorized {
        message: String,
    },
    /// A split cannot be configured: the server has no platform recipient.
    PlatformRecipientNotConfigured,
    Forbidden {
        message: String,
    },
    InvalidInput {
        field: Option<String>,
        message: String,
    },
    NotFound {
        message: String,
    },
    /// A write that would break a uniqueness rule (a SKU moved onto another product's SKU).
    Conflict {
        message: String,
    },
    /// `allow`: the methods the path answers, for the `Allow` header.
    MethodNotAllowed {
        allow: Vec<Method>,
    },
    /// `subject` says what was too large: the request body, or an uploaded image.
    PayloadTooLarge {
        subject: &'static str,
        limit: usize,
    },
    RateLimited {
        reset_at_ms: i64,
    },
    /// The client did not send the whole body within the body timeout (408 `body_timeout`).
    BodyTimeout {
        timeout_ms: u128,
    },
    /// The request took longer than the per-request deadline (503 `deadline_exceeded`).
    DeadlineExceeded {
        deadline_ms: u128,
    },
    /// The datastore does not answer; nothing was written. Logged at warn, the reason is never sent.
    DatastoreUnavailable {
        reason: String,
    },
    /// The chain node does not answer (or refused a read); nothing was changed. Logged at warn, the reason
    /// is never sent.
    ChainUnavailable {
        reason: String,
    },
    /// A receipt-route refusal with its own spec code (`missing_receipt_id`, `invalid_transition`, ...).
    Refused {
        code: ErrorCode,
        message: String,
    },
    /// The card path's provider created no session: the body adds the failure's category and code; the
    /// provider's own answer (`detail`) is logged at warn, never sent.
    OnrampFailed {
        failure: OnrampFailure,
        detail: String,
    },
    /// Anything unexpected; the source is logged, never sent.
    Internal {
        source: BoxError,
    },
}

/// The error body every refusal carries: `error` is the stable code (see the route's responses and the
/// spec's error table), `message` says what went wrong for people.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = Error)]
pub(crate) struct Envelope<'a> {
    error: &'static str,
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    field: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reset_at: Option<i64>,
    /// `onramp_failed`: the spec's failure category of the provider's refusal.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<category_schema::FailureCategory>)]
    failure_category: Option<FailureCategory>,
    /// `onramp_failed`: the `PORTAL_ONRAMP_…` code.
    #[serde(skip_serializing_if = "Option::is_none")]
    failure_code: Option<&'a str>,
}

impl ApiError {
    pub(crate) fn invalid_input(field: Option<String>, message: String) -> Self {
        ApiError::InvalidInput { field, message }
    }

    pub(crate) fn internal(source: impl Into<BoxError>) -> Self {
        ApiError::Internal {
            source: source.into(),
        }
    }

    pub(crate) fn status(&self) -> StatusCode {
        status_of(self.code())
    }

    pub(crate) fn code(&self) -> ErrorCode {
        match self {
            ApiError::Unauthorized => ErrorCode::Unauthorized,
            ApiError::AdminUnauthorized { .. } => ErrorCode::Unauthorized,
            ApiError::PlatformRecipientNotConfigured => ErrorCode::PlatformRecipientNotConfigured,
            ApiError::Forbidden { .. } => ErrorCode::Forbidden,
            ApiError::InvalidInput { .. } => ErrorCode::InvalidInput,
            ApiError::NotFound { .. } => ErrorCode::NotFound,
            ApiError::Conflict { .. } => ErrorCode::Conflict,
            ApiError::MethodNotAllowed { .. } => ErrorCode::MethodNotAllowed,
            ApiError::PayloadTooLarge { .. } => ErrorCode::PayloadTooLarge,
            ApiError::RateLimited { .. } => ErrorCode::RateLimited,
            ApiError::BodyTimeout { .. } => ErrorCode::BodyTimeout,
            ApiError::DeadlineExceeded { .. } => ErrorCode::DeadlineExceeded,
            ApiError::DatastoreUnavailable { .. } => ErrorCode::DatastoreUnavailable,
            ApiError::ChainUnavailable { .. } => ErrorCode::ChainUnavailable,
            ApiError::Refused { code, .. } => *code,
            ApiError::OnrampFailed { .. } => ErrorCode::OnrampFailed,
            ApiError::Internal { .. } => ErrorCode::Failed,
        }
    }

    /// The text the envelope's `message` carries (never an internal detail).
    pub(crate) fn message(&self) -> String {
        match self {
            ApiError::Unauthorized => "missing or invalid subscription key".to_owned(),
            ApiError::AdminUnauthorized { message } => message.clone(),
            ApiError::PlatformRecipientNotConfigured => {
                "the server has no platform split recipient configured (--platform-recipient)".to_owned()
            }
            ApiError::Forbidden { message }
            | ApiError::InvalidInput { message, .. }
            | ApiError::NotFound { message }
            | ApiError::Conflict { message } => message.clone(),
            ApiError::MethodNotAllowed { allow } => {
                format!("method not allowed; allowed: {}", allow_list(allow))
            }
            ApiError::PayloadTooLarge { subject, limit } => format!("{subject} is larger than {limit} bytes"),
            ApiError::RateLimited { .. } => "rate limit exceeded; retry after resetAt".to_owned(),
            ApiError::BodyTimeout { timeout_ms } => {
                format!("the request body did not arrive within {timeout_ms} ms")
            }
            ApiError::DeadlineExceeded { deadline_ms } => {
                format!("the request did not finish within {deadline_ms} ms; retry later")
            }
            ApiError::DatastoreUnavailable { .. } => {
                "the datastore is unavailable; nothing was changed, retry later".to_owned()
            }
            ApiError::ChainUnavailable { .. } => {
                "the chain node is unavailable; nothing was changed, retry later".to_owned()
            }
            ApiError::Refused { message, .. } => message.clone(),
            ApiError::OnrampFailed { failure, .. } => failure.buyer_message().to_owned(),
            ApiError::Internal { .. } => "internal server error".to_owned(),
        }
    }

    /// Renders the envelope and logs the error: this is the one place errors are logged.
    pub(crate) fn into_response(self) -> HttpResponse {
        let status = self.status();
        let message = self.message();
        if let ApiError::Internal { source } = &self {
            tracing::error!(status = status.as_u16(), error = %source_chain(source.as_ref()), "request failed");
        } else if let ApiError::DatastoreUnavailable { reason } = &self {
            tracing::warn!(status = status.as_u16(), reason = %reason, "datastore unavailable");
        } else if let ApiError::ChainUnavailable { reason } = &self {
            tracing::warn!(status = status.as_u16(), reason = %reason, "chain unavailable");
        } else if let ApiError::OnrampFailed { failure, detail } = &self {
            tracing::warn!(status = status.as_u16(), code = failure.code, detail = %detail, "onramp provider refused");
        } else {
            tracing::debug!(status = status.as_u16(), code = self.code().as_str(), message = %message, "request refused");
        }
        let envelope = Envelope {
            error: self.code().as_str(),
            message: &message,
            field: match &self {
                ApiError::InvalidInput { field, .. } => field.as_deref(),
                _ => None,
            },
            reset_at: match &self {
                ApiError::RateLimited { reset_at_ms } => Some(*reset_at_ms),
                _ => None,
            },
            failure_category: match &self {
                ApiError::OnrampFailed { failure, .. } => Some(failure.category),
                _ => None,
            },
            failure_code: match &self {
                ApiError::OnrampFailed { failure, .. } => Some(failure.code),
                _ => None,
            },
        };
        let mut response = response::json(status, &envelope);
        if let ApiError::MethodNotAllowed { allow } = &self
            && let Ok(value) = HeaderValue::from_str(&allow_list(allow))
        {
            response.headers_mut().insert(ALLOW, value);
        }
        if let ApiError::DatastoreUnavailable { .. }
        | ApiError::ChainUnavailable { .. }
        | ApiError::DeadlineExceeded { .. } = &self
        {
            response
                .headers_mut()
                .insert(RETRY_AFTER, HeaderValue::from_static("5"));
        }
        if let ApiError::BodyTimeout { .. } = &self {
            // The unread rest of the body makes the connection unusable for another request.
            response
                .headers_mut()
                .insert(CONNECTION, HeaderValue::from_static("close"));
        }
        response
    }
}

/// The status a code is always answered with: the one table in [`ErrorCode::http_status`].
pub(crate) fn status_of(code: ErrorCode) -> StatusCode {
    // Every status in the table is a valid one; the fallback is never taken.
    StatusCode::from_u16(code.http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

fn allow_list(methods: &[Method]) -> String {
    methods.iter().map(Method::as_str).collect::<Vec<_>>().join(", ")
}

fn source_chain(error: &(dyn StdError + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use http_body_util::BodyExt;

    use super::*;

    async fn rendered(error: ApiError) -> (u16, serde_json::Value) {
        let response = error.into_response();
        let status = response.status().as_u16();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    fn one_of_each_variant() -> Vec<ApiError> {
        let message = || "m".to_owned();
        vec![
            ApiError::Unauthorized,
            ApiError::AdminUnauthorized { message: message() },
            ApiError::PlatformRecipientNotConfigured,
            ApiError::Forbidden { message: message() },
            ApiError::invalid_input(Some("f".to_owned()), message()),
            ApiError::NotFound { message: message() },
            ApiError::Conflict { message: message() },
            ApiError::MethodNotAllowed {
                allow: vec![Method::GET],
            },
            ApiError::PayloadTooLarge {
                subject: "the body",
                limit: 1,
            },
            ApiError::RateLimited { reset_at_ms: 1 },
            ApiError::BodyTimeout { timeout_ms: 1 },
            ApiError::DeadlineExceeded { deadline_ms: 1 },
            ApiError::DatastoreUnavailable { reason: message() },
            ApiError::ChainUnavailable { reason: message() },
            ApiError::internal("boom"),
        ]
    }

    #[tokio::test]
    async fn every_error_renders_its_code_spelled_once_with_the_codes_status() {
        let refusals = ErrorCode::ALL.iter().map(|&code| ApiError::Refused {
            code,
            message: "m".to_owned(),
        });

        for error in one_of_each_variant().into_iter().chain(refusals) {
            let code = error.code();
            let (status, body) = rendered(error).await;

            let spelled = body["error"].as_str().unwrap();
            assert_eq!(spelled.parse::<ErrorCode>(), Ok(code), "{body}");
            assert_eq!(status, code.http_status(), "{body}");
        }
    }

    #[tokio::test]
    async fn the_codes_of_the_spec_table_keep_their_statuses() {
        let (forbidden, _) = rendered(ApiError::Forbidden {
            message: "m".to_owned(),
        })
        .await;
        let (split_required, body) = rendered(ApiError::Refused {
            code: ErrorCode::SplitRequired,
            message: "m".to_owned(),
        })
        .await;
        let (conflict, _) = rendered(ApiError::Refused {
            code: ErrorCode::InvalidTransition,
            message: "m".to_owned(),
        })
        .await;

        assert_eq!((forbidden, split_required, conflict), (403, 403, 409));
        assert_eq!(body["error"], "split_required");
    }
}
