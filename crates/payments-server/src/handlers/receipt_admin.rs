//! Admin receipt routes (session cookie + CSRF): POST /api/receipts/refund and POST /api/receipts/terminal.

use payments_core::ReceiptStatus;
use serde::Serialize;

use crate::domain::receipt::{AdminRequestError, RefundRequest, TerminalRequest};
use crate::handlers::receipt_view::ReceiptView;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::idempotency;
use crate::http::response::{self, HttpResponse};
use crate::services::receipts::{self, StatusOutcome};

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
    idempotency::once(ctx, admin.wallet, "receipts.refund", || async {
        let refund = ctx.json::<RefundRequest>()?.parse()?;
        let wallet = admin.acting_for(Some(refund.wallet))?;
        let outcome = receipts::refund(ctx.state, wallet, refund, admin.wallet).await?;
        let (status, previous_status) = match outcome {
            StatusOutcome::Moved { from, to } => (to, Some(from)),
            StatusOutcome::Ignored { current } => (current, None),
        };
        Ok(response::ok(&RefundResponse {
            ok: true,
            status,
            previous_status,
        }))
    })
    .await
}

pub(crate) async fn terminal(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let admin = ctx.admin_session(true).await?;
    let request: TerminalRequest = ctx.json()?;
    if request.wallet.is_none() && admin.is_platform_admin() {
        return Err(AdminRequestError::WalletRequired.into());
    }
    let wallet = admin.acting_for(request.wallet)?;
    let receipt = receipts::create_terminal(ctx.state, wallet, request.parse()?).await?;
    let recipient = receipts::recipient(ctx.state, wallet).await?;
    let link = receipts::link_for(ctx.state, &receipt, recipient);
    Ok(response::ok(&TerminalResponse {
        ok: true,
        receipt: ReceiptView::new(&receipt, &link),
    }))
}
