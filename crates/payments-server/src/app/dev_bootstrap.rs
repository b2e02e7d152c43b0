//! The first development start: a complete path from a fresh database to a paid order, with nothing to
//! configure. The development merchant is the wallet of a key kept beside the database
//! ([`DevAdminKey`]), so `payments admin login` can sign in as it; it gets a subscription key with every
//! scope (shown once) and its default split (the platform's share, the rest to the merchant), so orders
//! work at once instead of answering `split_required`.

use std::path::PathBuf;

use payments_core::Wallet;
use thiserror::Error;
use url::Url;

use crate::app::App;
use crate::domain::split::SplitSaved;
use crate::runtime::dev_admin_key::{DevAdminKey, DevAdminKeyError};
use crate::services::keys::{IssuedKey, KeyAdminError};
use crate::services::split::SplitDraft;

/// Why the development merchant could not be set up.
#[derive(Debug, Error)]
pub enum DevBootstrapError {
    /// The admin key file beside the database.
    #[error(transparent)]
    AdminKey(#[from] DevAdminKeyError),
    /// The datastore.
    #[error(transparent)]
    Keys(#[from] KeyAdminError),
}

/// What the first development start made, to show once.
#[derive(Debug)]
pub struct DevWelcome {
    /// The development merchant: the wallet of the admin key.
    pub merchant: Wallet,
    /// Its subscription key, every scope.
    pub key: IssuedKey,
    /// The file holding the merchant wallet's private key (mode 0600).
    pub admin_key_file: PathBuf,
    /// The split address orders pay into, or why no split could be configured.
    pub split: Result<Wallet, String>,
}

impl App {
    /// In development mode, on a database without any subscription: makes (or reads) the development admin
    /// key, creates its merchant with a full-scope key and configures the merchant's default split. `None`
    /// outside development mode or when the database already has subscriptions (nothing is shown twice).
    ///
    /// A split that cannot be configured (e.g. no platform recipient) does not fail the start: the welcome
    /// says so and names the command that makes it.
    ///
    /// # Errors
    /// When the admin key file cannot be read or written, or the datastore fails.
    pub async fn bootstrap_development(&self) -> Result<Option<DevWelcome>, DevBootstrapError> {
        let state = self.state();
        if !state.config.dev_mode || !state.services.keys.list().await?.is_empty() {
            return Ok(None);
        }
        let admin_key =
            DevAdminKey::load_or_create(&DevAdminKey::file_for(&state.config.database.sidecar_base()))?;
        let Some(key) = state
            .services
            .keys
            .bootstrap_dev_merchant(admin_key.wallet)
            .await?
        else {
            return Ok(None);
        };
        let draft = SplitDraft {
            split_address: None,
            recipients: None,
            replace: false,
        };
        let split = match state.services.split.deploy(admin_key.wallet, draft).await {
            Ok(SplitSaved::Created(stored) | SplitSaved::Existing(stored) | SplitSaved::Replaced(stored)) => {
                Ok(stored.address)
            }
            Err(error) => {
                tracing::warn!(error = %error, "the development merchant's split was not configured");
                Err(error.to_string())
            }
        };
        Ok(Some(DevWelcome {
            merchant: admin_key.wallet,
            key,
            admin_key_file: admin_key.path,
            split,
        }))
    }
}

impl DevWelcome {
    /// The text printed at start: the merchant, its key (once), the admin key file, the split, and the
    /// commands to try, against `base_url`.
    pub fn render(&self, base_url: &Url) -> String {
        let base = base_url.as_str().trim_end_matches('/');
        let key = self.key.key.expose();
        let key_file = self.admin_key_file.display();
        let login = format!("payments admin login --private-key-file {key_file}");
        let split = match &self.split {
            Ok(address) => format!("Its split is configured ({address}): orders can be created at once.\n"),
            Err(reason) => format!(
                "Its split could not be configured ({reason}); make it with:\n  {login} && payments split deploy\n"
            ),
        };
        format!(
            "Development merchant {merchant} created with a key that has every scope.\n\
             This key is shown once; keep it (lost? `payments-server keys rotate {subscription}`):\n\
             \n  {key}\n\n\
             The merchant wallet's private key is in {key_file} (mode 0600): `payments admin login` signs \
             in with it.\n\
             {split}\
             \nTry it:\n  \
             curl -H 'X-Gateway-Subscription-Key: {key}' {base}/api/inventory\n  \
             export PAYMENTS_KEY={key} PAYMENTS_URL={base}\n  \
             payments inventory upsert --sku MUG-1 --name Mug --price 12.00 --stock 10\n  \
             payments orders create --item MUG-1:1\n  \
             {login}\n",
            merchant = self.merchant,
            subscription = self.key.subscription_id.as_str(),
        )
    }
}
