//! GET /api/shop/config (scope shop:read).

use payments_core::{FeePct, Wallet};
use serde::Serialize;

use crate::domain::scope::Scope;
use crate::domain::shop::ShopConfig;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::{self, HttpResponse};
use crate::services::shop;

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ShopConfigResponse<'a> {
    wallet: Wallet,
    brand_name: &'a str,
    /// The merchant add-on, a percentage.
    processing_fee_pct: FeePct,
    /// The platform base fee, a percentage (0.5).
    platform_fee_pct: FeePct,
}

impl<'a> From<&'a ShopConfig> for ShopConfigResponse<'a> {
    fn from(config: &'a ShopConfig) -> Self {
        ShopConfigResponse {
            wallet: config.wallet,
            brand_name: &config.brand_name,
            processing_fee_pct: config.processing_fee_pct,
            platform_fee_pct: FeePct::PLATFORM_BASE,
        }
    }
}

pub(crate) async fn get_config(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let caller = ctx.dev_caller(Scope::ShopRead).await?;
    let config = shop::config(ctx.state, caller.wallet).await?;
    Ok(response::ok(&ShopConfigResponse::from(&config)))
}
