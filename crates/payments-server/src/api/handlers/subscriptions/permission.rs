//! `GET /api/subscriptions/plans/{planId}/permission?customer=0x…` (public): what a customer signs and
//! approves to subscribe, so any wallet library can subscribe without building the EIP-712 message by hand.

use payments_core::Wallet;

use crate::domain::field_error::FieldError;
use crate::domain::recurring::PlanId;
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
        ("customer" = String, Query, description = "The subscribing wallet (the permission's account).")
    ),
    responses(
        (status = 200, description = "The EIP-712 document (start now less a minute, no end, a random salt, allowance = the price in base units, period = the plan's seconds) and the approval.", body = payments_core::SubscriptionPermissionOffer),
        (status = 400, description = "customer missing or not an address, or the plan is inactive.", body = crate::http::error::Envelope<'static>),
        (status = 404, description = "No such plan.", body = crate::http::error::Envelope<'static>),
        (status = 503, description = "Subscriptions are not configured (subscriptions_not_configured).", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn permission(ctx: &Ctx<'_>, plan_id: &str) -> Result<HttpResponse, ApiError> {
    let plan_id = PlanId::parse("planId", plan_id)?;
    let customer = Wallet::parse(ctx.query("customer").unwrap_or_default())
        .map_err(|_| FieldError::new("customer", "must be a 0x address"))?;
    let offer = ctx
        .state
        .services
        .recurring
        .permission_offer(&plan_id, customer)
        .await?;
    Ok(response::ok(&offer))
}
