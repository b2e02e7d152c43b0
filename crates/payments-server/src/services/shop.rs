//! Shop configuration, the merchant's fee schedule and its tax jurisdictions.

use payments_core::{FeePct, FeeSchedule, Jurisdiction, Wallet, builtin_tax_catalog, find_jurisdiction};
use thiserror::Error;

use std::sync::Arc;

use crate::domain::shop::ShopConfig;
use crate::domain::shop_settings::ShopConfigUpdate;
use crate::runtime::clock::Clock;
use crate::store::{ShopRepository, StoreError};

#[derive(Debug, Error)]
pub(crate) enum ShopConfigError {
    #[error("defaultJurisdiction: {0} is neither one of the shop's jurisdictions nor in the catalog")]
    UnknownDefaultJurisdiction(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// What order pricing needs to know about a merchant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PricingContext {
    pub(crate) fees: FeeSchedule,
    /// The merchant's own jurisdictions; searched before the built-in catalog (`resolve_tax_rate_in`), so
    /// the merchant overrides the catalog.
    pub(crate) jurisdictions: Vec<Jurisdiction>,
    pub(crate) default_jurisdiction: Option<String>,
}

/// Where a tax-catalog entry comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum JurisdictionSource {
    Merchant,
    Catalog,
}

/// The merchant's stored configuration, or the defaults when it never saved one.
/// Shop settings use cases.
#[derive(Debug, Clone)]
pub(crate) struct ShopService {
    pub(crate) shops: Arc<dyn ShopRepository>,
    pub(crate) clock: Arc<dyn Clock>,
}

impl ShopService {
    pub(crate) async fn config(&self, wallet: Wallet) -> Result<ShopConfig, StoreError> {
        let stored = self.shops.fetch_shop(wallet).await?;
        Ok(stored.unwrap_or_else(|| ShopConfig::default_for(wallet)))
    }

    /// Applies an update over the stored configuration (read and write in one store transaction would
    /// need a merge in SQL; shop settings are edited by one admin at a time, so last write wins).
    pub(crate) async fn update_config(
        &self,
        wallet: Wallet,
        update: ShopConfigUpdate,
    ) -> Result<ShopConfig, ShopConfigError> {
        let mut config = self.config(wallet).await?;
        apply(&mut config, update);
        if let Some(code) = &config.default_jurisdiction
            && find_jurisdiction(&config.jurisdictions, code).is_none()
            && find_jurisdiction(builtin_tax_catalog(), code).is_none()
        {
            return Err(ShopConfigError::UnknownDefaultJurisdiction(code.clone()));
        }
        self.shops.save_shop(&config, self.clock.now_ms()).await?;
        Ok(config)
    }
}

fn apply(config: &mut ShopConfig, update: ShopConfigUpdate) {
    if let Some(name) = update.brand_name {
        config.brand_name = name;
    }
    if let Some(fee) = update.processing_fee_pct {
        config.processing_fee_pct = fee;
    }
    if let Some(jurisdictions) = update.jurisdictions {
        config.jurisdictions = jurisdictions;
    }
    let optional = [
        (&mut config.brand_key, update.brand_key),
        (&mut config.support_email, update.support_email),
        (&mut config.logo_url, update.logo_url),
        (&mut config.redirect_url, update.redirect_url),
        (&mut config.default_jurisdiction, update.default_jurisdiction),
    ];
    for (field, change) in optional {
        if let Some(value) = change {
            *field = value;
        }
    }
}

pub(crate) fn fee_schedule(config: &ShopConfig) -> FeeSchedule {
    FeeSchedule {
        platform_base: FeePct::PLATFORM_BASE,
        merchant_add_on: config.processing_fee_pct,
    }
}

impl ShopService {
    /// Sets the merchant's add-on only and returns the resulting schedule.
    pub(crate) async fn set_processing_fee(
        &self,
        wallet: Wallet,
        fee: FeePct,
    ) -> Result<FeeSchedule, StoreError> {
        self.shops
            .save_processing_fee(wallet, fee, self.clock.now_ms())
            .await?;
        Ok(FeeSchedule {
            platform_base: FeePct::PLATFORM_BASE,
            merchant_add_on: fee,
        })
    }
}

/// Fee schedule, jurisdictions (merchant's, then the catalog) and default jurisdiction of a merchant:
/// everything order and terminal pricing reads from the shop (as read in the sale's transaction; `None`
/// prices with the defaults).
pub(crate) fn pricing_context(shop: Option<ShopConfig>, wallet: Wallet) -> PricingContext {
    let config = shop.unwrap_or_else(|| ShopConfig::default_for(wallet));
    let fees = fee_schedule(&config);
    PricingContext {
        fees,
        jurisdictions: config.jurisdictions,
        default_jurisdiction: config.default_jurisdiction,
    }
}

/// The catalog as a merchant sees it: its own jurisdictions first, then the catalog entries whose code
/// it did not override.
pub(crate) fn merged_catalog(config: &ShopConfig) -> Vec<(Jurisdiction, JurisdictionSource)> {
    let own = config
        .jurisdictions
        .iter()
        .map(|jurisdiction| (jurisdiction.clone(), JurisdictionSource::Merchant));
    let catalog = builtin_tax_catalog()
        .iter()
        .filter(|entry| find_jurisdiction(&config.jurisdictions, &entry.code).is_none())
        .map(|entry| (entry.clone(), JurisdictionSource::Catalog));
    own.chain(catalog).collect()
}
