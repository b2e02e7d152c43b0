//! Why a webhook endpoint request was refused; `http::error::from_endpoints` maps each to its status and code.

use payments_core::EventFilterError;
use thiserror::Error;

use crate::domain::receipt::TargetError;
use crate::domain::webhook_endpoint::EndpointId;
use crate::store::StoreError;

#[derive(Debug, Error)]
pub(crate) enum EndpointError {
    #[error("url is required")]
    UrlRequired,
    #[error("url {0}")]
    InvalidUrl(TargetError),
    #[error(
        "events is required: a list of event types or patterns (\"*\", \"receipt.*\", \"subscription.charged\")"
    )]
    EventsRequired,
    #[error("events: {0}")]
    InvalidEvents(EventFilterError),
    #[error("description is longer than 256 characters")]
    DescriptionTooLong,
    #[error("since is in the future")]
    SinceInFuture,
    #[error("unknown event type '{0}' (known: {known})", known = super::SAMPLE_EVENT_TYPES.join(", "))]
    UnknownEventType(String),
    #[error("a merchant may have at most 16 webhook endpoints: delete one first")]
    TooMany,
    #[error("webhook endpoint {0} not found")]
    NotFound(EndpointId),
    #[error("delivery {0} not found for this endpoint")]
    DeliveryNotFound(String),
    /// The server runs without a master key, so it cannot seal a secret.
    #[error("the server has no master key to seal endpoint secrets with")]
    NoMasterKey,
    #[error(transparent)]
    Store(#[from] StoreError),
}
