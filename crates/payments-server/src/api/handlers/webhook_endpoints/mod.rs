//! /api/webhook-endpoints: a merchant's webhook endpoints (a key with `webhooks:read` / `webhooks:write`, or
//! the merchant's admin session, with CSRF for writes). docs/webhooks.md#endpoints.

mod deliveries;
mod view;

pub(crate) use deliveries::{
    __path_deliveries, __path_recover, __path_redeliver, __path_test_event, deliveries, recover, redeliver,
    test_event,
};

use hyper::StatusCode;

use crate::api::handlers::subscriptions::plans::MerchantCaller;
use crate::domain::scope::Scope;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::{self, HttpResponse};
use view::{DeletedResponse, EndpointBody, EndpointListResponse, EndpointView};

/// The merchant a request acts for: a key's wallet, or the signed-in merchant.
async fn merchant(ctx: &Ctx<'_>, scope: Scope) -> Result<payments_core::Wallet, ApiError> {
    let caller = if scope == Scope::WebhooksRead {
        MerchantCaller::reading(ctx, scope).await?
    } else {
        MerchantCaller::of(ctx, scope).await?
    };
    caller.acting_for(None)
}

/// Registers an endpoint; the answer carries its `whsec_` secret, shown this once.
#[utoipa::path(
    post,
    path = "/api/webhook-endpoints",
    operation_id = "createWebhookEndpoint",
    tag = "webhooks",
    security(("subscription_key" = []), ("session_cookie" = [], "csrf_token" = [])),
    request_body = EndpointBody,
    responses(
        (status = 201, description = "The new endpoint with its secret.", body = EndpointView),
        (status = 400, description = "A missing or malformed url, events or description (invalid_input): the url must be HTTPS to a public address.", body = crate::http::error::Envelope<'static>),
        (status = 409, description = "The merchant already has 16 endpoints (too_many_endpoints).", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn create(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let wallet = merchant(ctx, Scope::WebhooksWrite).await?;
    let body: EndpointBody = ctx.json().await?;
    let created = ctx
        .state
        .services
        .webhook_endpoints
        .create(wallet, body.into())
        .await?;
    Ok(response::json(StatusCode::CREATED, &EndpointView::from(created)))
}

/// The merchant's endpoints (never their secrets).
#[utoipa::path(
    get,
    path = "/api/webhook-endpoints",
    operation_id = "listWebhookEndpoints",
    tag = "webhooks",
    security(("subscription_key" = []), ("session_cookie" = [])),
    responses((status = 200, description = "Every endpoint of the merchant, oldest first.", body = EndpointListResponse))
)]
pub(crate) async fn list(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let wallet = merchant(ctx, Scope::WebhooksRead).await?;
    let endpoints = ctx.state.services.webhook_endpoints.list(wallet).await?;
    Ok(response::ok(&EndpointListResponse {
        endpoints: endpoints.into_iter().map(EndpointView::from).collect(),
    }))
}

/// One endpoint.
#[utoipa::path(
    get,
    path = "/api/webhook-endpoints/{id}",
    operation_id = "getWebhookEndpoint",
    tag = "webhooks",
    security(("subscription_key" = []), ("session_cookie" = [])),
    params(("id" = String, Path, description = "The endpoint id (we_...).")),
    responses(
        (status = 200, description = "The endpoint.", body = EndpointView),
        (status = 404, description = "No such endpoint of this merchant.", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn get(ctx: &Ctx<'_>, id: &str) -> Result<HttpResponse, ApiError> {
    let wallet = merchant(ctx, Scope::WebhooksRead).await?;
    let endpoint = ctx.state.services.webhook_endpoints.get(wallet, id).await?;
    Ok(response::ok(&EndpointView::from(endpoint)))
}

/// Changes an endpoint's url, events, description or enabled; absent fields stay.
#[utoipa::path(
    patch,
    path = "/api/webhook-endpoints/{id}",
    operation_id = "updateWebhookEndpoint",
    tag = "webhooks",
    security(("subscription_key" = []), ("session_cookie" = [], "csrf_token" = [])),
    params(("id" = String, Path, description = "The endpoint id (we_...).")),
    request_body = EndpointBody,
    responses(
        (status = 200, description = "The endpoint as changed.", body = EndpointView),
        (status = 400, description = "A malformed field (invalid_input).", body = crate::http::error::Envelope<'static>),
        (status = 404, description = "No such endpoint of this merchant.", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn update(ctx: &Ctx<'_>, id: &str) -> Result<HttpResponse, ApiError> {
    let wallet = merchant(ctx, Scope::WebhooksWrite).await?;
    let body: EndpointBody = ctx.json().await?;
    let endpoint = ctx
        .state
        .services
        .webhook_endpoints
        .update(wallet, id, body.into())
        .await?;
    Ok(response::ok(&EndpointView::from(endpoint)))
}

/// Deletes an endpoint with its delivery log; nothing more is sent to it.
#[utoipa::path(
    delete,
    path = "/api/webhook-endpoints/{id}",
    operation_id = "deleteWebhookEndpoint",
    tag = "webhooks",
    security(("subscription_key" = []), ("session_cookie" = [], "csrf_token" = [])),
    params(("id" = String, Path, description = "The endpoint id (we_...).")),
    responses(
        (status = 200, description = "Deleted.", body = DeletedResponse<'static>),
        (status = 404, description = "No such endpoint of this merchant.", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn delete(ctx: &Ctx<'_>, id: &str) -> Result<HttpResponse, ApiError> {
    let wallet = merchant(ctx, Scope::WebhooksWrite).await?;
    ctx.state.services.webhook_endpoints.delete(wallet, id).await?;
    Ok(response::ok(&DeletedResponse { ok: true, id }))
}

/// A new secret, shown this once; the previous one keeps signing beside it for 24 hours.
#[utoipa::path(
    post,
    path = "/api/webhook-endpoints/{id}/rotate",
    operation_id = "rotateWebhookEndpointSecret",
    tag = "webhooks",
    security(("subscription_key" = []), ("session_cookie" = [], "csrf_token" = [])),
    params(("id" = String, Path, description = "The endpoint id (we_...).")),
    responses(
        (status = 200, description = "The endpoint with its new secret.", body = EndpointView),
        (status = 404, description = "No such endpoint of this merchant.", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn rotate(ctx: &Ctx<'_>, id: &str) -> Result<HttpResponse, ApiError> {
    let wallet = merchant(ctx, Scope::WebhooksWrite).await?;
    let rotated = ctx.state.services.webhook_endpoints.rotate(wallet, id).await?;
    Ok(response::ok(&EndpointView::from(rotated)))
}
