//! GET /portal/{receiptId}: the hosted payment page (no authentication: the link is the capability).

use hyper::StatusCode;
use payments_core::Wallet;

use crate::domain::receipt::ReceiptId;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::HttpResponse;
use crate::portal;

pub(crate) async fn page(ctx: &Ctx<'_>, id: &str) -> Result<HttpResponse, ApiError> {
    // A malformed id or merchant names no receipt: the same 404 page as an unknown one.
    let merchant = ctx.query("merchant").map(Wallet::parse).transpose();
    let view = match (ReceiptId::parse("receiptId", id), merchant) {
        (Ok(id), Ok(merchant)) => portal::open(ctx.state, merchant, id).await?,
        _ => None,
    };
    Ok(match view {
        Some(view) => portal::html(StatusCode::OK, portal::render_page(&view)),
        None => portal::html(StatusCode::NOT_FOUND, portal::render_not_found()),
    })
}
