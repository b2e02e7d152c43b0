//! Conversions into [`ApiError`] for the user and billing services. Every variant is matched explicitly,
//! as in `error_from.rs`.

use crate::http::error::ApiError;
use crate::services::billing::BillingError;
use crate::services::users::UserError;

impl From<UserError> for ApiError {
    fn from(error: UserError) -> Self {
        match error {
            UserError::Invalid(field) => field.into(),
            UserError::UnknownUser(_) => ApiError::NotFound {
                message: error.to_string(),
            },
            UserError::Store(store) => store.into(),
        }
    }
}

impl From<BillingError> for ApiError {
    fn from(error: BillingError) -> Self {
        match error {
            BillingError::Inconsistent(_) => ApiError::internal(error),
            BillingError::Store(store) => store.into(),
        }
    }
}
