//! A plan's webhook delivery log (`GET /api/subscriptions/plans/{planId}/webhooks`) and redelivery
//! (`POST /api/subscriptions/plans/{planId}/webhooks/{delivery}/redeliver`), as a receipt's: the
//! deliveries of every subscription on the plan to its `webhookUrl`, for the plan's merchant.

use serde::Serialize;

use crate::api::handlers::receipts::webhooks::{DeliveryView, RedeliverResponse};
use crate::api::handlers::subscriptions::plans::MerchantCaller;
use crate::domain::recurring::PlanId;
use crate::domain::scope::Scope;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::{self, HttpResponse};

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct PlanDeliveriesResponse {
    plan_id: String,
    deliveries: Vec<DeliveryView>,
}

/// The webhook deliveries of a plan's subscriptions and their attempts (the merchant: key with
/// subscriptions:read, or its session).
#[utoipa::path(
    get,
    path = "/api/subscriptions/plans/{planId}/webhooks",
    operation_id = "listPlanWebhooks",
    tag = "subscriptions",
    security(("subscription_key" = []), ("session_cookie" = [])),
    params(
        ("planId" = String, Path, description = "The plan.")
    ),
    responses(
        (status = 200, description = "The deliveries, oldest first, each naming its subscription.", body = PlanDeliveriesResponse),
        (status = 400, description = "planId is not a plan id (invalid_input, naming the field).", body = crate::http::error::Envelope<'static>),
        (status = 404, description = "No plan with this id of this merchant.", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn list(ctx: &Ctx<'_>, plan_id: &str) -> Result<HttpResponse, ApiError> {
    let merchant = MerchantCaller::reading(ctx, Scope::SubscriptionsRead)
        .await?
        .acting_for(None)?;
    let plan_id = PlanId::parse("planId", plan_id)?;
    let logs = ctx
        .state
        .services
        .recurring
        .plan_deliveries(merchant, &plan_id)
        .await?;
    Ok(response::ok(&PlanDeliveriesResponse {
        plan_id: plan_id.as_str().to_owned(),
        deliveries: logs.into_iter().map(DeliveryView::from).collect(),
    }))
}

/// Sends a plan's delivery again: the same body and delivery id, a new round of attempts (the merchant:
/// key with subscriptions:write, or its session + CSRF).
#[utoipa::path(
    post,
    path = "/api/subscriptions/plans/{planId}/webhooks/{delivery}/redeliver",
    operation_id = "redeliverPlanWebhook",
    tag = "subscriptions",
    security(("subscription_key" = []), ("session_cookie" = [], "csrf_token" = [])),
    params(
        ("planId" = String, Path, description = "The plan."),
        ("delivery" = String, Path, description = "The delivery id.")
    ),
    responses(
        (status = 200, description = "Queued again.", body = RedeliverResponse<'static>),
        (status = 400, description = "planId is not a plan id (invalid_input, naming the field).", body = crate::http::error::Envelope<'static>),
        (status = 404, description = "No plan or delivery with these ids of this merchant.", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn redeliver(
    ctx: &Ctx<'_>,
    plan_id: &str,
    delivery_id: &str,
) -> Result<HttpResponse, ApiError> {
    let merchant = MerchantCaller::of(ctx, Scope::SubscriptionsWrite)
        .await?
        .acting_for(None)?;
    let plan_id = PlanId::parse("planId", plan_id)?;
    ctx.state
        .services
        .recurring
        .redeliver_plan_delivery(merchant, &plan_id, delivery_id)
        .await?;
    Ok(response::ok(&RedeliverResponse {
        ok: true,
        delivery_id,
    }))
}
