//! `GET /api/subscriptions/plans/{planId}/permission?customer=0x…` (public): what a customer signs and
//! approves to subscribe, so any wallet library can subscribe without building the EIP-712 message by hand;
//! with `?subscriptionId=` instead, what the subscription's customer signs to move it to this plan.

use payments_core::Wallet;

use crate::domain::field_error::FieldError;
use crate::domain::recurring::{CustomerSubscriptionId, PlanId};
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::{self, HttpResponse};

/// The spend permission document to sign for a plan, and whether an ERC-20 approval of the manager is needed.
#[utoipa::path(
    get,
    path = "/api/subscriptions/plans/{planId}/permission",
    operation_id = "subscriptionPermission",
    tag = "subscriptions",
    params(
        ("planId" = String, Path, description = "The plan to subscribe to."),
        ("customer" = Option<String>, Query, description = "The subscribing wallet (the permission's account); required without subscriptionId."),
        ("subscriptionId" = Option<String>, Query, description = "A plan change instead: the subscription moving to this plan. The document is for its customer, and its start is the subscription's current charge slot (docs/subscriptions.md, Plan changes).")
    ),
    responses(
        (status = 200, description = "The EIP-712 document (start now less a minute, no end, a random salt, allowance = the price in base units, period = the plan's seconds) and the approval.", body = crate::api::openapi::core_types::SubscriptionPermissionOffer),
        (status = 400, description = "customer missing or not an address, or the plan is inactive.", body = crate::http::error::Envelope<'static>),
        (status = 404, description = "No such plan.", body = crate::http::error::Envelope<'static>),
        (status = 503, description = "Subscriptions are not configured (subscriptions_not_configured).", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn permission(ctx: &Ctx<'_>, plan_id: &str) -> Result<HttpResponse, ApiError> {
    let plan_id = PlanId::parse("planId", plan_id)?;
    let service = &ctx.state.services.recurring;
    if let Some(subscription) = ctx.query("subscriptionId") {
        let subscription = CustomerSubscriptionId::parse("subscriptionId", subscription)?;
        let offer = service.change_permission_offer(&plan_id, &subscription).await?;
        return Ok(response::ok(&offer));
    }
    let customer = Wallet::parse(ctx.query("customer").unwrap_or_default())
        .map_err(|_| FieldError::new("customer", "must be a 0x address"))?;
    let offer = service.permission_offer(&plan_id, customer).await?;
    Ok(response::ok(&offer))
}
