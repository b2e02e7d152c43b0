//! What can go wrong talking to the service: the server's typed refusals and everything around them.

use std::time::Duration;

use payments_core::ErrorCode;
use thiserror::Error;

use crate::or_unknown::OrUnknown;

/// Everything a client call can fail with.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum Error {
    /// The service answered with an error status and (usually) the spec's `{error, message}` body.
    /// Boxed: it is the largest variant, and every `Result` of the client carries this enum.
    #[error(transparent)]
    Api(Box<ApiError>),
    /// The request did not complete: connection refused, DNS, TLS, a timeout, a broken body stream.
    /// Its message ends with what to do when the cause is a common mistake (`https://` to a plain-HTTP server).
    #[error("transport error: {source}{}", transport_hint(source))]
    Transport {
        /// The underlying HTTP client error.
        #[source]
        source: reqwest::Error,
    },
    /// The service answered with success, but the body is not the documented shape.
    #[error("could not decode the {status} response: {source}")]
    Decode {
        /// HTTP status of the response.
        status: u16,
        /// Why the body did not parse.
        #[source]
        source: serde_json::Error,
        /// The `X-Correlation-Id` of the response, for support requests.
        correlation_id: Option<String>,
    },
    /// The client was configured with something unusable (a base URL that cannot be a base, a user agent
    /// that is not a valid header value, ...).
    #[error("invalid client configuration: {0}")]
    Config(String),
    /// The service answered with success but without something the protocol promises, e.g. a sign-in
    /// without its `cb_auth_token` cookie (a proxy that strips `Set-Cookie` causes this).
    #[error("unexpected {status} response: {message}")]
    Protocol {
        /// HTTP status of the response.
        status: u16,
        /// What was missing.
        message: String,
        /// The `X-Correlation-Id` of the response, for support requests.
        correlation_id: Option<String>,
    },
    /// Signing the admin sign-in message with a local key failed (feature `admin-signing`).
    #[error("could not sign the admin login: {0}")]
    Signing(String),
}

impl Error {
    /// The spec error code when the service refused the request with a code this version knows; `None`
    /// for every other failure and for a code added by a newer service (read that one, verbatim, from
    /// [`ApiError::code`]).
    pub fn code(&self) -> Option<ErrorCode> {
        match self {
            Error::Api(api) => api.code.known(),
            Error::Transport { .. }
            | Error::Decode { .. }
            | Error::Config(_)
            | Error::Protocol { .. }
            | Error::Signing(_) => None,
        }
    }

    /// Whether the request went to an `https://` URL whose server answered in plain HTTP (the payments
    /// server speaks plain HTTP unless a TLS proxy is in front of it).
    pub fn is_https_to_plain_http(&self) -> bool {
        matches!(self, Error::Transport { source } if answered_in_plain_http(source))
    }

    /// Whether the request timed out (connect or whole-request timeout).
    pub fn is_timeout(&self) -> bool {
        matches!(self, Error::Transport { source } if source.is_timeout())
    }
}

/// What to do about a transport failure whose cause is a common mistake, said after reqwest's own message.
fn transport_hint(source: &reqwest::Error) -> &'static str {
    if answered_in_plain_http(source) {
        " (the server at this address does not speak HTTPS: the payments server speaks plain HTTP unless a \
         TLS proxy is in front of it, so use an http:// base URL or the proxy's address)"
    } else {
        ""
    }
}

/// Whether a TLS handshake got a plain-HTTP answer: an `https://` URL for the plain-HTTP server. The TLS
/// libraries expose it only as text at the end of the cause chain ("received corrupt message of type
/// InvalidContentType" from rustls, "wrong version number" from OpenSSL), so this one place reads it.
fn answered_in_plain_http(source: &reqwest::Error) -> bool {
    let mut cause: Option<&dyn std::error::Error> = Some(source);
    while let Some(error) = cause {
        let message = error.to_string();
        if message.contains("InvalidContentType") || message.contains("wrong version number") {
            return true;
        }
        cause = error.source();
    }
    false
}

impl From<ApiError> for Error {
    fn from(api: ApiError) -> Self {
        Error::Api(Box::new(api))
    }
}

impl From<reqwest::Error> for Error {
    fn from(source: reqwest::Error) -> Self {
        Error::Transport { source }
    }
}

impl ApiError {
    /// Whether the body was the service's error envelope. `false` for an answer without one (a proxy's
    /// HTML page, an empty 502), whose code the client made up from the status: `http_<status>`.
    pub fn has_envelope(&self) -> bool {
        match &self.code {
            OrUnknown::Known(_) => true,
            OrUnknown::Unknown(code) => code.strip_prefix("http_") != Some(self.status.to_string().as_str()),
        }
    }
}

/// An error response of the service: the HTTP status plus the spec's error envelope.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{code}: {message}")]
#[non_exhaustive]
pub struct ApiError {
    /// HTTP status code (400, 401, 403, 404, 429, 500, ...).
    pub status: u16,
    /// The spec error code from the body's `error` field. A response without the envelope (a proxy's
    /// HTML page, an empty 502) is reported as `Unknown("http_<status>")`, except a bare 429, which is
    /// still [`ErrorCode::RateLimited`].
    pub code: OrUnknown<ErrorCode>,
    /// The human-readable `message` (empty when the body carried none).
    pub message: String,
    /// On 400 `invalid_input`: the offending field's path (e.g. `shippingConfig.dimensions.unit`), when
    /// the service names it.
    pub field: Option<String>,
    /// On 429: when the quota resets, Unix milliseconds (body `resetAt`, else `X-RateLimit-Reset`).
    pub reset_at: Option<u64>,
    /// The `Retry-After` response header in seconds (503 `datastore_unavailable` sends it), when present.
    pub retry_after: Option<Duration>,
    /// The `X-Correlation-Id` response header, for support requests.
    pub correlation_id: Option<String>,
}
