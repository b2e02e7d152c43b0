//! HTTP plumbing under the API: the shared app state, the request context, body reading, credentials, rate
//! limits, error rendering, responses. Knows no handler, route table or app.

pub(crate) mod admin;
pub(crate) mod body;
pub(crate) mod context;
pub(crate) mod correlation;
pub(crate) mod credentials;
pub(crate) mod error;
pub(crate) mod idempotency;
pub(crate) mod image_response;
pub(crate) mod metrics_access;
pub(crate) mod multipart;
pub(crate) mod rate_limit;
pub(crate) mod receipt_bodies;
pub(crate) mod response;
pub(crate) mod response_body;
pub(crate) mod state;
pub(crate) mod status_poster;
