//! HTTP edge: request context, routing, error rendering.

pub(crate) mod admin;
pub(crate) mod body;
pub(crate) mod context;
pub(crate) mod correlation;
pub(crate) mod credentials;
pub(crate) mod error;
mod error_from;
mod error_from_admin;
mod error_from_receipts;
mod error_from_recurring;
mod error_from_reserve;
mod error_from_users;
pub(crate) mod idempotency;
pub(crate) mod image_response;
pub(crate) mod metrics_access;
pub(crate) mod multipart;
pub(crate) mod openapi;
pub(crate) mod rate_limit;
pub(crate) mod response;
#[cfg(test)]
pub(crate) mod route_shapes;
pub(crate) mod router;
pub(crate) mod status_poster;
