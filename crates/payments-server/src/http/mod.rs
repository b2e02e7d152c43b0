//! HTTP edge: request context, routing, error rendering.

pub(crate) mod body;
pub(crate) mod context;
pub(crate) mod correlation;
pub(crate) mod credentials;
pub(crate) mod error;
mod error_from;
pub(crate) mod multipart;
pub(crate) mod rate_limit;
pub(crate) mod response;
pub(crate) mod router;
