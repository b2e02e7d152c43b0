//! /api/receipts: create (POST), list (GET ?limit=), one (GET /{id}), status (GET /status?receiptId=).

pub(crate) mod admin;
pub(crate) mod status;
pub(crate) mod transfers;
pub(crate) mod view;
pub(crate) mod webhooks;

use bytes::Bytes;
use hyper::StatusCode;
use payments_core::{Cents, ErrorCode, Failure, ReceiptBalance, ReceiptStatus};
use serde::Serialize;

use crate::api::handlers::receipts::view::ReceiptView;
use crate::api::wire::receipts::CreateReceiptRequest;
use crate::domain::field_error::parse_flag;
use crate::domain::page_cursor::ReceiptKey;
use crate::domain::page_limit::parse_limit;
use crate::domain::receipt::{self as domain_receipt, ReceiptId, TargetPolicy};
use crate::domain::scope::Scope;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::idempotency::{self, RenderContext};
use crate::http::response::{self, Degraded, HttpResponse};
use crate::services::receipts::sale_link;
use crate::store::{ReceiptFilter, Sale};

const DEFAULT_LIMIT: u32 = 100;
const MAX_LIMIT: u32 = 200;

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ReceiptCreatedResponse)]
struct CreatedResponse<'a> {
    id: &'a str,
    payment_url: &'a str,
    #[schema(value_type = crate::api::openapi::core_types::ReceiptStatus)]
    status: ReceiptStatus,
    redirect_url: Option<&'a str>,
    webhook_url: Option<&'a str>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ReceiptListResponse)]
struct ListResponse<'a> {
    receipts: Vec<ReceiptView<'a>>,
    /// Where the next page starts (`cursor=`); null on the last page.
    next_cursor: Option<String>,
    #[serde(flatten)]
    degraded: Option<Degraded>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ReceiptStatusResponse)]
struct StatusResponse<'a> {
    id: &'a str,
    #[schema(value_type = crate::api::openapi::core_types::ReceiptStatus)]
    status: ReceiptStatus,
    transaction_hash: Option<&'a str>,
    currency: &'a str,
    #[schema(value_type = crate::api::openapi::core_types::Usd)]
    amount: Cents,
    #[schema(value_type = crate::api::openapi::FailureFields)]
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    failure: Option<&'a Failure>,
    #[schema(value_type = crate::api::openapi::BalanceFields)]
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    balance: Option<ReceiptBalance>,
}

pub(crate) fn target_policy(ctx: &Ctx<'_>) -> TargetPolicy {
    TargetPolicy {
        dev_mode: ctx.state.config.dev_mode,
    }
}

/// Creates a receipt with caller-given lines (receipts:write).
#[utoipa::path(
    post,
    path = "/api/receipts",
    operation_id = "createReceipt",
    tag = "receipts",
    security(("subscription_key" = [])),
    params(
        ("Idempotency-Key" = Option<String>, Header, description = "Makes a retried create safe: the same key and body answer the first answer again; the same key with another body is 409 idempotency_conflict.")
    ),
    request_body = CreateReceiptRequest,
    responses(
        (status = 201, description = "Created.", body = CreatedResponse<'static>),
        (status = 409, description = "The id is taken (conflict), or the Idempotency-Key was used with another body (idempotency_conflict).", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn create(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let caller = ctx.dev_caller(Scope::ReceiptsWrite).await?;
    let body = ctx.json::<CreateReceiptRequest>().await?;
    let draft = domain_receipt::CreateReceiptRequest::from(body).parse(target_policy(ctx))?;
    let claim = idempotency::claim(ctx)?;
    let committed = ctx
        .state
        .services
        .receipts
        .create(&caller, ctx.presented_key().as_ref(), draft, claim)
        .await?;
    Ok(idempotency::answer(ctx, committed, render_created).await)
}

/// 201 `{ id, paymentUrl, status, redirectUrl, webhookUrl }`.
fn render_created(sale: &Sale, context: &RenderContext) -> (StatusCode, Vec<u8>) {
    let receipt = &sale.receipt;
    let link = sale_link(&context.base_url, sale);
    idempotency::json_body(
        StatusCode::CREATED,
        &CreatedResponse {
            id: receipt.id.as_str(),
            payment_url: &link,
            status: receipt.status,
            redirect_url: receipt.options.redirect_url.as_deref(),
            webhook_url: receipt.webhook_url.as_deref(),
        },
    )
}

/// The merchant's receipts, newest first (receipts:read).
#[utoipa::path(
    get,
    path = "/api/receipts",
    operation_id = "listReceipts",
    tag = "receipts",
    security(("subscription_key" = [])),
    params(
        ("limit" = Option<u32>, Query, description = "Page size, 1 to 200 (default 100)."),
        ("cursor" = Option<String>, Query, description = "nextCursor of the previous page."),
        ("paidLate" = Option<bool>, Query, description = "true: only receipts paid after their payment window ended; false: only the others.")
    ),
    responses(
        (status = 200, description = "One page of receipts; degraded adds degraded and reason.", body = ListResponse<'static>),
        (status = 400, description = "limit, cursor or paidLate is invalid (invalid_input).", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn list(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let caller = ctx.dev_caller(Scope::ReceiptsRead).await?;
    let limit = parse_limit(ctx.query("limit"), DEFAULT_LIMIT, MAX_LIMIT)?;
    let after = ctx
        .query("cursor")
        .filter(|cursor| !cursor.is_empty())
        .map(ReceiptKey::decode)
        .transpose()?;
    let filter = ReceiptFilter {
        paid_late: parse_flag("paidLate", ctx.query("paidLate"))?,
    };
    let listing = ctx
        .state
        .services
        .receipts
        .list(caller.wallet, limit, after, filter)
        .await?;
    if listing.degraded {
        return Ok(response::ok(&ListResponse {
            receipts: Vec::new(),
            next_cursor: None,
            degraded: Some(Degraded::datastore_unavailable()),
        }));
    }
    let found = listing.receipts;
    let recipient = ctx.state.services.receipts.recipient(caller.wallet).await?;
    let links: Vec<String> = found
        .iter()
        .map(|receipt| ctx.state.services.receipts.link_for(receipt, recipient))
        .collect();
    let views = found
        .iter()
        .zip(&links)
        .map(|(receipt, link)| ReceiptView::new(receipt, link, ctx.state.config.payment_chain()));
    Ok(response::ok(&ListResponse {
        receipts: views.collect(),
        next_cursor: listing.next.map(|key| key.encode()),
        degraded: None,
    }))
}

/// One receipt (receipts:read).
#[utoipa::path(
    get,
    path = "/api/receipts/{id}",
    operation_id = "getReceipt",
    tag = "receipts",
    security(("subscription_key" = [])),
    params(
        ("id" = String, Path, description = "The receipt id.")
    ),
    responses(
        (status = 200, description = "The receipt.", body = crate::api::handlers::receipts::view::ReceiptView<'static>),
        (status = 404, description = "No receipt with this id of this merchant.", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn get(ctx: &Ctx<'_>, id: &str) -> Result<HttpResponse, ApiError> {
    let caller = ctx.dev_caller(Scope::ReceiptsRead).await?;
    let id = ReceiptId::parse("id", id).map_err(|_| not_found(id))?;
    let receipts = &ctx.state.services.receipts;
    let bodies = &ctx.state.receipt_bodies;
    // Rendered before: the receipt's stamp, a narrow read, tells whether that body still shows it.
    if bodies.holds(caller.wallet, &id)
        && let Some(stamp) = receipts.view_stamp(caller.wallet, &id).await?
        && let Some(body) = bodies.get(caller.wallet, &id, &stamp)
    {
        return Ok(response::json_bytes(StatusCode::OK, body));
    }
    let payable = receipts.fetch_payable(caller.wallet, id.clone()).await?;
    let link = receipts.link_for(&payable.receipt, payable.recipient);
    let view = ReceiptView::new(&payable.receipt, &link, ctx.state.config.payment_chain())
        .with_settlement(payable.settlement.as_ref())
        .with_payment_block(payable.payment_block.as_ref());
    match serde_json::to_vec(&view) {
        Ok(body) => {
            let body = Bytes::from(body);
            if let Some(stamp) = payable.view_stamp() {
                bodies.keep(caller.wallet, &id, stamp, &body);
            }
            Ok(response::json_bytes(StatusCode::OK, body))
        }
        // Never expected; `ok` reports it the way every other response does.
        Err(_) => Ok(response::ok(&view)),
    }
}

/// A receipt's payment status (receipts:read).
#[utoipa::path(
    get,
    path = "/api/receipts/status",
    operation_id = "getReceiptStatus",
    tag = "receipts",
    security(("subscription_key" = [])),
    params(
        ("receiptId" = String, Query, description = "The receipt id.")
    ),
    responses(
        (status = 200, description = "The status; failure fields on a failed payment.", body = StatusResponse<'static>),
        (status = 400, description = "receiptId is missing (missing_receipt_id).", body = crate::http::error::Envelope<'static>),
        (status = 404, description = "No receipt with this id of this merchant.", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn status(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let caller = ctx.dev_caller(Scope::ReceiptsRead).await?;
    let id = ctx
        .query("receiptId")
        .filter(|id| !id.trim().is_empty())
        .ok_or_else(|| ApiError::refused(ErrorCode::MissingReceiptId, "receiptId is required"))?;
    let id = ReceiptId::parse("receiptId", id).map_err(|_| not_found(id))?;
    let receipt = ctx.state.services.receipts.fetch(caller.wallet, id).await?;
    Ok(response::ok(&StatusResponse {
        id: receipt.id.as_str(),
        status: receipt.status,
        transaction_hash: receipt.transaction_hash.as_deref(),
        currency: &receipt.currency,
        amount: receipt.amounts.total,
        failure: receipt.failure.as_ref(),
        balance: receipt.balance(),
    }))
}

/// A malformed id names no receipt.
pub(crate) fn not_found(id: &str) -> ApiError {
    ApiError::NotFound {
        message: format!("no receipt with id {}", id.chars().take(64).collect::<String>()),
    }
}
