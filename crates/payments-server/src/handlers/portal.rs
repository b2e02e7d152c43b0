//! GET /portal/{receiptId}: the hosted payment page (no authentication: the link is the capability).

use hyper::StatusCode;

use crate::domain::receipt::ReceiptId;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::HttpResponse;
use crate::portal;

pub(crate) async fn page(ctx: &Ctx<'_>, id: &str) -> Result<HttpResponse, ApiError> {
    // A malformed id names no receipt: the same 404 page as an unknown one.
    let view = match ReceiptId::parse("receiptId", id) {
        Ok(id) => portal::open(ctx.state, id).await?,
        Err(_) => None,
    };
    Ok(match view {
        Some(view) => portal::html(StatusCode::OK, portal::render_page(&view)),
        None => portal::html(StatusCode::NOT_FOUND, portal::render_not_found()),
    })
}
