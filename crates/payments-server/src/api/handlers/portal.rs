//! /portal/{receiptId}: the hosted payment page (no authentication: the link is the capability). GET and
//! HEAD only read; the page's "Continue to payment" button POSTs, which records `link_opened`.

use hyper::StatusCode;
use payments_core::Wallet;

use crate::api::portal;
use crate::domain::receipt::ReceiptId;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::HttpResponse;

/// The hosted payment page (no authentication: the link is the capability).
#[utoipa::path(
    method(get, head),
    path = "/portal/{id}",
    operation_id = "portalPage",
    tag = "portal",
    params(
        ("id" = String, Path, description = "The receipt id."),
        ("merchant" = Option<String>, Query, description = "The merchant wallet, from the payment link.")
    ),
    responses(
        (status = 200, description = "The page.", body = String, content_type = "text/html; charset=utf-8"),
        (status = 404, description = "No such receipt (an HTML page).", body = String, content_type = "text/html; charset=utf-8")
    )
)]
pub(crate) async fn page(ctx: &Ctx<'_>, id: &str) -> Result<HttpResponse, ApiError> {
    // A malformed id or merchant names no receipt: the same 404 page as an unknown one.
    let view = match link(ctx, id) {
        Some((id, merchant)) => portal::view(ctx.state, merchant, id).await?,
        None => None,
    };
    Ok(match view {
        Some(view) => portal::html(StatusCode::OK, portal::render_page(&view)),
        None => portal::html(StatusCode::NOT_FOUND, portal::render_not_found()),
    })
}

/// The page's Continue button: records link_opened, then shows the page again.
#[utoipa::path(
    post,
    path = "/portal/{id}",
    operation_id = "portalOpen",
    tag = "portal",
    params(
        ("id" = String, Path, description = "The receipt id."),
        ("merchant" = Option<String>, Query, description = "The merchant wallet, from the payment link.")
    ),
    responses(
        (status = 303, description = "Back to the page.", headers(("Location" = String))),
        (status = 404, description = "No such receipt (an HTML page).", body = String, content_type = "text/html; charset=utf-8")
    )
)]
pub(crate) async fn open(ctx: &Ctx<'_>, id: &str) -> Result<HttpResponse, ApiError> {
    let found = match link(ctx, id) {
        Some((id, merchant)) => portal::record_opened(ctx.state, merchant, id).await?,
        None => false,
    };
    if !found {
        return Ok(portal::html(StatusCode::NOT_FOUND, portal::render_not_found()));
    }
    Ok(page_again(ctx, id))
}

/// Test mode only: pays the receipt on the simulated chain, then shows the page again.
#[utoipa::path(
    post,
    path = "/portal/{id}/simulate",
    operation_id = "portalSimulate",
    tag = "portal",
    params(
        ("id" = String, Path, description = "The receipt id."),
        ("merchant" = Option<String>, Query, description = "The merchant wallet, from the payment link.")
    ),
    responses(
        (status = 303, description = "Back to the page.", headers(("Location" = String))),
        (status = 404, description = "No such receipt, or not in test mode (an HTML page).", body = String, content_type = "text/html; charset=utf-8")
    )
)]
pub(crate) async fn simulate(ctx: &Ctx<'_>, id: &str) -> Result<HttpResponse, ApiError> {
    let found = match link(ctx, id) {
        Some((receipt, merchant)) => portal::simulate_payment(ctx.state, merchant, receipt).await?,
        None => false,
    };
    if !found {
        return Ok(portal::html(StatusCode::NOT_FOUND, portal::render_not_found()));
    }
    Ok(page_again(ctx, id))
}

/// 303 back to the page, with the same query (the payment link's `merchant`).
fn page_again(ctx: &Ctx<'_>, id: &str) -> HttpResponse {
    let query = match ctx.raw_query() {
        "" => String::new(),
        query => format!("?{query}"),
    };
    portal::see_other(&format!("/portal/{id}{query}"))
}

/// The receipt and merchant a payment link names; `None` when either is malformed, which the page answers
/// like an unknown receipt (a link is a capability: it tells nothing about why it does not work).
pub(super) fn link(ctx: &Ctx<'_>, id: &str) -> Option<(ReceiptId, Option<Wallet>)> {
    let merchant = ctx.query("merchant").map(Wallet::parse).transpose().ok()?;
    Some((ReceiptId::parse("receiptId", id).ok()?, merchant))
}
