//! POST /api/orders (scope orders:create): a receipt priced from the merchant's inventory.

use hyper::StatusCode;
use serde::Serialize;

use crate::api::handlers::receipts::target_policy;
use crate::api::handlers::receipts::view::ReceiptView;
use crate::api::wire::receipts::CreateOrderRequest;
use crate::domain::receipt as domain_receipt;
use crate::domain::scope::Scope;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::idempotency::{self, RenderContext};
use crate::http::response::HttpResponse;
use crate::services::receipts::sale_link;
use crate::store::Sale;

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct OrderResponse<'a> {
    ok: bool,
    receipt: ReceiptView<'a>,
}

/// Creates an order priced from the inventory, with tax and the processing fee (orders:create).
#[utoipa::path(
    post,
    path = "/api/orders",
    operation_id = "createOrder",
    tag = "orders",
    security(("subscription_key" = [])),
    params(
        ("Idempotency-Key" = Option<String>, Header, description = "Makes a retried create safe: the same key and body answer the first answer again; the same key with another body is 409 idempotency_conflict.")
    ),
    request_body = CreateOrderRequest,
    responses(
        (status = 200, description = "The order's receipt.", body = OrderResponse<'static>),
        (status = 403, description = "No split is configured (split_required), or the key lacks the scope (forbidden).", body = crate::http::error::Envelope<'static>),
        (status = 409, description = "The Idempotency-Key was used with another body, or is in progress (idempotency_conflict).", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn create(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let caller = ctx.dev_caller(Scope::OrdersCreate).await?;
    let body = ctx.json::<CreateOrderRequest>().await?;
    let draft = domain_receipt::CreateOrderRequest::from(body).parse(target_policy(ctx))?;
    let claim = idempotency::claim(ctx)?;
    let committed = ctx
        .state
        .services
        .receipts
        .create_order(&caller, ctx.presented_key().as_ref(), draft, claim)
        .await?;
    Ok(idempotency::answer(ctx, committed, render).await)
}

/// `{ ok, receipt }` with the payment link of the split the order was priced with.
pub(crate) fn render(sale: &Sale, context: &RenderContext) -> (StatusCode, Vec<u8>) {
    let link = sale_link(&context.base_url, sale);
    idempotency::json_body(
        StatusCode::OK,
        &OrderResponse {
            ok: true,
            receipt: ReceiptView::new(&sale.receipt, &link, context.chain),
        },
    )
}
