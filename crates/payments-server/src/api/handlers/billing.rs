//! GET /api/billing/balance (Dev, receipts:read): the platform's fees on the merchant's sales.

use payments_core::{Cents, FeeBalance, Wallet};
use serde::Serialize;

use crate::domain::scope::Scope;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::{self, HttpResponse};
use crate::services::billing::BillingBalance;

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct Fees {
    #[schema(value_type = crate::api::openapi::core_types::Usd)]
    accrued_usd: Cents,
    #[schema(value_type = crate::api::openapi::core_types::Usd)]
    settled_usd: Cents,
    #[schema(value_type = crate::api::openapi::core_types::Usd)]
    remaining_usd: Cents,
}

impl From<FeeBalance> for Fees {
    fn from(balance: FeeBalance) -> Self {
        Fees {
            accrued_usd: balance.accrued,
            settled_usd: balance.settled,
            remaining_usd: balance.remaining,
        }
    }
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct ReceiptPart {
    paid_count: u64,
    #[schema(value_type = crate::api::openapi::core_types::Usd)]
    paid_usd: Cents,
    settled_count: u64,
    #[schema(value_type = crate::api::openapi::core_types::Usd)]
    settled_paid_usd: Cents,
    #[serde(flatten)]
    fees: Fees,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct SubscriptionPart {
    charge_count: u64,
    #[schema(value_type = crate::api::openapi::core_types::Usd)]
    charged_usd: Cents,
    #[serde(flatten)]
    fees: Fees,
    /// The exact subscription fees in token base units (6 decimals), as decimal text; the `*Usd` fees are
    /// rounded to the cent.
    fee_base_units: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct BalanceResponse {
    #[schema(value_type = crate::api::openapi::core_types::Wallet)]
    wallet: Wallet,
    currency: &'static str,
    platform_share_bps: u32,
    #[serde(flatten)]
    total: Fees,
    receipts: ReceiptPart,
    subscriptions: SubscriptionPart,
    as_of: i64,
}

impl From<BillingBalance> for BalanceResponse {
    fn from(balance: BillingBalance) -> Self {
        BalanceResponse {
            wallet: balance.wallet,
            currency: "USD",
            platform_share_bps: balance.platform_share_bps,
            total: balance.total.into(),
            receipts: ReceiptPart {
                paid_count: balance.receipts.paid_receipts,
                paid_usd: balance.receipts.paid,
                settled_count: balance.receipts.settled_receipts,
                settled_paid_usd: balance.receipts.settled_paid,
                fees: balance.receipt_fees.into(),
            },
            subscriptions: SubscriptionPart {
                charge_count: balance.subscriptions.charges,
                charged_usd: balance.subscriptions.charged,
                fees: balance.subscriptions.fees.into(),
                fee_base_units: balance.subscriptions.fee_units.to_string(),
            },
            as_of: balance.as_of_ms,
        }
    }
}

/// The platform fees on the merchant's sales and subscription charges (receipts:read).
#[utoipa::path(
    get,
    path = "/api/billing/balance",
    operation_id = "billingBalance",
    tag = "billing",
    security(("subscription_key" = [])),
    responses(
        (status = 200, description = "The balance.", body = BalanceResponse)
    )
)]
pub(crate) async fn balance(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let caller = ctx.dev_caller(Scope::ReceiptsRead).await?;
    let balance = ctx.state.services.billing.balance(caller.wallet).await?;
    Ok(response::ok(&BalanceResponse::from(balance)))
}
