//! Conversions into [`ApiError`] for the admin, split and shop-settings services. Every variant is
//! matched explicitly, as in `error_from.rs`.

use crate::http::error::ApiError;
use crate::services::admin_auth::AdminAuthError;
use crate::services::shop::ShopConfigError;
use crate::services::split::SplitConfigError;

impl From<AdminAuthError> for ApiError {
    fn from(error: AdminAuthError) -> Self {
        match error {
            AdminAuthError::NoSession | AdminAuthError::NonceRejected | AdminAuthError::Login(_) => {
                ApiError::AdminUnauthorized {
                    message: error.to_string(),
                }
            }
            AdminAuthError::NotPlatformAdmin => ApiError::Forbidden {
                message: error.to_string(),
            },
            AdminAuthError::Token(_) => ApiError::internal(error),
            AdminAuthError::Store(store) => store.into(),
        }
    }
}

impl From<SplitConfigError> for ApiError {
    fn from(error: SplitConfigError) -> Self {
        match error {
            SplitConfigError::Invalid(_) | SplitConfigError::PlatformShareMissing { .. } => {
                ApiError::InvalidInput {
                    field: Some("recipients".to_owned()),
                    message: error.to_string(),
                }
            }
            SplitConfigError::SplitFactoryNotConfigured
            | SplitConfigError::ZeroSplitAddress
            | SplitConfigError::SplitAddressIsMerchant
            | SplitConfigError::NotASplitContract(_)
            | SplitConfigError::SplitContractDiffers(_) => ApiError::InvalidInput {
                field: Some("splitAddress".to_owned()),
                message: error.to_string(),
            },
            SplitConfigError::PlatformRecipientNotConfigured => ApiError::PlatformRecipientNotConfigured,
            SplitConfigError::ChainUnavailable(reason) => ApiError::ChainUnavailable { reason },
            SplitConfigError::Store(store) => store.into(),
        }
    }
}

impl From<ShopConfigError> for ApiError {
    fn from(error: ShopConfigError) -> Self {
        match error {
            ShopConfigError::UnknownDefaultJurisdiction(_) => ApiError::InvalidInput {
                field: Some("defaultJurisdiction".to_owned()),
                message: error.to_string(),
            },
            ShopConfigError::Store(store) => store.into(),
        }
    }
}
