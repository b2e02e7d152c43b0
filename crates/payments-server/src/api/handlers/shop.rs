//! /api/shop/config: read (Dev, shop:read) and update (Admin + CSRF).

use payments_core::{FeePct, Jurisdiction, Wallet};
use serde::Serialize;

use crate::api::wire::shop::ShopConfigRequest;
use crate::domain::scope::Scope;
use crate::domain::shop::ShopConfig;
use crate::domain::shop_settings::{self, ShopConfigUpdate};
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::{self, HttpResponse};

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct ShopConfigResponse<'a> {
    #[schema(value_type = crate::api::openapi::core_types::Wallet)]
    wallet: Wallet,
    brand_name: &'a str,
    /// The merchant add-on, a percentage.
    #[schema(value_type = crate::api::openapi::core_types::FeePct)]
    processing_fee_pct: FeePct,
    /// The platform base fee, a percentage (0.5).
    #[schema(value_type = crate::api::openapi::core_types::FeePct)]
    platform_fee_pct: FeePct,
    brand_key: Option<&'a str>,
    support_email: Option<&'a str>,
    logo_url: Option<&'a str>,
    redirect_url: Option<&'a str>,
    #[schema(value_type = Vec<crate::api::openapi::core_types::Jurisdiction>)]
    jurisdictions: &'a [Jurisdiction],
    default_jurisdiction: Option<&'a str>,
}

impl<'a> From<&'a ShopConfig> for ShopConfigResponse<'a> {
    fn from(config: &'a ShopConfig) -> Self {
        ShopConfigResponse {
            wallet: config.wallet,
            brand_name: &config.brand_name,
            processing_fee_pct: config.processing_fee_pct,
            platform_fee_pct: FeePct::PLATFORM_BASE,
            brand_key: config.brand_key.as_deref(),
            support_email: config.support_email.as_deref(),
            logo_url: config.logo_url.as_deref(),
            redirect_url: config.redirect_url.as_deref(),
            jurisdictions: &config.jurisdictions,
            default_jurisdiction: config.default_jurisdiction.as_deref(),
        }
    }
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = ShopSavedResponse)]
struct SavedResponse<'a> {
    ok: bool,
    config: ShopConfigResponse<'a>,
}

/// The merchant's shop settings (shop:read).
#[utoipa::path(
    get,
    path = "/api/shop/config",
    operation_id = "getShopConfig",
    tag = "shop",
    security(("subscription_key" = [])),
    responses(
        (status = 200, description = "The settings.", body = ShopConfigResponse<'static>)
    )
)]
pub(crate) async fn get_config(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let caller = ctx.dev_caller(Scope::ShopRead).await?;
    let config = ctx.state.services.shop.config(caller.wallet).await?;
    Ok(response::ok(&ShopConfigResponse::from(&config)))
}

/// Updates the shop settings (admin session + CSRF).
#[utoipa::path(
    post,
    path = "/api/shop/config",
    operation_id = "updateShopConfig",
    tag = "shop",
    security(("session_cookie" = [], "csrf_token" = [])),
    request_body = ShopConfigRequest,
    responses(
        (status = 200, description = "The saved settings.", body = SavedResponse<'static>)
    )
)]
pub(crate) async fn post_config(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let admin = ctx.admin_session(true).await?;
    let request: ShopConfigRequest = ctx.json().await?;
    let wallet = admin.acting_for(request.wallet)?;
    let update = ShopConfigUpdate::try_from(shop_settings::ShopConfigRequest::from(request))?;
    let config = ctx.state.services.shop.update_config(wallet, update).await?;
    Ok(response::ok(&SavedResponse {
        ok: true,
        config: ShopConfigResponse::from(&config),
    }))
}
