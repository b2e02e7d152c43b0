//! POST /api/test/fund (test mode only, a merchant key with `subscriptions:write`): the test-mode chain gives a
//! customer wallet tokens and approves the spend permission manager for them, so the customer's subscriptions
//! can be charged. A server on a real chain answers 404, as if the route did not exist.

use payments_core::{Cents, Wallet};
use serde::{Deserialize, Serialize};

use crate::domain::scope::Scope;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::{self, HttpResponse};

#[derive(Debug, Deserialize, utoipa::ToSchema)]
struct FundRequest {
    /// The customer wallet to fund.
    #[schema(value_type = Option<crate::api::openapi::core_types::Wallet>)]
    wallet: Option<Wallet>,
    /// USD to mint (0.01 to 1,000,000; at most 2 decimals).
    #[schema(value_type = Option<crate::api::openapi::core_types::Usd>)]
    usd: Option<Cents>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct FundResponse {
    success: bool,
    #[schema(value_type = crate::api::openapi::core_types::Wallet)]
    wallet: Wallet,
    /// The amount minted, in token base units (6 decimals), as decimal text.
    funded_base_units: String,
    /// The wallet's token balance after the funding, in base units, as decimal text.
    balance_base_units: String,
    /// The test-mode chain's transaction.
    transaction_hash: String,
}

/// Funds a customer wallet on the test-mode chain (test mode only; merchant key).
#[utoipa::path(
    post,
    path = "/api/test/fund",
    operation_id = "fundTestWallet",
    tag = "subscriptions",
    security(("subscription_key" = [])),
    request_body = FundRequest,
    responses(
        (status = 200, description = "The wallet has the tokens and has approved the spend permission manager.", body = FundResponse),
        (status = 400, description = "wallet or usd missing or invalid (invalid_input).", body = crate::http::error::Envelope<'static>),
        (status = 404, description = "The server runs on a real chain.", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn fund(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let recurring = &ctx.state.services.recurring;
    if !recurring.is_test_mode() {
        return Err(ApiError::NotFound {
            message: "no such route".to_owned(),
        });
    }
    ctx.dev_caller(Scope::SubscriptionsWrite).await?;
    let request: FundRequest = ctx.json().await?;
    let wallet = request.wallet.ok_or_else(|| {
        ApiError::invalid_input(Some("wallet".to_owned()), "wallet: is required".to_owned())
    })?;
    let usd = request
        .usd
        .ok_or_else(|| ApiError::invalid_input(Some("usd".to_owned()), "usd: is required".to_owned()))?;
    let funding = recurring.fund_test_wallet(wallet, usd).await?;
    Ok(response::ok(&FundResponse {
        success: true,
        wallet: funding.wallet,
        funded_base_units: funding.funded.base_units().to_string(),
        balance_base_units: funding.balance.base_units().to_string(),
        transaction_hash: funding.transaction_hash.to_string(),
    }))
}
