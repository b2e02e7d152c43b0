//! The card path's errors ("Pay with card" on the payment page) as [`ApiError`].

use payments_core::ErrorCode;

use crate::http::error::ApiError;
use crate::services::onramp::OnrampError;

impl From<OnrampError> for ApiError {
    fn from(error: OnrampError) -> Self {
        match error {
            OnrampError::NotFound => ApiError::NotFound {
                message: "no such receipt".to_owned(),
            },
            // The receipt's state refuses a new payment: the same code as any refused status change.
            OnrampError::NotPayable(why) => ApiError::Refused {
                code: ErrorCode::InvalidTransition,
                message: format!("this receipt cannot be paid by card: {why}"),
            },
            OnrampError::Provider {
                provider,
                failure,
                detail,
            } => ApiError::OnrampFailed {
                failure,
                detail: format!("{}: {detail}", provider.display_name()),
            },
            OnrampError::Store(store) => store.into(),
        }
    }
}
