//! Subscription key administration (the binary's `keys` commands, the dev bootstrap, test helpers).

use std::sync::Arc;

use payments_core::{FeePct, Wallet};
use thiserror::Error;

use crate::domain::api_key::{KeyMode, NewApiKey, SubscriptionId};
use crate::domain::scope::Scopes;
use crate::domain::shop::ShopConfig;
use crate::domain::subscription::{NewSubscription, Subscription};
use crate::runtime::clock::Clock;
use crate::secret::Secret;
use crate::services::instance_settings::{InstanceError, issuing_mode};
use crate::store::{DatabaseLocation, KeyRepository, ShopRepository, StoreError};

/// A key as issued; the only time the key itself is available.
#[derive(Debug, Clone)]
pub struct IssuedKey {
    /// Public id of the subscription.
    pub subscription_id: SubscriptionId,
    /// The key to send as `X-Gateway-Subscription-Key`.
    pub key: Secret,
    /// The merchant it acts for.
    pub wallet: Wallet,
    /// What it may do.
    pub scopes: Scopes,
    /// Label given at creation.
    pub name: Option<String>,
}

/// Why a key operation failed.
#[derive(Debug, Error)]
pub enum KeyAdminError {
    /// No active subscription has this id (never existed, or already revoked).
    #[error("no active subscription with id {0}")]
    NotFound(SubscriptionId),
    /// The datastore failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Creates, lists, revokes and rotates subscription keys. Blocking: call it off the async threads or at start.
#[derive(Debug, Clone)]
pub struct KeyAdmin {
    keys: Arc<dyn KeyRepository>,
    shops: Arc<dyn ShopRepository>,
    clock: Arc<dyn Clock>,
    mode: KeyMode,
}

impl KeyAdmin {
    /// Opens the database (applying migrations) for key administration; keys are issued in `mode` (that of
    /// the server using the database: [`KeyMode::for_chain`]).
    ///
    /// # Errors
    /// When the database cannot be opened or migrated.
    pub async fn open(
        database: &DatabaseLocation,
        clock: Arc<dyn Clock>,
        mode: KeyMode,
    ) -> Result<Self, StoreError> {
        let repositories = crate::store::open(database, clock.now_ms()).await?;
        Ok(KeyAdmin::new(
            Arc::clone(&repositories.keys),
            repositories.shops,
            clock,
            mode,
        ))
    }

    /// Opens the database to issue keys in the mode it records (`requested`, from the command's
    /// `--chain-rpc-url` / `--test-mode`, must agree, and is recorded when the database records none).
    ///
    /// # Errors
    /// When the database cannot be opened, or its mode is unknown or another than `requested`.
    pub async fn open_for_issuing(
        database: &DatabaseLocation,
        clock: Arc<dyn Clock>,
        requested: Option<KeyMode>,
    ) -> Result<Self, InstanceError> {
        let repositories = crate::store::open(database, clock.now_ms()).await?;
        let mode = issuing_mode(repositories.keys.as_ref(), requested, clock.now_ms()).await?;
        Ok(KeyAdmin::new(
            Arc::clone(&repositories.keys),
            repositories.shops,
            clock,
            mode,
        ))
    }

    pub(crate) fn new(
        keys: Arc<dyn KeyRepository>,
        shops: Arc<dyn ShopRepository>,
        clock: Arc<dyn Clock>,
        mode: KeyMode,
    ) -> Self {
        KeyAdmin {
            keys,
            shops,
            clock,
            mode,
        }
    }

    /// The prefix of the keys this admin issues (`sk_test_` or `sk_live_`).
    pub fn mode(&self) -> KeyMode {
        self.mode
    }

    /// Issues a new key for `wallet`.
    ///
    /// # Errors
    /// When the datastore fails.
    pub async fn create(
        &self,
        wallet: Wallet,
        scopes: Scopes,
        name: Option<String>,
    ) -> Result<IssuedKey, KeyAdminError> {
        let (issued, new) = self.issue(wallet, scopes, name);
        self.keys.create(&new).await?;
        Ok(issued)
    }

    /// Every subscription, revoked ones included (without keys: only hashes are stored).
    ///
    /// # Errors
    /// When the datastore fails.
    pub async fn list(&self) -> Result<Vec<Subscription>, KeyAdminError> {
        Ok(self.keys.list().await?)
    }

    /// Revokes a key; it stops authenticating at once.
    ///
    /// # Errors
    /// [`KeyAdminError::NotFound`] when no active subscription has this id.
    pub async fn revoke(&self, id: &SubscriptionId) -> Result<(), KeyAdminError> {
        if self.keys.revoke(id, self.clock.now_ms()).await? {
            Ok(())
        } else {
            Err(KeyAdminError::NotFound(id.clone()))
        }
    }

    /// Revokes a key and issues a new one for the same wallet, scopes and name, in one transaction.
    ///
    /// # Errors
    /// [`KeyAdminError::NotFound`] when no active subscription has this id.
    pub async fn rotate(&self, id: &SubscriptionId) -> Result<IssuedKey, KeyAdminError> {
        let key = NewApiKey::generate(self.mode);
        let replacement_id = SubscriptionId::generate();
        let rotated = self
            .keys
            .rotate(id, &replacement_id, &key.hash, self.clock.now_ms())
            .await?;
        let subscription = rotated.ok_or_else(|| KeyAdminError::NotFound(id.clone()))?;
        Ok(IssuedKey {
            subscription_id: subscription.id,
            key: key.key,
            wallet: subscription.wallet,
            scopes: subscription.scopes,
            name: subscription.name,
        })
    }

    /// On a database without any subscription, creates the development merchant `wallet` (the wallet of the
    /// development admin key, [`crate::DevAdminKey`]; shop defaults) and a key with every scope; returns it so
    /// it can be shown once. `None` when the database already had subscriptions.
    ///
    /// # Errors
    /// When the datastore fails.
    pub async fn bootstrap_dev_merchant(&self, wallet: Wallet) -> Result<Option<IssuedKey>, KeyAdminError> {
        let (issued, new) = self.issue(wallet, Scopes::all(), Some("development merchant".to_owned()));
        if !self.keys.create_first(&new).await? {
            return Ok(None);
        }
        let shop = ShopConfig {
            wallet,
            brand_name: "Development Shop".to_owned(),
            processing_fee_pct: FeePct::ZERO,
            ..ShopConfig::default_for(wallet)
        };
        self.shops.save_shop(&shop, self.clock.now_ms()).await?;
        Ok(Some(issued))
    }

    fn issue(&self, wallet: Wallet, scopes: Scopes, name: Option<String>) -> (IssuedKey, NewSubscription) {
        let key = NewApiKey::generate(self.mode);
        let new = NewSubscription {
            id: SubscriptionId::generate(),
            key_hash: key.hash,
            wallet,
            scopes: scopes.clone(),
            name: name.clone(),
            created_at: self.clock.now_ms(),
        };
        let issued = IssuedKey {
            subscription_id: new.id.clone(),
            key: key.key,
            wallet,
            scopes,
            name,
        };
        (issued, new)
    }
}
