//! GraphQL errors carry the REST error codes in `extensions.code`, so clients branch on the same names.

use async_graphql::{Error, ErrorExtensions};
use payments_core::ErrorCode;

use crate::store::StoreError;

/// An error with `extensions.code`.
pub(crate) fn coded(code: ErrorCode, message: impl Into<String>) -> Error {
    Error::new(message).extend_with(|_, extensions| extensions.set("code", code.as_str()))
}

/// A datastore failure: unavailable or busy says so; anything else is logged and answered without detail.
pub(crate) fn store(error: StoreError) -> Error {
    match error {
        StoreError::Unavailable(_) | StoreError::Busy(_) => coded(
            ErrorCode::DatastoreUnavailable,
            "the datastore is unavailable; retry later",
        ),
        StoreError::Query(_) | StoreError::Corrupt(_) | StoreError::Task(_) => {
            tracing::error!(error = %error, "graphql resolver failed");
            coded(ErrorCode::Failed, "internal server error")
        }
    }
}
