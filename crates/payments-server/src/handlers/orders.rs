//! POST /api/orders (scope orders:create): a receipt priced from the merchant's inventory.

use serde::Serialize;

use crate::domain::receipt::CreateOrderRequest;
use crate::domain::scope::Scope;
use crate::handlers::receipt_view::ReceiptView;
use crate::handlers::receipts::target_policy;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::idempotency;
use crate::http::response::{self, HttpResponse};
use crate::services::receipts;

#[derive(Debug, Serialize)]
struct OrderResponse<'a> {
    ok: bool,
    receipt: ReceiptView<'a>,
}

pub(crate) async fn create(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let caller = ctx.dev_caller(Scope::OrdersCreate).await?;
    idempotency::once(ctx, caller.wallet, "orders.create", || async {
        let draft = ctx.json::<CreateOrderRequest>()?.parse(target_policy(ctx))?;
        let receipt = receipts::create_order(ctx.state, &caller, ctx.presented_key().as_ref(), draft).await?;
        let recipient = receipts::recipient(ctx.state, receipt.wallet).await?;
        let link = receipts::link_for(ctx.state, &receipt, recipient);
        Ok(response::ok(&OrderResponse {
            ok: true,
            receipt: ReceiptView::new(&receipt, &link),
        }))
    })
    .await
}
