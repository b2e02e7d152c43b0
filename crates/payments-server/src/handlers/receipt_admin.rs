//! Admin receipt routes (session cookie + CSRF): POST /api/receipts/refund and POST /api/receipts/terminal.

use hyper::StatusCode;
use payments_core::ReceiptStatus;
use serde::Serialize;

use crate::domain::receipt::{AdminRequestError, RefundRequest, TerminalRequest};
use crate::handlers::receipt_view::ReceiptView;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::idempotency::{self, RenderContext};
use crate::http::response::{self, HttpResponse};
use crate::services::receipts::{StatusOutcome, sale_link};
use crate::store::Transitioned;

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct RefundResponse {
    ok: bool,
    status: ReceiptStatus,
    previous_status: Option<ReceiptStatus>,
}

#[derive(Debug, Serialize)]
struct TerminalResponse<'a> {
    ok: bool,
    receipt: ReceiptView<'a>,
}

pub(crate) async fn refund(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let admin = ctx.admin_session(true).await?;
    let refund = ctx.json::<RefundRequest>().await?.parse()?;
    let wallet = admin.acting_for(Some(refund.wallet))?;
    let claim = idempotency::claim(ctx, render_refund)?;
    let committed = ctx
        .state
        .services
        .receipts
        .refund(wallet, refund, admin.wallet, claim)
        .await?;
    Ok(idempotency::answer(ctx, committed, render_refund))
}

/// `{ ok, status, previousStatus }` (`previousStatus` null when the refund changed nothing).
fn render_refund(transitioned: &Transitioned, _: &RenderContext) -> (StatusCode, Vec<u8>) {
    let (status, previous_status) = match StatusOutcome::of(transitioned) {
        StatusOutcome::Moved { from, to } => (to, Some(from)),
        StatusOutcome::Ignored { current } => (current, None),
    };
    idempotency::json_body(
        StatusCode::OK,
        &RefundResponse {
            ok: true,
            status,
            previous_status,
        },
    )
}

pub(crate) async fn terminal(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let admin = ctx.admin_session(true).await?;
    let request: TerminalRequest = ctx.json().await?;
    if request.wallet.is_none() && admin.is_platform_admin() {
        return Err(AdminRequestError::WalletRequired.into());
    }
    let wallet = admin.acting_for(request.wallet)?;
    let sale = ctx
        .state
        .services
        .receipts
        .create_terminal(wallet, request.parse()?)
        .await?;
    let link = sale_link(&ctx.state.config.base_url, &sale);
    Ok(response::ok(&TerminalResponse {
        ok: true,
        receipt: ReceiptView::new(&sale.receipt, &link, ctx.state.config.payment_chain()),
    }))
}
