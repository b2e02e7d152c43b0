//! `POST /api/subscriptions/change`: the customer moves its subscription to another plan of the merchant
//! with a spend permission signed for it (the signature is the proof; no key), see docs/subscriptions.md.

use hyper::StatusCode;
use payments_core::PlanChangeFacts;
use serde::Serialize;

use crate::api::handlers::subscriptions::view::SubscriptionView;
use crate::api::wire::subscriptions::ChangeSubscriptionRequest;
use crate::domain::recurring;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::idempotency::{self, RenderContext};
use crate::http::response::HttpResponse;
use crate::services::recurring::ChangedSubscription;

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct ChangeResponse<'a> {
    success: bool,
    subscription: SubscriptionView<'a>,
    /// What the change did to money, as `subscription.updated` carries it: `previousPlanId`, `proration`
    /// (`charge` / `credit` / `none`), and `previousPrice`, `proration`, `fee`, `net` and `creditBalance`
    /// each as `<name>Usd` (exact number) and `<name>BaseUnits` (integer text), and `transactionHash`.
    #[schema(value_type = Object)]
    change: &'a PlanChangeFacts,
}

/// Moves a subscription to another plan of its merchant: the customer signs a spend permission for the new
/// plan (the document of `GET /api/subscriptions/plans/{planId}/permission?subscriptionId=`); the old
/// permission is revoked on chain in the same transaction, and an upgrade is charged the prorated
/// difference at once (a downgrade credits it to the next charge).
#[utoipa::path(
    post,
    path = "/api/subscriptions/change",
    operation_id = "changeSubscription",
    tag = "subscriptions",
    params(
        ("Idempotency-Key" = Option<String>, Header, description = "Makes a retried change safe (per customer): the same key and body answer the first answer again; the same key with another body is 409 idempotency_conflict.")
    ),
    request_body = ChangeSubscriptionRequest,
    responses(
        (status = 200, description = "The subscription on its new plan, and what the change charged or credited.", body = ChangeResponse<'static>),
        (status = 400, description = "A malformed field, or a refused change (subscription_canceled, same_plan, plan_of_another_merchant, plan_inactive, period_change_unsupported, permission_misaligned, a permission that does not fit the plan, signer_mismatch, change_refused_on_chain); nothing changed.", body = crate::http::error::Envelope<'static>),
        (status = 403, description = "The permission is not the subscription customer's (forbidden).", body = crate::http::error::Envelope<'static>),
        (status = 404, description = "No such subscription.", body = crate::http::error::Envelope<'static>),
        (status = 409, description = "A charge or change is in flight (change_in_progress), the next charge is due (charge_due), or the Idempotency-Key was used with another body (idempotency_conflict).", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn change(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let request = recurring::ChangeSubscriptionRequest::from(ctx.json::<ChangeSubscriptionRequest>().await?);
    let claim = idempotency::claim(ctx)?;
    let outcome = ctx.state.services.recurring.change_plan(&request, claim).await?;
    Ok(idempotency::answer(ctx, outcome, render_changed).await)
}

/// `200 { success, subscription, change }`: the fresh answer, the one kept under an `Idempotency-Key`, and
/// the one a replay recovers from the change's record.
fn render_changed(changed: &ChangedSubscription, _: &RenderContext) -> (StatusCode, Vec<u8>) {
    idempotency::json_body(
        StatusCode::OK,
        &ChangeResponse {
            success: true,
            subscription: SubscriptionView::new(&changed.subscription),
            change: &changed.change,
        },
    )
}
