//! Configuration writes of an admin session: the split (`POST /api/split/deploy`), shop settings
//! (`POST /api/shop/config`) and the fee add-on (`POST /api/pricing/config`); plus the split history
//! read (`GET /api/split/history`, subscription key), which only changes through these writes.
//!
//! Every write acts on the session's wallet. The `wallet` field of each body names another merchant,
//! which only a platform admin may do (403 `forbidden` otherwise).

use payments_core::{FeePct, Jurisdiction, SplitRecipient, Wallet};
use reqwest::Method;
use serde::{Deserialize, Serialize};

use crate::client::{Auth, Client};
use crate::config::{PricingConfig, ShopConfig, SplitConfig};
use crate::error::Error;
use crate::session::AdminSession;

/// `POST /api/split/deploy` body. [`DeploySplit::default`] asks for the default split: the merchant
/// receives everything but the platform's share.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct DeploySplit {
    /// A split contract deployed elsewhere; without one the server uses its split factory's CREATE2 address for the recipients.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub split_address: Option<Wallet>,
    /// 1 to 50 unique recipients whose shares sum to 10000 bps, including the platform recipient with
    /// exactly the platform share ([`SiteConfig`](crate::SiteConfig) names both).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recipients: Option<Vec<SplitRecipient>>,
    /// Replace an existing split (it moves to the history); without it a second deploy changes nothing.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub replace: bool,
    /// The merchant, when a platform admin acts for another one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wallet: Option<Wallet>,
}

impl DeploySplit {
    /// A split paying `recipients`.
    pub fn with_recipients(recipients: Vec<SplitRecipient>) -> Self {
        DeploySplit {
            recipients: Some(recipients),
            ..DeploySplit::default()
        }
    }

    /// Uses an already deployed split contract.
    #[must_use]
    pub fn split_address(mut self, address: Wallet) -> Self {
        self.split_address = Some(address);
        self
    }

    /// Replaces the merchant's current split instead of answering it unchanged.
    #[must_use]
    pub fn replacing(mut self) -> Self {
        self.replace = true;
        self
    }

    /// Acts for merchant `wallet` (platform admins only).
    #[must_use]
    pub fn for_wallet(mut self, wallet: Wallet) -> Self {
        self.wallet = Some(wallet);
        self
    }
}

/// `POST /api/split/deploy` answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct DeployedSplit {
    /// The merchant's split now.
    pub split: SplitConfig,
    /// `true` when a split already existed and nothing changed.
    #[serde(default)]
    pub idempotent: bool,
    /// `true` when [`DeploySplit::replace`] replaced an existing split.
    #[serde(default)]
    pub replaced: bool,
}

/// A replaced split (`GET /api/split/history`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ArchivedSplit {
    /// Its contract address.
    pub address: Wallet,
    /// Its recipients.
    pub recipients: Vec<SplitRecipient>,
    /// When it was configured, Unix ms.
    pub created_at: i64,
    /// When it was replaced, Unix ms.
    pub archived_at: i64,
}

/// `POST /api/shop/config` body: only the fields that are set change. An empty string clears an
/// optional text field (brand key, support email, logo, redirect, default jurisdiction).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ShopConfigUpdate {
    /// 1 to 80 characters, shown on receipts and the payment page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub brand_name: Option<String>,
    /// The merchant's add-on to the platform fee, 0 to 10 (percent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub processing_fee_pct: Option<FeePct>,
    /// Slug naming the shop in webhooks (lower-case letters, digits, inner hyphens).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub brand_key: Option<String>,
    /// Where buyers get help.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub support_email: Option<String>,
    /// An https URL or an image data URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub logo_url: Option<String>,
    /// Default post-payment redirect (https).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub redirect_url: Option<String>,
    /// The merchant's own tax jurisdictions (replaces the list).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub jurisdictions: Option<Vec<Jurisdiction>>,
    /// Used when an order names no jurisdiction: one of the merchant's or of the built-in catalog.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_jurisdiction: Option<String>,
    /// The merchant, when a platform admin acts for another one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wallet: Option<Wallet>,
}

impl ShopConfigUpdate {
    /// An update that changes nothing yet.
    pub fn new() -> Self {
        ShopConfigUpdate::default()
    }

    /// Sets the brand name.
    #[must_use]
    pub fn brand_name(mut self, name: impl Into<String>) -> Self {
        self.brand_name = Some(name.into());
        self
    }

    /// Sets the merchant's fee add-on (percent).
    #[must_use]
    pub fn processing_fee_pct(mut self, pct: FeePct) -> Self {
        self.processing_fee_pct = Some(pct);
        self
    }

    /// Sets the brand key (`""` clears it).
    #[must_use]
    pub fn brand_key(mut self, key: impl Into<String>) -> Self {
        self.brand_key = Some(key.into());
        self
    }

    /// Replaces the merchant's tax jurisdictions.
    #[must_use]
    pub fn jurisdictions(mut self, jurisdictions: Vec<Jurisdiction>) -> Self {
        self.jurisdictions = Some(jurisdictions);
        self
    }

    /// Sets the default jurisdiction (`""` clears it).
    #[must_use]
    pub fn default_jurisdiction(mut self, code: impl Into<String>) -> Self {
        self.default_jurisdiction = Some(code.into());
        self
    }

    /// Acts for merchant `wallet` (platform admins only).
    #[must_use]
    pub fn for_wallet(mut self, wallet: Wallet) -> Self {
        self.wallet = Some(wallet);
        self
    }
}

/// `POST /api/pricing/config` body: the merchant's add-on to the platform fee.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PricingUpdate {
    /// 0 to 10 (percent); orders are charged the platform base plus this.
    pub processing_fee_pct: FeePct,
    /// The merchant, when a platform admin acts for another one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wallet: Option<Wallet>,
}

impl PricingUpdate {
    /// Sets the add-on to `pct`.
    pub fn new(pct: FeePct) -> Self {
        PricingUpdate {
            processing_fee_pct: pct,
            wallet: None,
        }
    }

    /// Acts for merchant `wallet` (platform admins only).
    #[must_use]
    pub fn for_wallet(mut self, wallet: Wallet) -> Self {
        self.wallet = Some(wallet);
        self
    }
}

#[derive(Debug, Deserialize)]
struct HistoryEnvelope {
    history: Vec<ArchivedSplit>,
}

#[derive(Debug, Deserialize)]
struct ShopEnvelope {
    config: ShopConfig,
}

impl Client {
    /// Configures the merchant's split (`POST /api/split/deploy`, admin session). Orders and terminal
    /// sales need one. Idempotent: a second call answers the stored split with
    /// [`DeployedSplit::idempotent`] unless [`DeploySplit::replace`] is set.
    ///
    /// # Errors
    /// [`Error::Api`]: 400 `invalid_input` (field `recipients`), 400 `platform_recipient_not_configured`,
    /// 401 `unauthorized` (no live session), 403 `forbidden` (CSRF, another merchant's wallet).
    pub async fn deploy_split(
        &self,
        session: &AdminSession,
        split: &DeploySplit,
    ) -> Result<DeployedSplit, Error> {
        let request = self
            .admin_request(session, Method::POST, "api/split/deploy")?
            .json(split);
        self.send_json(request).await
    }

    /// The merchant's replaced splits, newest first (`GET /api/split/history`, scope `split:read`).
    ///
    /// # Errors
    /// As [`Client::split`].
    pub async fn split_history(&self) -> Result<Vec<ArchivedSplit>, Error> {
        let envelope: HistoryEnvelope = self
            .get_json(self.url("api/split/history")?, Auth::Subscription)
            .await?;
        Ok(envelope.history)
    }

    /// Changes shop settings (`POST /api/shop/config`, admin session); answers the settings after the
    /// change.
    ///
    /// # Errors
    /// [`Error::Api`]: 400 `invalid_input` naming the field, 401 `unauthorized`, 403 `forbidden`.
    pub async fn update_shop_config(
        &self,
        session: &AdminSession,
        update: &ShopConfigUpdate,
    ) -> Result<ShopConfig, Error> {
        let request = self
            .admin_request(session, Method::POST, "api/shop/config")?
            .json(update);
        let envelope: ShopEnvelope = self.send_json(request).await?;
        Ok(envelope.config)
    }

    /// Sets the merchant's fee add-on (`POST /api/pricing/config`, admin session); answers the fee
    /// schedule after the change.
    ///
    /// # Errors
    /// [`Error::Api`]: 400 `invalid_input` (outside 0 to 10), 401 `unauthorized`, 403 `forbidden`.
    pub async fn update_pricing_config(
        &self,
        session: &AdminSession,
        update: &PricingUpdate,
    ) -> Result<PricingConfig, Error> {
        let request = self
            .admin_request(session, Method::POST, "api/pricing/config")?
            .json(update);
        self.send_json(request).await
    }
}
