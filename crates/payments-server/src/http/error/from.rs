//! Conversions into [`ApiError`]. Every variant is matched explicitly (no `_ =>`), so a new error variant
//! anywhere forces a decision about its status code here.
//!
//! The one exception is `payments-core`'s error enums: they are `#[non_exhaustive]` (a library's refusals
//! grow), so their matches end in a wildcard that answers 500 and logs the error. Every known variant is
//! still listed; a variant added to core and not mapped here fails loudly in the first test that meets it.

use crate::domain::field_error::FieldError;
use crate::domain::inventory::ImageError;
use crate::http::error::ApiError;
use crate::services::auth::AuthError;
use crate::services::inventory::InventoryError;
use crate::store::StoreError;

impl From<FieldError> for ApiError {
    fn from(error: FieldError) -> Self {
        let message = error.to_string();
        ApiError::InvalidInput {
            field: Some(error.field),
            message,
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> Self {
        match error {
            StoreError::Unavailable(reason) | StoreError::Busy(reason) => {
                ApiError::DatastoreUnavailable { reason }
            }
            StoreError::Query(_) | StoreError::Corrupt(_) | StoreError::Task(_) => ApiError::internal(error),
        }
    }
}

impl From<AuthError> for ApiError {
    fn from(error: AuthError) -> Self {
        match error {
            AuthError::Unauthenticated => ApiError::Unauthorized,
            AuthError::MissingScope(_) => ApiError::Forbidden {
                message: error.to_string(),
            },
            AuthError::WrongMode { .. } => ApiError::AdminUnauthorized {
                message: error.to_string(),
            },
            AuthError::Store(store) => store.into(),
        }
    }
}

impl From<InventoryError> for ApiError {
    fn from(error: InventoryError) -> Self {
        match error {
            InventoryError::WalletMismatch => ApiError::Forbidden {
                message: error.to_string(),
            },
            InventoryError::UnknownProduct(_)
            | InventoryError::UnknownSku(_)
            | InventoryError::UnknownImage { .. } => ApiError::NotFound {
                message: error.to_string(),
            },
            InventoryError::SkuTaken(_) => ApiError::Conflict {
                message: error.to_string(),
            },
            InventoryError::TooManyImages => ApiError::InvalidInput {
                field: Some("image".to_owned()),
                message: error.to_string(),
            },
            InventoryError::ImageNotKept { index } => ApiError::InvalidInput {
                field: Some(format!("images[{index}]")),
                message: error.to_string(),
            },
            InventoryError::Store(store) => store.into(),
        }
    }
}

/// Upload route only: JSON data URLs are converted to [`FieldError`]s where they are parsed.
impl From<ImageError> for ApiError {
    fn from(error: ImageError) -> Self {
        match error {
            ImageError::TooLarge { limit } => ApiError::PayloadTooLarge {
                subject: "the image",
                limit,
            },
            ImageError::NotAnImage | ImageError::NotADataUrl | ImageError::TypeMismatch { .. } => {
                ApiError::InvalidInput {
                    field: Some("image".to_owned()),
                    message: format!("image: {error}"),
                }
            }
        }
    }
}
