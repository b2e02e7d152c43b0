//! Platform and pricing settings: `/api/site/config` (public), `/api/pricing/config` (read: Dev
//! shop:read; update: Admin + CSRF) and `/api/tax/catalog` (Dev shop:read).

use payments_core::{FeePct, FeeSchedule, Jurisdiction, Wallet};
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::domain::scope::Scope;
use crate::domain::shop_settings::parse_add_on;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::{self, HttpResponse};
use crate::services::shop::{self, JurisdictionSource};

/// The spec's 0.5 % fee on every subscription charge (core `subscription_platform_fee`).
const SUBSCRIPTION_FEE_PCT: FeePct = FeePct::PLATFORM_BASE;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PricingRequest {
    processing_fee_pct: serde_json::Number,
    wallet: Option<Wallet>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct PricingResponse {
    #[serde(skip_serializing_if = "Option::is_none")]
    ok: Option<bool>,
    platform_fee_pct: FeePct,
    merchant_add_on_pct: FeePct,
    effective_fee_pct: FeePct,
    subscription_fee_pct: FeePct,
}

impl PricingResponse {
    fn new(fees: FeeSchedule, ok: Option<bool>) -> Self {
        PricingResponse {
            ok,
            platform_fee_pct: fees.platform_base,
            merchant_add_on_pct: fees.merchant_add_on,
            effective_fee_pct: fees.effective(),
            subscription_fee_pct: SUBSCRIPTION_FEE_PCT,
        }
    }
}

#[derive(Debug, Serialize)]
struct CatalogEntry<'a> {
    #[serde(flatten)]
    jurisdiction: &'a Jurisdiction,
    source: &'static str,
}

pub(crate) fn site_config(ctx: &Ctx<'_>) -> HttpResponse {
    let config = &ctx.state.config;
    response::ok(&json!({
        "platformFeePct": FeePct::PLATFORM_BASE,
        "subscriptionFeePct": SUBSCRIPTION_FEE_PCT,
        "token": {"symbol": "USDC", "decimals": 6, "address": config.token_address},
        "chainId": config.chain_id,
        "splitPlatformShareBps": config.platform_share_bps,
        "platformRecipient": config.platform_recipient,
    }))
}

pub(crate) async fn get_pricing(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let caller = ctx.dev_caller(Scope::ShopRead).await?;
    let config = ctx.state.services.shop.config(caller.wallet).await?;
    Ok(response::ok(&PricingResponse::new(
        shop::fee_schedule(&config),
        None,
    )))
}

pub(crate) async fn post_pricing(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let admin = ctx.admin_session(true).await?;
    let request: PricingRequest = ctx.json().await?;
    let wallet = admin.acting_for(request.wallet)?;
    let fee = parse_add_on("processingFeePct", &request.processing_fee_pct)?;
    let fees = ctx.state.services.shop.set_processing_fee(wallet, fee).await?;
    Ok(response::ok(&PricingResponse::new(fees, Some(true))))
}

pub(crate) async fn tax_catalog(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let caller = ctx.dev_caller(Scope::ShopRead).await?;
    let config = ctx.state.services.shop.config(caller.wallet).await?;
    let merged = shop::merged_catalog(&config);
    let entries: Vec<CatalogEntry<'_>> = merged
        .iter()
        .map(|(jurisdiction, source)| CatalogEntry {
            jurisdiction,
            source: match source {
                JurisdictionSource::Merchant => "merchant",
                JurisdictionSource::Catalog => "catalog",
            },
        })
        .collect();
    Ok(response::ok(&json!({
        "jurisdictions": entries,
        "defaultJurisdiction": config.default_jurisdiction,
    })))
}
