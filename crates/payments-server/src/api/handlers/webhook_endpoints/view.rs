//! The wire shapes of /api/webhook-endpoints.

use serde::{Deserialize, Serialize};

use crate::services::webhook_endpoints::{EndpointRequest, EndpointWithSecret};
use crate::store::{EndpointDeliveryLog, StoredEndpoint};

/// POST and PATCH bodies: every field optional on PATCH; `url` and `events` required on POST.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct EndpointBody {
    /// Where deliveries go: HTTPS and a public address (development mode also allows HTTP and loopback).
    url: Option<String>,
    /// Event types or patterns: `*`, `receipt.*`, `subscription.*`, or exact types such as
    /// `subscription.charged` (1 to 32).
    events: Option<Vec<String>>,
    /// Up to 256 characters; an empty text clears it.
    description: Option<String>,
    /// Default true on create; a disabled endpoint receives nothing until enabled again.
    enabled: Option<bool>,
}

impl From<EndpointBody> for EndpointRequest {
    fn from(body: EndpointBody) -> Self {
        EndpointRequest {
            url: body.url,
            events: body.events,
            description: body.description.map(Some),
            enabled: body.enabled,
        }
    }
}

/// A webhook endpoint. `secret` only in the answers of create and rotate.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct EndpointView {
    id: String,
    url: String,
    events: Vec<String>,
    description: Option<String>,
    enabled: bool,
    /// Unix ms since when its deliveries have failed without a success; 5 days disable it.
    failing_since: Option<i64>,
    /// Unix ms until which the secret before the last rotation still signs beside the new one.
    previous_secret_expires_at: Option<i64>,
    created_at: i64,
    updated_at: i64,
    /// `whsec_` + base64: verify deliveries with it (Standard Webhooks). Shown on create and rotate only.
    #[serde(skip_serializing_if = "Option::is_none")]
    secret: Option<String>,
}

impl From<StoredEndpoint> for EndpointView {
    fn from(endpoint: StoredEndpoint) -> Self {
        EndpointView {
            id: endpoint.id.as_str().to_owned(),
            url: endpoint.url,
            events: endpoint.events,
            description: endpoint.description,
            enabled: endpoint.enabled,
            failing_since: endpoint.failing_since,
            previous_secret_expires_at: endpoint.previous_secret_expires_at,
            created_at: endpoint.created_at,
            updated_at: endpoint.updated_at,
            secret: None,
        }
    }
}

impl From<EndpointWithSecret> for EndpointView {
    fn from(created: EndpointWithSecret) -> Self {
        let secret = created.secret.expose().to_owned();
        EndpointView {
            secret: Some(secret),
            ..EndpointView::from(created.endpoint)
        }
    }
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct EndpointListResponse {
    pub(super) endpoints: Vec<EndpointView>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct DeletedResponse<'a> {
    pub(super) ok: bool,
    pub(super) id: &'a str,
}

/// One delivery of an endpoint.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct EndpointDeliveryView {
    delivery_id: String,
    /// The event's id: the envelope's `id` and the `webhook-id` header.
    event_id: String,
    event_type: String,
    /// `pending` (due, waiting for a retry, or in flight), `delivered` or `failed`.
    state: String,
    attempts: i64,
    next_attempt_at: Option<i64>,
    created_at: i64,
    last_status_code: Option<u16>,
    last_error: Option<String>,
}

impl From<EndpointDeliveryLog> for EndpointDeliveryView {
    fn from(log: EndpointDeliveryLog) -> Self {
        EndpointDeliveryView {
            delivery_id: log.id.as_str().to_owned(),
            event_id: log.event_id.as_str().to_owned(),
            event_type: log.event_type,
            state: log.state,
            attempts: log.attempts,
            next_attempt_at: log.next_attempt_at,
            created_at: log.created_at,
            last_status_code: log.last_status_code,
            last_error: log.last_error,
        }
    }
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct DeliveriesPage {
    pub(super) deliveries: Vec<EndpointDeliveryView>,
    /// Pass as `cursor` for the next (older) page; absent on the last page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) next_cursor: Option<String>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct RedeliveredResponse<'a> {
    pub(super) ok: bool,
    pub(super) delivery_id: &'a str,
}

/// POST /recover body.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct RecoverBody {
    /// Unix ms: every failed delivery created at or after it is sent again.
    pub(super) since: i64,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct RecoverResponse {
    pub(super) ok: bool,
    /// How many failed deliveries were queued again.
    pub(super) recovered: u64,
}

/// POST /test-event body.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(super) struct TestEventBody {
    /// The event type, e.g. `receipt.status_updated` or `subscription.charged`.
    #[serde(rename = "type")]
    pub(super) event_type: String,
    /// Only this endpoint (whatever its event patterns); default: every enabled endpoint that matches.
    pub(super) endpoint_id: Option<String>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct TestEventResponse {
    pub(super) ok: bool,
    pub(super) event_id: String,
    #[serde(rename = "type")]
    pub(super) event_type: String,
    /// How many deliveries were queued.
    pub(super) deliveries: u64,
}
