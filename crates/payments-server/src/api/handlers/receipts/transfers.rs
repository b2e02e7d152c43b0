//! GET /api/receipts/{id}/transfers: the confirmed transfers the receipt's deposit address received, of any
//! token, each marked counted or not, with what was received and what is still missing (docs/chain.md).

use payments_core::Wallet;
use serde::Serialize;

use crate::api::handlers::receipts::not_found;
use crate::api::handlers::receipts::view::PaymentView;
use crate::domain::receipt::ReceiptId;
use crate::domain::scope::Scope;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::{self, HttpResponse};
use crate::store::RecordedTransfer;

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct TransfersResponse<'a> {
    success: bool,
    receipt_id: &'a str,
    /// The instruction the transfers are measured against; `null` for a receipt without a deposit address.
    payment: Option<PaymentView>,
    /// Base units of the payment token received (counted transfers only), decimal string.
    received: String,
    /// Base units still missing before the receipt is paid; `"0"` once covered.
    missing: String,
    /// Base units received beyond the total (a payment after paid, or too much at once), `"0"` otherwise:
    /// what the merchant may refund.
    overpaid: String,
    transfers: Vec<TransferView<'a>>,
}

/// One confirmed `Transfer` log to the deposit address.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct TransferView<'a> {
    transaction_hash: &'a str,
    log_index: u64,
    block_number: u64,
    /// The token contract.
    #[schema(value_type = crate::api::openapi::core_types::Wallet)]
    token: Wallet,
    /// The sender.
    #[schema(value_type = crate::api::openapi::core_types::Wallet)]
    from: Wallet,
    /// Base units as a decimal string; `null` when the value did not fit in 128 bits (a fake token).
    amount: Option<String>,
    /// Whether it counts towards the payment: only the configured token does.
    counted: bool,
}

impl<'a> TransferView<'a> {
    fn of(transfer: &'a RecordedTransfer, counted: bool) -> Self {
        TransferView {
            transaction_hash: &transfer.transaction_hash,
            log_index: transfer.log_index,
            block_number: transfer.block_number,
            token: transfer.token,
            from: transfer.from,
            amount: transfer.amount.map(|amount| amount.to_string()),
            counted,
        }
    }
}

#[utoipa::path(
    get,
    path = "/api/receipts/{id}/transfers",
    operation_id = "listReceiptTransfers",
    tag = "receipts",
    security(("subscription_key" = [])),
    params(
        ("id" = String, Path, description = "The receipt id.")
    ),
    responses(
        (status = 200, description = "The confirmed transfers to the receipt's deposit address.", body = TransfersResponse<'static>),
        (status = 404, description = "No receipt with this id of this merchant.", body = crate::http::error::Envelope<'static>)
    )
)]
/// A receipt's confirmed deposit transfers.
///
/// Every confirmed `Transfer` to the receipt's deposit address, of any token, in chain order; only the payment
/// token counts towards `received` and `missing`.
pub(crate) async fn list(ctx: &Ctx<'_>, id: &str) -> Result<HttpResponse, ApiError> {
    let caller = ctx.dev_caller(Scope::ReceiptsRead).await?;
    let id = ReceiptId::parse("id", id).map_err(|_| not_found(id))?;
    let chain = ctx.state.config.payment_chain();
    let deposit = ctx
        .state
        .services
        .receipts
        .deposit_transfers(caller.wallet, id, chain)
        .await?;
    let (received, missing) = deposit.received_and_missing();
    Ok(response::ok(&TransfersResponse {
        success: true,
        receipt_id: deposit.receipt.id.as_str(),
        payment: PaymentView::of(&deposit.receipt, chain),
        received: received.to_string(),
        missing: missing.to_string(),
        overpaid: deposit.overpaid().to_string(),
        transfers: deposit
            .transfers
            .iter()
            .map(|transfer| TransferView::of(transfer, deposit.counts(transfer)))
            .collect(),
    }))
}
