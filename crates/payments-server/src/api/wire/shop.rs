//! The shop settings body (`POST /api/shop/config`).

use payments_core::{Jurisdiction, Wallet};
use serde::Deserialize;

use crate::domain::shop_settings as domain;

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct ShopConfigRequest {
    /// Only a platform admin may name a wallet other than its own.
    #[schema(value_type = Option<crate::api::openapi::core_types::Wallet>)]
    pub(crate) wallet: Option<Wallet>,
    brand_name: Option<String>,
    #[schema(value_type = Option<f64>)]
    processing_fee_pct: Option<serde_json::Number>,
    brand_key: Option<String>,
    support_email: Option<String>,
    logo_url: Option<String>,
    redirect_url: Option<String>,
    #[schema(value_type = Option<Vec<crate::api::openapi::core_types::Jurisdiction>>)]
    jurisdictions: Option<Vec<Jurisdiction>>,
    default_jurisdiction: Option<String>,
}

impl From<ShopConfigRequest> for domain::ShopConfigRequest {
    fn from(request: ShopConfigRequest) -> Self {
        domain::ShopConfigRequest {
            wallet: request.wallet,
            brand_name: request.brand_name,
            processing_fee_pct: request.processing_fee_pct,
            brand_key: request.brand_key,
            support_email: request.support_email,
            logo_url: request.logo_url,
            redirect_url: request.redirect_url,
            jurisdictions: request.jurisdictions,
            default_jurisdiction: request.default_jurisdiction,
        }
    }
}
