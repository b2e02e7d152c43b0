//! `GET /api/split/transactions` (Dev, split:read): the split's inflows and payouts as the spec's
//! `SplitTransaction` array, newest first; the next page's cursor travels in `X-Next-Cursor`.

use hyper::header::HeaderValue;
use payments_core::utc_iso8601;
use serde::Serialize;

use crate::domain::scope::Scope;
use crate::domain::split_transactions::SplitTransactionsQuery;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::{self, HttpResponse};
use crate::services::split_transactions::SplitTransaction;

/// The response header carrying the next page's cursor (absent on the last page).
pub(crate) const NEXT_CURSOR_HEADER: &str = "x-next-cursor";
/// The payment token's symbol (a 6-decimal USD stablecoin).
const CURRENCY: &str = "USDC";

/// The spec's SplitTransaction: `amount` and `fees` are USD numbers to the token's sixth decimal.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = SplitTransaction)]
struct SplitTransactionView {
    id: String,
    receipt_id: String,
    #[schema(value_type = f64)]
    amount: serde_json::Number,
    currency: &'static str,
    status: &'static str,
    timestamp: String,
    transaction_hash: String,
    #[schema(value_type = f64)]
    fees: serde_json::Number,
}

impl From<&SplitTransaction> for SplitTransactionView {
    fn from(listed: &SplitTransaction) -> Self {
        let record = &listed.record;
        let seconds = i64::try_from(listed.timestamp_secs).unwrap_or(i64::MAX / 1000);
        SplitTransactionView {
            id: format!("{}-{}", record.transaction_hash, record.first_log),
            receipt_id: listed
                .receipt_id
                .as_ref()
                .map_or_else(String::new, |id| id.as_str().to_owned()),
            amount: record.amount.to_usd_json_number(),
            currency: CURRENCY,
            status: record.flow.as_str(),
            timestamp: utc_iso8601(seconds.saturating_mul(1000)),
            transaction_hash: record.transaction_hash.to_string(),
            fees: record.fees.to_usd_json_number(),
        }
    }
}

/// The split's inflows and payouts, newest first; the next page's cursor is in X-Next-Cursor (split:read).
#[utoipa::path(
    get,
    path = "/api/split/transactions",
    operation_id = "listSplitTransactions",
    tag = "split",
    security(("subscription_key" = [])),
    params(
        ("address" = Option<String>, Query, description = "A recipient or split address."),
        ("cursor" = Option<String>, Query, description = "X-Next-Cursor of the previous page."),
        ("limit" = Option<u32>, Query, description = "Page size.")
    ),
    responses(
        (status = 200, description = "One page of transactions.", body = Vec<SplitTransactionView>, headers(("x-next-cursor" = String, description = "Cursor of the next page; absent on the last page."))),
        (status = 400, description = "A query parameter is invalid (invalid_input).", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn list(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let caller = ctx.dev_caller(Scope::SplitRead).await?;
    let query = SplitTransactionsQuery::parse(ctx.query("address"), ctx.query("cursor"), ctx.query("limit"))?;
    let page = ctx
        .state
        .services
        .split_transactions
        .list(caller.wallet, query)
        .await?;
    let views: Vec<SplitTransactionView> = page.transactions.iter().map(Into::into).collect();
    let mut response = response::ok(&views);
    if let Some(next) = page.next
        && let Ok(value) = HeaderValue::from_str(&next.encode())
    {
        response.headers_mut().insert(NEXT_CURSOR_HEADER, value);
    }
    Ok(response)
}
