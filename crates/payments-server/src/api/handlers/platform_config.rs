//! Platform and pricing settings: `/api/site/config` (public), `/api/pricing/config` (read: Dev
//! shop:read; update: Admin + CSRF) and `/api/tax/catalog` (Dev shop:read).

use payments_core::{FeePct, FeeSchedule, Jurisdiction, Wallet};
use serde::{Deserialize, Serialize};

use crate::domain::scope::Scope;
use crate::domain::shop_settings::parse_add_on;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::{self, HttpResponse};
use crate::services::shop::{self, JurisdictionSource};

/// The spec's 0.5 % fee on every subscription charge (core `subscription_platform_fee`).
const SUBSCRIPTION_FEE_PCT: FeePct = FeePct::PLATFORM_BASE;

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PricingRequest {
    #[schema(value_type = f64)]
    processing_fee_pct: serde_json::Number,
    #[schema(value_type = Option<crate::api::openapi::core_types::Wallet>)]
    wallet: Option<Wallet>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct PricingResponse {
    #[serde(skip_serializing_if = "Option::is_none")]
    ok: Option<bool>,
    #[schema(value_type = crate::api::openapi::core_types::FeePct)]
    platform_fee_pct: FeePct,
    #[schema(value_type = crate::api::openapi::core_types::FeePct)]
    merchant_add_on_pct: FeePct,
    #[schema(value_type = crate::api::openapi::core_types::FeePct)]
    effective_fee_pct: FeePct,
    #[schema(value_type = crate::api::openapi::core_types::FeePct)]
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

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct CatalogEntry<'a> {
    #[serde(flatten)]
    #[schema(value_type = crate::api::openapi::core_types::Jurisdiction)]
    jurisdiction: &'a Jurisdiction,
    source: &'static str,
}

/// The payment token as `/api/site/config` names it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
struct TokenView {
    symbol: &'static str,
    decimals: u8,
    #[schema(value_type = crate::api::openapi::core_types::Wallet)]
    address: Wallet,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct SiteConfigResponse {
    #[schema(value_type = crate::api::openapi::core_types::FeePct)]
    platform_fee_pct: FeePct,
    #[schema(value_type = crate::api::openapi::core_types::FeePct)]
    subscription_fee_pct: FeePct,
    token: TokenView,
    chain_id: u64,
    split_platform_share_bps: u32,
    /// Null when the server has no platform recipient (splits cannot be configured).
    #[schema(value_type = Option<crate::api::openapi::core_types::Wallet>)]
    platform_recipient: Option<Wallet>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct TaxCatalogResponse<'a> {
    jurisdictions: Vec<CatalogEntry<'a>>,
    default_jurisdiction: Option<&'a str>,
}

/// Platform defaults: fees, token and chain (public).
#[utoipa::path(
    get,
    path = "/api/site/config",
    operation_id = "getSiteConfig",
    tag = "shop",
    responses(
        (status = 200, description = "The platform settings.", body = SiteConfigResponse)
    )
)]
pub(crate) fn site_config(ctx: &Ctx<'_>) -> HttpResponse {
    let config = &ctx.state.config;
    response::ok(&SiteConfigResponse {
        platform_fee_pct: FeePct::PLATFORM_BASE,
        subscription_fee_pct: SUBSCRIPTION_FEE_PCT,
        token: TokenView {
            symbol: "USDC",
            decimals: 6,
            address: config.token_address,
        },
        chain_id: config.chain_id,
        split_platform_share_bps: config.platform_share_bps,
        platform_recipient: config.platform_recipient,
    })
}

/// The merchant's fee schedule (shop:read).
#[utoipa::path(
    get,
    path = "/api/pricing/config",
    operation_id = "getPricingConfig",
    tag = "shop",
    security(("subscription_key" = [])),
    responses(
        (status = 200, description = "The fees.", body = PricingResponse)
    )
)]
pub(crate) async fn get_pricing(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let caller = ctx.dev_caller(Scope::ShopRead).await?;
    let config = ctx.state.services.shop.config(caller.wallet).await?;
    Ok(response::ok(&PricingResponse::new(
        shop::fee_schedule(&config),
        None,
    )))
}

/// Sets the merchant's processing-fee add-on (admin session + CSRF).
#[utoipa::path(
    post,
    path = "/api/pricing/config",
    operation_id = "updatePricingConfig",
    tag = "shop",
    security(("session_cookie" = [], "csrf_token" = [])),
    request_body = PricingRequest,
    responses(
        (status = 200, description = "The new fees.", body = PricingResponse)
    )
)]
pub(crate) async fn post_pricing(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let admin = ctx.admin_session(true).await?;
    let request: PricingRequest = ctx.json().await?;
    let wallet = admin.acting_for(request.wallet)?;
    let fee = parse_add_on("processingFeePct", &request.processing_fee_pct)?;
    let fees = ctx.state.services.shop.set_processing_fee(wallet, fee).await?;
    Ok(response::ok(&PricingResponse::new(fees, Some(true))))
}

/// The tax jurisdictions that apply to the merchant: its own and the built-in catalog (shop:read).
#[utoipa::path(
    get,
    path = "/api/tax/catalog",
    operation_id = "getTaxCatalog",
    tag = "shop",
    security(("subscription_key" = [])),
    responses(
        (status = 200, description = "The jurisdictions.", body = TaxCatalogResponse<'static>)
    )
)]
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
    Ok(response::ok(&TaxCatalogResponse {
        jurisdictions: entries,
        default_jurisdiction: config.default_jurisdiction.as_deref(),
    }))
}
