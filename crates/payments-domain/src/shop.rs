//! Shop configuration of a merchant.

use payments_core::{FeePct, Jurisdiction, Wallet};

/// A merchant's shop settings; a merchant without a stored row has [`ShopConfig::default_for`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShopConfig {
    pub wallet: Wallet,
    pub brand_name: String,
    /// The merchant add-on on top of [`FeePct::PLATFORM_BASE`], 0..=10 %.
    pub processing_fee_pct: FeePct,
    /// Slug naming the shop in webhooks (`brandKey`).
    pub brand_key: Option<String>,
    pub support_email: Option<String>,
    /// An https URL or an image data URL.
    pub logo_url: Option<String>,
    /// Default post-payment redirect (https).
    pub redirect_url: Option<String>,
    /// The merchant's own tax jurisdictions; searched before the built-in catalog.
    pub jurisdictions: Vec<Jurisdiction>,
    /// Used when an order names no jurisdiction: one of `jurisdictions` or of the catalog.
    pub default_jurisdiction: Option<String>,
}

impl ShopConfig {
    pub fn default_for(wallet: Wallet) -> Self {
        ShopConfig {
            wallet,
            brand_name: String::new(),
            processing_fee_pct: FeePct::ZERO,
            brand_key: None,
            support_email: None,
            logo_url: None,
            redirect_url: None,
            jurisdictions: Vec::new(),
            default_jurisdiction: None,
        }
    }
}
