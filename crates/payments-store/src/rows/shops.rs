//! Shop settings as stored (`shops`).

use payments_core::{FeePct, Wallet};
use payments_domain::shop::ShopConfig;

use super::{bad, json};

/// A `shops` row as every shop read selects it.
pub(crate) struct ShopRow {
    pub(crate) wallet: String,
    pub(crate) brand_name: String,
    pub(crate) processing_fee_pct: String,
    pub(crate) brand_key: Option<String>,
    pub(crate) support_email: Option<String>,
    pub(crate) logo_url: Option<String>,
    pub(crate) redirect_url: Option<String>,
    pub(crate) jurisdictions_json: String,
    pub(crate) default_jurisdiction: Option<String>,
}

impl ShopRow {
    pub(crate) fn into_record(self) -> Result<ShopConfig, String> {
        Ok(ShopConfig {
            wallet: Wallet::parse(&self.wallet).map_err(|error| bad("wallet", error))?,
            brand_name: self.brand_name,
            processing_fee_pct: FeePct::parse_merchant_add_on(&self.processing_fee_pct)
                .map_err(|error| bad("processing_fee_pct", error))?,
            brand_key: self.brand_key,
            support_email: self.support_email,
            logo_url: self.logo_url,
            redirect_url: self.redirect_url,
            jurisdictions: json("jurisdictions_json", &self.jurisdictions_json)?,
            default_jurisdiction: self.default_jurisdiction,
        })
    }
}
