//! Shop configuration of a merchant.

use payments_core::{FeePct, Wallet};

/// A merchant's shop settings; a merchant without a stored row has [`ShopConfig::default_for`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ShopConfig {
    pub(crate) wallet: Wallet,
    pub(crate) brand_name: String,
    /// The merchant add-on on top of [`FeePct::PLATFORM_BASE`], 0..=10 %.
    pub(crate) processing_fee_pct: FeePct,
}

impl ShopConfig {
    pub(crate) fn default_for(wallet: Wallet) -> Self {
        ShopConfig {
            wallet,
            brand_name: String::new(),
            processing_fee_pct: FeePct::ZERO,
        }
    }
}
