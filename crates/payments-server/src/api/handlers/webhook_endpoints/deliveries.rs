//! An endpoint's delivery log, redelivery, recovery after an outage, and test events.

use crate::api::handlers::webhook_endpoints::merchant;
use crate::api::handlers::webhook_endpoints::view::{
    DeliveriesPage, EndpointDeliveryView, RecoverBody, RecoverResponse, RedeliveredResponse, TestEventBody,
    TestEventResponse,
};
use crate::domain::page_limit::parse_limit;
use crate::domain::scope::Scope;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::{self, HttpResponse};
use crate::store::DeliveryQuery;

const DEFAULT_LIMIT: u32 = 50;
const MAX_LIMIT: u32 = 200;
const STATES: [&str; 3] = ["pending", "delivered", "failed"];

fn invalid(field: &str, message: &str) -> ApiError {
    ApiError::invalid_input(Some(field.to_owned()), format!("{field}: {message}"))
}

/// `cursor` is the previous page's `nextCursor`: the row of its last delivery.
fn parse_cursor(text: Option<&str>) -> Result<Option<i64>, ApiError> {
    match text.filter(|text| !text.is_empty()) {
        None => Ok(None),
        Some(text) => text
            .parse::<i64>()
            .ok()
            .filter(|row| *row > 0)
            .map(Some)
            .ok_or_else(|| invalid("cursor", "must be the nextCursor of the previous page")),
    }
}

/// One page of an endpoint's deliveries, newest first.
#[utoipa::path(
    get,
    path = "/api/webhook-endpoints/{id}/deliveries",
    operation_id = "listWebhookEndpointDeliveries",
    tag = "webhooks",
    security(("subscription_key" = []), ("session_cookie" = [])),
    params(
        ("id" = String, Path, description = "The endpoint id (we_...)."),
        ("limit" = Option<u32>, Query, description = "Page size, 1 to 200 (default 50)."),
        ("cursor" = Option<String>, Query, description = "nextCursor of the previous page."),
        ("state" = Option<String>, Query, description = "Only deliveries in this state: pending, delivered or failed."),
        ("eventType" = Option<String>, Query, description = "Only deliveries of this event type.")
    ),
    responses(
        (status = 200, description = "One page of deliveries.", body = DeliveriesPage),
        (status = 400, description = "limit, cursor or state is invalid (invalid_input).", body = crate::http::error::Envelope<'static>),
        (status = 404, description = "No such endpoint of this merchant.", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn deliveries(ctx: &Ctx<'_>, id: &str) -> Result<HttpResponse, ApiError> {
    let wallet = merchant(ctx, Scope::WebhooksRead).await?;
    let state = ctx.query("state").filter(|state| !state.is_empty());
    if state.is_some_and(|state| !STATES.contains(&state)) {
        return Err(invalid("state", "must be pending, delivered or failed"));
    }
    let query = DeliveryQuery {
        limit: parse_limit(ctx.query("limit"), DEFAULT_LIMIT, MAX_LIMIT)?,
        before_row: parse_cursor(ctx.query("cursor"))?,
        state: state.map(str::to_owned),
        event_type: ctx
            .query("eventType")
            .filter(|kind| !kind.is_empty())
            .map(str::to_owned),
    };
    let found = ctx
        .state
        .services
        .webhook_endpoints
        .deliveries(wallet, id, &query)
        .await?;
    let full = u32::try_from(found.len()).unwrap_or(u32::MAX) == query.limit;
    let next_cursor = found.last().filter(|_| full).map(|last| last.row.to_string());
    Ok(response::ok(&DeliveriesPage {
        deliveries: found.into_iter().map(EndpointDeliveryView::from).collect(),
        next_cursor,
    }))
}

/// Sends one delivery again (the same event id and body) as a new round of the retry schedule.
#[utoipa::path(
    post,
    path = "/api/webhook-endpoints/{id}/deliveries/{deliveryId}/redeliver",
    operation_id = "redeliverWebhookEndpointDelivery",
    tag = "webhooks",
    security(("subscription_key" = []), ("session_cookie" = [], "csrf_token" = [])),
    params(
        ("id" = String, Path, description = "The endpoint id (we_...)."),
        ("deliveryId" = String, Path, description = "The delivery id.")
    ),
    responses(
        (status = 200, description = "Queued again.", body = RedeliveredResponse<'static>),
        (status = 404, description = "No such endpoint of this merchant, or no such delivery of it.", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn redeliver(ctx: &Ctx<'_>, id: &str, delivery_id: &str) -> Result<HttpResponse, ApiError> {
    let wallet = merchant(ctx, Scope::WebhooksWrite).await?;
    ctx.state
        .services
        .webhook_endpoints
        .redeliver(wallet, id, delivery_id)
        .await?;
    Ok(response::ok(&RedeliveredResponse {
        ok: true,
        delivery_id,
    }))
}

/// Sends again every failed delivery created since a time (after an outage), each as a new round.
#[utoipa::path(
    post,
    path = "/api/webhook-endpoints/{id}/recover",
    operation_id = "recoverWebhookEndpoint",
    tag = "webhooks",
    security(("subscription_key" = []), ("session_cookie" = [], "csrf_token" = [])),
    params(("id" = String, Path, description = "The endpoint id (we_...).")),
    request_body = RecoverBody,
    responses(
        (status = 200, description = "How many deliveries were queued again.", body = RecoverResponse),
        (status = 400, description = "since is missing, malformed or in the future (invalid_input).", body = crate::http::error::Envelope<'static>),
        (status = 404, description = "No such endpoint of this merchant.", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn recover(ctx: &Ctx<'_>, id: &str) -> Result<HttpResponse, ApiError> {
    let wallet = merchant(ctx, Scope::WebhooksWrite).await?;
    let body: RecoverBody = ctx.json().await?;
    let recovered = ctx
        .state
        .services
        .webhook_endpoints
        .recover(wallet, id, body.since)
        .await?;
    Ok(response::ok(&RecoverResponse { ok: true, recovered }))
}

/// Sends a realistic test event (marked `"test": true`) to the matching endpoints, or to one.
#[utoipa::path(
    post,
    path = "/api/webhook-endpoints/test-event",
    operation_id = "sendWebhookTestEvent",
    tag = "webhooks",
    security(("subscription_key" = []), ("session_cookie" = [], "csrf_token" = [])),
    request_body = TestEventBody,
    responses(
        (status = 200, description = "The test event and how many deliveries were queued.", body = TestEventResponse),
        (status = 400, description = "An unknown event type (invalid_input).", body = crate::http::error::Envelope<'static>),
        (status = 404, description = "endpointId names no endpoint of this merchant.", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn test_event(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let wallet = merchant(ctx, Scope::WebhooksWrite).await?;
    let body: TestEventBody = ctx.json().await?;
    let (event, deliveries) = ctx
        .state
        .services
        .webhook_endpoints
        .trigger(wallet, &body.event_type, body.endpoint_id.as_deref())
        .await?;
    Ok(response::ok(&TestEventResponse {
        ok: true,
        event_id: event.id.as_str().to_owned(),
        event_type: event.event_type,
        deliveries,
    }))
}
