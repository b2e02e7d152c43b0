//! Reference HTTP/JSON server of the merchant payments platform: hyper 1.x + tokio + SQLite.
//!
//! ```text
//! serve -> App::handle -> api::routes (one table) -> handler (thin) -> service -> core + Store
//! ```
//!
//! Library API: [`ServerConfig`] + [`App::open`] + [`serve`] run a server on a bound listener; [`KeyAdmin`]
//! manages subscription keys; [`Clock`] is injected so tests control time. With the `testing` feature,
//! [`testing::spawn_app`] starts an in-process server on a temporary database.

mod api;
mod app;
mod chain;
mod domain;
mod http;
mod runtime;
mod secret;
mod services;
mod store;

#[cfg(feature = "testing")]
pub mod testing;

pub use app::App;
pub use app::dev_bootstrap::{DevBootstrapError, DevWelcome};
pub use app::server::{serve, shutdown_signal};
pub use chain::ChainError;
pub use chain::bootstrap::{BootstrapPlan, bootstrap as chain_bootstrap};
pub use chain::rpc::RelayerKey;
pub use domain::api_key::{KeyMode, SubscriptionId};
pub use domain::chain::ChainContracts;
pub use domain::scope::{Scope, ScopeError, Scopes};
pub use domain::subscription::Subscription;
pub use payments_store::{DatabaseLocation, DatabaseState, StoreError, backup_sqlite, check_database};
pub use runtime::clock::{Clock, ClockRefusal, ManualClock, OffsetClock, SystemClock};
pub use runtime::config::{
    BASE_USDC, DEFAULT_CHAIN_POLL, DEFAULT_CONFIRMATIONS, DEFAULT_INVENTORY_LIST_BUDGET,
    DEFAULT_KEY_CACHE_MS, DEFAULT_LATE_PAYMENT_WATCH_DAYS, DEFAULT_MAX_BODY_BYTES,
    DEFAULT_PAYMENT_WINDOW_MINS, DEFAULT_PLATFORM_SHARE_BPS, DEFAULT_RATE_LIMIT_PER_MINUTE,
    DEFAULT_SIGN_IN_RATE_LIMIT_PER_MINUTE, DEFAULT_SUBSCRIPTION_BATCH_INTERVAL, DEFAULT_SUBSCRIPTION_LEASE,
    DEFAULT_SUBSCRIPTION_NOTICE, DEV_PLATFORM_RECIPIENT, ServerConfig,
};
pub use runtime::config::{DEFAULT_WEBHOOK_RETRY_DELAY, DEFAULT_WEBHOOK_TIMEOUT};
pub use runtime::dev_admin_key::{DevAdminKey, DevAdminKeyError};
pub use runtime::dev_cron_secret::{
    DevCronSecretError, dev_cron_secret_file, load_or_create_dev_cron_secret,
};
pub use runtime::dev_mode::{DEV_MODE_WARNING, DevModeConflict, DevModeInputs, decide_dev_mode};
pub use runtime::limits::{
    DEFAULT_BODY_TIMEOUT, DEFAULT_HEADER_TIMEOUT, DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_JSON_BODY_BYTES,
    DEFAULT_REQUEST_DEADLINE, ServerLimits, raise_open_file_limit,
};
pub use runtime::master_key::{MasterKey, MasterKeyError};
pub use runtime::onramp::{COINBASE_API_URL, DEFAULT_ONRAMP_TIMEOUT, OnrampConfig, STRIPE_API_URL};
pub use runtime::telemetry::{LogFormat, LogGuard, init_tracing};
pub use secret::Secret;
pub use services::instance_settings::InstanceError;
pub use services::keys::{IssuedKey, KeyAdmin, KeyAdminError};
pub use services::reconcile::{ReconcileError, ReconcileReport};
