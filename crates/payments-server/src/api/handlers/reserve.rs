//! `/api/reserve/balances` and `/api/reserve/recommend` (Dev, split:read; shapes in docs/reserve.md).
//! Amounts are given twice: exact integer base units as strings, and USD numbers.

use payments_core::{Cents, TokenAmount, Wallet};
use serde::Serialize;

use crate::domain::scope::Scope;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::{self, HttpResponse};
use crate::services::reserve::{Holding, ReserveAdvice, ReserveBalances};

const CURRENCY: &str = "USDC";

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct HoldingView {
    #[schema(value_type = crate::api::openapi::core_types::Wallet)]
    address: Wallet,
    balance: String,
    #[schema(value_type = f64)]
    balance_usd: serde_json::Number,
}

impl From<Holding> for HoldingView {
    fn from(holding: Holding) -> Self {
        HoldingView {
            address: holding.address,
            balance: holding.balance.to_string(),
            balance_usd: holding.balance.to_usd_json_number(),
        }
    }
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct BalancesView {
    chain_id: u64,
    #[schema(value_type = crate::api::openapi::core_types::Wallet)]
    token: Wallet,
    currency: &'static str,
    split: Option<HoldingView>,
    wallet: HoldingView,
}

impl From<ReserveBalances> for BalancesView {
    fn from(balances: ReserveBalances) -> Self {
        BalancesView {
            chain_id: balances.chain_id,
            token: balances.token,
            currency: CURRENCY,
            split: balances.split.map(Into::into),
            wallet: balances.wallet.into(),
        }
    }
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct RecommendView {
    window_days: u32,
    since: i64,
    until: i64,
    #[schema(value_type = crate::api::openapi::core_types::Usd)]
    paid_usd: Cents,
    #[schema(value_type = crate::api::openapi::core_types::Usd)]
    refunded_usd: Cents,
    refund_cover_bps: u32,
    paid_floor_bps: u32,
    #[schema(value_type = crate::api::openapi::core_types::Usd)]
    refund_cover_usd: Cents,
    #[schema(value_type = crate::api::openapi::core_types::Usd)]
    paid_floor_usd: Cents,
    #[schema(value_type = crate::api::openapi::core_types::Usd)]
    recommended_usd: Cents,
    recommended_amount: String,
    basis: &'static str,
    currency: &'static str,
}

impl From<ReserveAdvice> for RecommendView {
    fn from(advice: ReserveAdvice) -> Self {
        let recommended = advice.recommendation.amount;
        RecommendView {
            window_days: advice.rule.window_days,
            since: advice.since_ms,
            until: advice.until_ms,
            paid_usd: advice.volume.paid,
            refunded_usd: advice.volume.refunded,
            refund_cover_bps: advice.rule.refund_cover_bps,
            paid_floor_bps: advice.rule.paid_floor_bps,
            refund_cover_usd: advice.recommendation.refund_cover,
            paid_floor_usd: advice.recommendation.paid_floor,
            recommended_usd: recommended,
            // A recommendation is never negative, so the conversion cannot fail; 0 keeps the function total.
            recommended_amount: recommended
                .to_token_amount()
                .unwrap_or(TokenAmount::from_base_units(0))
                .to_string(),
            basis: advice.recommendation.basis.as_str(),
            currency: CURRENCY,
        }
    }
}

/// Token balances of the split contract and the merchant wallet (split:read).
#[utoipa::path(
    get,
    path = "/api/reserve/balances",
    operation_id = "reserveBalances",
    tag = "reserve",
    security(("subscription_key" = [])),
    responses(
        (status = 200, description = "The balances.", body = BalancesView)
    )
)]
pub(crate) async fn balances(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let caller = ctx.dev_caller(Scope::SplitRead).await?;
    let balances = ctx.state.services.reserve.balances(caller.wallet).await?;
    Ok(response::ok(&BalancesView::from(balances)))
}

/// The recommended refund reserve from recent sales and refunds (split:read).
#[utoipa::path(
    get,
    path = "/api/reserve/recommend",
    operation_id = "reserveRecommend",
    tag = "reserve",
    security(("subscription_key" = [])),
    responses(
        (status = 200, description = "The recommendation.", body = RecommendView)
    )
)]
pub(crate) async fn recommend(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let caller = ctx.dev_caller(Scope::SplitRead).await?;
    let advice = ctx.state.services.reserve.recommend(caller.wallet).await?;
    Ok(response::ok(&RecommendView::from(advice)))
}
