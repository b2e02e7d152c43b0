//! Configuration reads: the merchant's split, shop settings, fee schedule and tax catalog, and the
//! platform's public defaults.

use payments_core::{FeePct, Jurisdiction, SplitRecipient, Wallet};
use serde::{Deserialize, Serialize};

use crate::client::{Auth, Client};
use crate::error::Error;

/// The merchant's split (`GET /api/split/deploy`); `address` is `None` and `recipients` empty when
/// the merchant has not configured one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SplitConfig {
    /// The split contract address.
    pub address: Option<Wallet>,
    /// Recipients and their shares in basis points (summing to 10000).
    #[serde(default)]
    pub recipients: Vec<SplitRecipient>,
}

impl SplitConfig {
    /// Whether the merchant has a split (orders need one).
    pub fn is_configured(&self) -> bool {
        self.address.is_some()
    }
}

#[derive(Debug, Deserialize)]
struct SplitEnvelope {
    split: SplitConfig,
}

/// The merchant's shop settings (`GET /api/shop/config`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ShopConfig {
    /// The merchant.
    pub wallet: Wallet,
    /// Shown on receipts and the payment page.
    pub brand_name: String,
    /// The merchant's add-on to the platform fee, a percentage.
    pub processing_fee_pct: FeePct,
    /// The platform's base fee, a percentage.
    pub platform_fee_pct: FeePct,
    /// Slug naming the shop in webhooks.
    #[serde(default)]
    pub brand_key: Option<String>,
    /// Where buyers get help.
    #[serde(default)]
    pub support_email: Option<String>,
    /// An https URL or an image data URL.
    #[serde(default)]
    pub logo_url: Option<String>,
    /// Default post-payment redirect.
    #[serde(default)]
    pub redirect_url: Option<String>,
    /// The merchant's own tax jurisdictions.
    #[serde(default)]
    pub jurisdictions: Vec<Jurisdiction>,
    /// Used when an order names no jurisdiction.
    #[serde(default)]
    pub default_jurisdiction: Option<String>,
}

/// The merchant's fee schedule (`GET /api/pricing/config`), percentages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PricingConfig {
    /// The platform's base fee.
    pub platform_fee_pct: FeePct,
    /// The merchant's add-on.
    pub merchant_add_on_pct: FeePct,
    /// What an order is charged: base + add-on.
    pub effective_fee_pct: FeePct,
    /// The platform fee on each subscription charge.
    pub subscription_fee_pct: FeePct,
}

/// The payment token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TokenInfo {
    /// E.g. `USDC`.
    pub symbol: String,
    /// Base-unit decimals (6).
    pub decimals: u8,
    /// The token contract.
    pub address: Wallet,
}

/// The platform's public defaults (`GET /api/site/config`, no key needed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SiteConfig {
    /// The platform's base processing fee, a percentage.
    pub platform_fee_pct: FeePct,
    /// The platform fee on each subscription charge, a percentage.
    pub subscription_fee_pct: FeePct,
    /// The payment token.
    pub token: TokenInfo,
    /// The chain payments settle on.
    pub chain_id: u64,
    /// The platform's share of every split, basis points.
    pub split_platform_share_bps: u32,
    /// The platform's split recipient, when configured.
    pub platform_recipient: Option<Wallet>,
}

/// One jurisdiction of the merchant's tax catalog.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TaxCatalogEntry {
    /// Code, name and components.
    #[serde(flatten)]
    pub jurisdiction: Jurisdiction,
    /// `merchant` (the shop's own, overriding the catalog) or `catalog` (built in).
    pub source: String,
}

/// The tax catalog as the merchant sees it (`GET /api/tax/catalog`): its own jurisdictions first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TaxCatalog {
    /// The merchant's jurisdictions, then the built-in ones it does not override.
    pub jurisdictions: Vec<TaxCatalogEntry>,
    /// The merchant's default jurisdiction.
    pub default_jurisdiction: Option<String>,
}

impl Client {
    /// The merchant's split (`GET /api/split/deploy`, scope `split:read`).
    ///
    /// # Errors
    /// [`Error::Api`] for a missing key or scope; [`Error::Transport`] or [`Error::Decode`] as for every call.
    pub async fn split(&self) -> Result<SplitConfig, Error> {
        let envelope: SplitEnvelope = self
            .get_json(self.url("api/split/deploy")?, Auth::Subscription)
            .await?;
        Ok(envelope.split)
    }

    /// The merchant's shop settings (`GET /api/shop/config`, scope `shop:read`).
    ///
    /// # Errors
    /// As [`Client::split`].
    pub async fn shop_config(&self) -> Result<ShopConfig, Error> {
        self.get_json(self.url("api/shop/config")?, Auth::Subscription)
            .await
    }

    /// The merchant's fee schedule (`GET /api/pricing/config`, scope `shop:read`).
    ///
    /// # Errors
    /// As [`Client::split`].
    pub async fn pricing_config(&self) -> Result<PricingConfig, Error> {
        self.get_json(self.url("api/pricing/config")?, Auth::Subscription)
            .await
    }

    /// The platform's public defaults (`GET /api/site/config`, no key needed).
    ///
    /// # Errors
    /// [`Error::Transport`] or [`Error::Decode`] as for every call.
    pub async fn site_config(&self) -> Result<SiteConfig, Error> {
        self.get_json(self.url("api/site/config")?, Auth::None).await
    }

    /// The merchant's tax catalog (`GET /api/tax/catalog`, scope `shop:read`).
    ///
    /// # Errors
    /// As [`Client::split`].
    pub async fn tax_catalog(&self) -> Result<TaxCatalog, Error> {
        self.get_json(self.url("api/tax/catalog")?, Auth::Subscription)
            .await
    }
}
