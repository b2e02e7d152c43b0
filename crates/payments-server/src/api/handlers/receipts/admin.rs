//! Admin receipt routes (session cookie + CSRF): POST /api/receipts/refund and POST /api/receipts/terminal.

use hyper::StatusCode;
use payments_core::ReceiptStatus;
use serde::Serialize;

use crate::api::handlers::receipts::view::ReceiptView;
use crate::api::wire::receipt_actions::{RefundRequest, TerminalRequest};
use crate::domain::receipt::{self, AdminRequestError};
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::idempotency::{self, RenderContext};
use crate::http::response::{self, HttpResponse};
use crate::services::receipts::{StatusOutcome, sale_link};
use crate::store::Transitioned;

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct RefundResponse {
    ok: bool,
    #[schema(value_type = crate::api::openapi::core_types::ReceiptStatus)]
    status: ReceiptStatus,
    #[schema(value_type = Option<crate::api::openapi::core_types::ReceiptStatus>)]
    previous_status: Option<ReceiptStatus>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct TerminalResponse<'a> {
    ok: bool,
    receipt: ReceiptView<'a>,
}

/// Refunds a paid receipt, in full or in part (admin session + CSRF).
///
/// The refund is proven by its transaction on chain: a transfer of the configured token of at least `usd`
/// to `buyer`, used by no other refund. Confirmed, the receipt is
/// `refund_partial` or `refunded`; mined but short of the server's confirmations, `refund_requested` until
/// they are reached. In test mode `simulate: true` (instead of `txHash`) has the test-mode chain send it.
#[utoipa::path(
    post,
    path = "/api/receipts/refund",
    operation_id = "refundReceipt",
    tag = "receipts",
    security(("session_cookie" = [], "csrf_token" = [])),
    params(
        ("Idempotency-Key" = Option<String>, Header, description = "Makes a retried create safe: the same key and body answer the first answer again; the same key with another body is 409 idempotency_conflict.")
    ),
    request_body = RefundRequest,
    responses(
        (status = 200, description = "The receipt's status after the refund (refund_requested while its transaction waits for confirmations).", body = RefundResponse),
        (status = 400, description = "missing_receipt_id, invalid_wallet, invalid_buyer, invalid_usd or invalid_input; refund_tx_not_found (txHash is no mined transaction) or refund_tx_mismatch (it does not send at least usd of the configured token to buyer).", body = crate::http::error::Envelope<'static>),
        (status = 404, description = "No receipt with this id of this merchant.", body = crate::http::error::Envelope<'static>),
        (status = 409, description = "The receipt cannot be refunded now (invalid_transition), the transaction already proves another refund (refund_tx_reused), or the Idempotency-Key was used with another body.", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn refund(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let admin = ctx.admin_session(true).await?;
    let refund = receipt::RefundRequest::from(ctx.json::<RefundRequest>().await?).parse()?;
    let wallet = admin.acting_for(Some(refund.wallet))?;
    let claim = idempotency::claim(ctx)?;
    let committed = ctx
        .state
        .services
        .receipts
        .refund(wallet, refund, admin.wallet, claim)
        .await?;
    Ok(idempotency::answer(ctx, committed, render_refund).await)
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

/// Creates an in-person sale for an amount (admin session + CSRF).
#[utoipa::path(
    post,
    path = "/api/receipts/terminal",
    operation_id = "terminalSale",
    tag = "receipts",
    security(("session_cookie" = [], "csrf_token" = [])),
    request_body = TerminalRequest,
    responses(
        (status = 200, description = "The sale's receipt.", body = TerminalResponse<'static>),
        (status = 400, description = "wallet_required, invalid_amount or invalid_input.", body = crate::http::error::Envelope<'static>),
        (status = 403, description = "No split is configured (split_required), or the session may not act for this wallet (forbidden).", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn terminal(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let admin = ctx.admin_session(true).await?;
    let request = receipt::TerminalRequest::from(ctx.json::<TerminalRequest>().await?);
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
