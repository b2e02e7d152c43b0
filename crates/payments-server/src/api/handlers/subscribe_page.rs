//! /subscribe/{planId}: the hosted subscribe page (public, like the plan list) and its script.

use hyper::StatusCode;

use crate::api::portal::{self, SubscribeView};
use crate::domain::recurring::PlanId;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::HttpResponse;

/// The hosted subscribe page of a plan.
#[utoipa::path(
    get,
    path = "/subscribe/{planId}",
    operation_id = "subscribePage",
    tag = "portal",
    params(("planId" = String, Path, description = "The plan.")),
    responses(
        (status = 200, description = "The page (a closed plan's page offers no Subscribe).", body = String, content_type = "text/html; charset=utf-8"),
        (status = 404, description = "No such plan (an HTML page).", body = String, content_type = "text/html; charset=utf-8")
    )
)]
pub(crate) async fn page(ctx: &Ctx<'_>, plan_id: &str) -> Result<HttpResponse, ApiError> {
    // A malformed id names no plan: the same 404 page as an unknown one.
    let found = match PlanId::parse("planId", plan_id) {
        Ok(plan_id) => ctx.state.services.recurring.plan_page(&plan_id).await?,
        Err(_) => None,
    };
    let Some(found) = found else {
        return Ok(portal::html(
            StatusCode::NOT_FOUND,
            portal::render_plan_not_found(),
        ));
    };
    let plan = found.plan;
    let view = SubscribeView {
        plan_id: plan.id.as_str().to_owned(),
        brand_name: found.brand_name,
        name: plan.name,
        description: plan.description,
        price: plan.price,
        period: plan.period,
        active: plan.active,
        chain_id: ctx.state.config.chain_id,
        test_mode: ctx.state.services.chain.is_test_mode(),
    };
    Ok(portal::html(StatusCode::OK, portal::render_subscribe_page(&view)))
}

/// The subscribe page's script.
#[utoipa::path(
    get,
    path = "/subscribe/assets/subscribe.js",
    operation_id = "subscribeScript",
    tag = "portal",
    responses((status = 200, description = "The subscribe page's script.", body = String, content_type = "text/javascript; charset=utf-8"))
)]
pub(crate) fn script() -> HttpResponse {
    portal::script_response(portal::SUBSCRIBE_SCRIPT)
}

/// The wallet helpers both hosted pages load before their own script.
#[utoipa::path(
    get,
    path = "/portal/assets/wallet.js",
    operation_id = "portalWalletScript",
    tag = "portal",
    responses((status = 200, description = "The hosted pages' shared wallet script.", body = String, content_type = "text/javascript; charset=utf-8"))
)]
pub(crate) fn wallet_script() -> HttpResponse {
    portal::script_response(portal::WALLET_SCRIPT)
}
