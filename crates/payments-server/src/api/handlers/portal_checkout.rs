//! The payment page script's endpoints (no authentication: the link is the capability, as for the page):
//! the status it polls, the buyer's steps it records, the transaction hash it posts for verification, and
//! the script itself.

use hyper::header::{CACHE_CONTROL, HeaderValue};
use payments_core::Wallet;
use serde::Deserialize;

use crate::api::handlers::portal::link;
use crate::api::portal::{self, LiveStatus};
use crate::domain::receipt::ReceiptId;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::{self, HttpResponse};
use crate::services::receipts::PageStep;

/// A buyer's step on the page.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub(crate) struct PageEventRequest {
    /// `buyer_logged_in` (a wallet connected) or `checkout_initialized` (Pay pressed).
    status: String,
    /// The wallet the buyer connected.
    wallet: String,
}

/// The transaction the buyer's wallet sent.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PagePaymentRequest {
    transaction_hash: String,
}

/// The page's live status.
#[utoipa::path(
    get,
    path = "/portal/{id}/status",
    operation_id = "portalStatus",
    tag = "portal",
    params(
        ("id" = String, Path, description = "The receipt id."),
        ("merchant" = Option<String>, Query, description = "The merchant wallet, from the payment link.")
    ),
    responses(
        (status = 200, description = "The receipt's status as the page shows it.", body = LiveStatus),
        (status = 404, description = "No such receipt.", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn status(ctx: &Ctx<'_>, id: &str) -> Result<HttpResponse, ApiError> {
    let (receipt, merchant) = link(ctx, id).ok_or_else(not_found)?;
    live(ctx, merchant, receipt).await
}

/// The buyer connected a wallet or pressed Pay: `buyer_logged_in` / `checkout_initialized`.
#[utoipa::path(
    post,
    path = "/portal/{id}/events",
    operation_id = "portalEvent",
    tag = "portal",
    params(
        ("id" = String, Path, description = "The receipt id."),
        ("merchant" = Option<String>, Query, description = "The merchant wallet, from the payment link.")
    ),
    request_body = PageEventRequest,
    responses(
        (status = 200, description = "Recorded, or ignored when the receipt is past it; the status now.", body = LiveStatus),
        (status = 400, description = "Not a buyer's step, or not a wallet.", body = crate::http::error::Envelope<'static>),
        (status = 429, description = "Too many page writes from this client address.", body = crate::http::error::Envelope<'static>),
        (status = 404, description = "No such receipt.", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn event(ctx: &Ctx<'_>, id: &str) -> Result<HttpResponse, ApiError> {
    count_page_write(ctx)?;
    let (receipt, merchant) = link(ctx, id).ok_or_else(not_found)?;
    let request: PageEventRequest = ctx.json().await?;
    let step = match request.status.as_str() {
        "buyer_logged_in" => PageStep::WalletConnected,
        "checkout_initialized" => PageStep::CheckoutStarted,
        _ => {
            return Err(invalid(
                "status",
                "status must be buyer_logged_in or checkout_initialized",
            ));
        }
    };
    let wallet =
        Wallet::parse(&request.wallet).map_err(|_| invalid("wallet", "wallet must be a 0x address"))?;
    let receipts = &ctx.state.services.receipts;
    if !receipts
        .record_page_step(merchant, receipt.clone(), step, wallet)
        .await?
    {
        return Err(not_found());
    }
    live(ctx, merchant, receipt).await
}

/// The hash of the transfer the buyer's wallet sent: verified on chain, then `checkout_success`.
#[utoipa::path(
    post,
    path = "/portal/{id}/payment",
    operation_id = "portalPayment",
    tag = "portal",
    params(
        ("id" = String, Path, description = "The receipt id."),
        ("merchant" = Option<String>, Query, description = "The merchant wallet, from the payment link.")
    ),
    request_body = PagePaymentRequest,
    responses(
        (status = 200, description = "Verified and recorded (or the receipt is already past it); the status now.", body = LiveStatus),
        (status = 400, description = "The transaction does not pay this receipt, or is not on chain (yet).", body = crate::http::error::Envelope<'static>),
        (status = 404, description = "No such receipt.", body = crate::http::error::Envelope<'static>),
        (status = 429, description = "Too many page writes from this client address.", body = crate::http::error::Envelope<'static>),
        (status = 503, description = "The chain node does not answer.", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn payment(ctx: &Ctx<'_>, id: &str) -> Result<HttpResponse, ApiError> {
    count_page_write(ctx)?;
    let (receipt, merchant) = link(ctx, id).ok_or_else(not_found)?;
    let request: PagePaymentRequest = ctx.json().await?;
    let receipts = &ctx.state.services.receipts;
    if !receipts
        .submit_page_payment(merchant, receipt.clone(), &request.transaction_hash)
        .await?
    {
        return Err(not_found());
    }
    live(ctx, merchant, receipt).await
}

/// The page's script.
#[utoipa::path(
    get,
    path = "/portal/assets/checkout.js",
    operation_id = "portalScript",
    tag = "portal",
    responses((status = 200, description = "The payment page's script.", body = String, content_type = "text/javascript; charset=utf-8"))
)]
pub(crate) fn script() -> HttpResponse {
    portal::script()
}

async fn live(ctx: &Ctx<'_>, merchant: Option<Wallet>, receipt: ReceiptId) -> Result<HttpResponse, ApiError> {
    let view = portal::view(ctx.state, merchant, receipt)
        .await?
        .ok_or_else(not_found)?;
    let mut response = response::ok(&portal::live_status(&view));
    response
        .headers_mut()
        .insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// The page's writes need no credentials, so each client address has a quota: without it anyone could make
/// the server ask the chain node about hashes without end. In-process calls (no address) are not counted.
pub(super) fn count_page_write(ctx: &Ctx<'_>) -> Result<(), ApiError> {
    match ctx.peer_ip() {
        Some(ip) => ctx.count_against(&ctx.state.portal_limits, &ip),
        None => Ok(()),
    }
}

fn not_found() -> ApiError {
    ApiError::NotFound {
        message: "no such receipt".to_owned(),
    }
}

fn invalid(field: &str, message: &str) -> ApiError {
    ApiError::invalid_input(Some(field.to_owned()), message.to_owned())
}
