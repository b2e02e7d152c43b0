//! Webhook endpoint refusals: each [`EndpointError`] to its status and code.

use payments_core::ErrorCode;

use crate::http::error::ApiError;
use crate::services::webhook_endpoints::EndpointError;

fn invalid(field: &str, message: String) -> ApiError {
    ApiError::InvalidInput {
        field: Some(field.to_owned()),
        message,
    }
}

impl From<EndpointError> for ApiError {
    fn from(error: EndpointError) -> Self {
        let message = error.to_string();
        match error {
            EndpointError::UrlRequired | EndpointError::InvalidUrl(_) => invalid("url", message),
            EndpointError::EventsRequired | EndpointError::InvalidEvents(_) => invalid("events", message),
            EndpointError::DescriptionTooLong => invalid("description", message),
            EndpointError::SinceInFuture => invalid("since", message),
            EndpointError::UnknownEventType(_) => invalid("type", message),
            EndpointError::TooMany => ApiError::Refused {
                code: ErrorCode::TooManyEndpoints,
                message,
            },
            EndpointError::NotFound(_) | EndpointError::DeliveryNotFound(_) => ApiError::NotFound { message },
            EndpointError::NoMasterKey => ApiError::internal(message),
            EndpointError::Store(store) => store.into(),
        }
    }
}
