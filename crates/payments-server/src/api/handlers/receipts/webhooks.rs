//! The delivery log of a receipt (GET /api/receipts/{id}/webhooks) and redelivery
//! (POST /api/receipts/{id}/webhooks/{deliveryId}/redeliver).

use serde::Serialize;

use crate::api::handlers::receipts::not_found;
use crate::domain::receipt::ReceiptId;
use crate::domain::scope::Scope;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::{self, HttpResponse};
use crate::store::{AttemptLog, DeliveryLog};

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct DeliveriesResponse {
    receipt_id: String,
    deliveries: Vec<DeliveryView>,
}

/// One delivery of a receipt's or a plan's webhooks, with its attempts.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DeliveryView {
    delivery_id: String,
    /// The subscription a plan's delivery is about (absent for a receipt's).
    #[serde(skip_serializing_if = "Option::is_none")]
    subscription_id: Option<String>,
    event: String,
    url: String,
    /// `pending`, `delivered` or `failed`.
    state: String,
    next_attempt_at: Option<i64>,
    created_at: i64,
    attempts: Vec<AttemptView>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AttemptView {
    attempt: i64,
    status_code: Option<u16>,
    error: Option<String>,
    started_at: i64,
    finished_at: i64,
    duration_ms: i64,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RedeliverResponse<'a> {
    pub(crate) ok: bool,
    pub(crate) delivery_id: &'a str,
}

impl From<DeliveryLog> for DeliveryView {
    fn from(log: DeliveryLog) -> Self {
        DeliveryView {
            delivery_id: log.id.as_str().to_owned(),
            subscription_id: log.subscription_id.map(|id| id.as_str().to_owned()),
            event: log.event,
            url: log.url,
            state: log.state,
            next_attempt_at: log.next_attempt_at,
            created_at: log.created_at,
            attempts: log.attempts.into_iter().map(AttemptView::from).collect(),
        }
    }
}

impl From<AttemptLog> for AttemptView {
    fn from(attempt: AttemptLog) -> Self {
        AttemptView {
            attempt: attempt.attempt,
            status_code: attempt.status_code,
            error: attempt.error,
            started_at: attempt.started_at,
            finished_at: attempt.finished_at,
            duration_ms: attempt.duration_ms,
        }
    }
}

/// The webhook deliveries of a receipt and their attempts (receipts:read).
#[utoipa::path(
    get,
    path = "/api/receipts/{id}/webhooks",
    operation_id = "listReceiptWebhooks",
    tag = "receipts",
    security(("subscription_key" = [])),
    params(
        ("id" = String, Path, description = "The receipt id.")
    ),
    responses(
        (status = 200, description = "The deliveries.", body = DeliveriesResponse),
        (status = 404, description = "No receipt with this id of this merchant.", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn list(ctx: &Ctx<'_>, id: &str) -> Result<HttpResponse, ApiError> {
    let caller = ctx.dev_caller(Scope::ReceiptsRead).await?;
    let id = ReceiptId::parse("id", id).map_err(|_| not_found(id))?;
    let logs = ctx
        .state
        .services
        .receipts
        .list_deliveries(caller.wallet, id.clone())
        .await?;
    Ok(response::ok(&DeliveriesResponse {
        receipt_id: id.as_str().to_owned(),
        deliveries: logs.into_iter().map(DeliveryView::from).collect(),
    }))
}

/// Sends a delivery again (receipts:write).
#[utoipa::path(
    post,
    path = "/api/receipts/{id}/webhooks/{delivery}/redeliver",
    operation_id = "redeliverReceiptWebhook",
    tag = "receipts",
    security(("subscription_key" = [])),
    params(
        ("id" = String, Path, description = "The receipt id."),
        ("delivery" = String, Path, description = "The delivery id.")
    ),
    responses(
        (status = 200, description = "Queued again.", body = RedeliverResponse<'static>),
        (status = 404, description = "No receipt or delivery with these ids of this merchant.", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn redeliver(ctx: &Ctx<'_>, id: &str, delivery_id: &str) -> Result<HttpResponse, ApiError> {
    let caller = ctx.dev_caller(Scope::ReceiptsWrite).await?;
    let id = ReceiptId::parse("id", id).map_err(|_| not_found(id))?;
    ctx.state
        .services
        .receipts
        .redeliver(caller.wallet, id, delivery_id.to_owned())
        .await?;
    Ok(response::ok(&RedeliverResponse {
        ok: true,
        delivery_id,
    }))
}
