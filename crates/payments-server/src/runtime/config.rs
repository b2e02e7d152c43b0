//! Server configuration, built by the binary from flags/env or by tests directly.

use std::num::NonZeroU32;
use std::time::Duration;

use alloy_primitives::address;
use payments_core::Wallet;
use url::Url;

use crate::chain::rpc::RelayerKey;
use crate::domain::chain::{ChainContracts, PaymentChain};
use crate::domain::receipt::PaymentWindow;
use crate::runtime::limits::ServerLimits;
use crate::runtime::master_key::MasterKey;
use crate::runtime::onramp::OnrampConfig;
use crate::secret::Secret;
use crate::store::DatabaseLocation;

/// Webhook attempt timeout (spec: the receiver must answer within 5 seconds).
pub const DEFAULT_WEBHOOK_TIMEOUT: Duration = Duration::from_secs(5);
/// The spec's one retry, 5 seconds after a failed attempt.
pub const DEFAULT_WEBHOOK_RETRY_DELAY: Duration = Duration::from_secs(5);

/// The platform's share of every split when not configured: 0.50 %.
pub const DEFAULT_PLATFORM_SHARE_BPS: u32 = 50;
/// USDC on Base mainnet, the default payment token of `serve --chain-rpc-url` without `--chain-contracts`.
pub const BASE_USDC: Wallet = Wallet::from_address(address!("833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"));
/// Platform split recipient used in development mode when none is configured (no one holds its key).
pub const DEV_PLATFORM_RECIPIENT: Wallet =
    Wallet::from_address(address!("dec0de0000000000000000000000000000000002"));

/// The largest body of `POST /api/inventory`, the one JSON route that carries images: large enough for a
/// product with three 2 MiB images as base64 data URLs (about 2.7 MiB each) plus the rest of its JSON.
/// Bodies above it are refused with 413 `payload_too_large`.
pub const DEFAULT_MAX_BODY_BYTES: usize = 8 * 1024 * 1024;

/// How long a key confirmed by the datastore is answered from memory, in milliseconds; also the longest a
/// key revoked by the `keys` command (or on another instance) keeps working.
pub const DEFAULT_KEY_CACHE_MS: u64 = 1_000;

/// Time one inventory listing may take (`GET /api/inventory`) before it is stopped and answered in degraded
/// mode (200, no items, `degraded: true`, as the spec has lists answer when the datastore cannot serve them):
/// a costly filter cannot hold a core and a connection for long.
pub const DEFAULT_INVENTORY_LIST_BUDGET: Duration = Duration::from_secs(2);

/// Requests per minute per subscription key when not configured.
pub const DEFAULT_RATE_LIMIT_PER_MINUTE: NonZeroU32 = match NonZeroU32::new(600) {
    Some(limit) => limit,
    None => NonZeroU32::MIN,
};

/// Sign-in requests (nonce + login) per minute per client address when not configured: a person signing in
/// needs two; a script grinding the routes is stopped quickly.
pub const DEFAULT_SIGN_IN_RATE_LIMIT_PER_MINUTE: NonZeroU32 = match NonZeroU32::new(30) {
    Some(limit) => limit,
    None => NonZeroU32::MIN,
};

/// Everything `App` needs to know that is not a collaborator (store, clock).
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// The database: a SQLite file (created with its schema when missing) or a PostgreSQL URL.
    pub database: DatabaseLocation,
    /// Public base address used to build payment links.
    pub base_url: Url,
    /// Development mode: allows the development merchant bootstrap (and, later, HTTP webhook targets).
    pub dev_mode: bool,
    /// Quota per subscription key: this many requests per minute, replenished continuously.
    pub rate_limit_per_minute: NonZeroU32,
    /// Quota of the sign-in routes (`/api/auth/nonce`, `/api/auth/login`) per client address, per minute.
    pub sign_in_rate_limit_per_minute: NonZeroU32,
    /// When set, `x-edge-secret` plus `x-subscription-id` identify a caller in place of a key.
    pub edge_secret: Option<Secret>,
    /// When set, `GET /metrics` needs `Authorization: Bearer <token>` and is served on any listener; when
    /// not, it is served only on a loopback listener to requests no proxy forwarded (docs/operations.md).
    pub metrics_token: Option<Secret>,
    /// How long a key confirmed by the datastore is answered from memory (zero: looked up on every request).
    pub key_cache: Duration,
    /// Largest accepted body of `POST /api/inventory` (a product with data-URL images), in bytes.
    pub max_body_bytes: usize,
    /// Connection, timeout and body limits of the HTTP edge.
    pub limits: ServerLimits,
    /// Time budget of one inventory listing.
    pub inventory_list_budget: Duration,
    /// Answers GraphQL introspection (`__schema`, `__type`) outside development mode
    /// (`--graphql-introspection`); development mode always does.
    pub graphql_introspection: bool,
    /// Seals the API key stored with each receipt (webhook signing key). Without one, development mode uses
    /// `<db>.master.key` beside the database (created 0600 with a random key); production refuses to start.
    pub master_key: Option<MasterKey>,
    /// Time allowed for one webhook attempt.
    pub webhook_timeout: Duration,
    /// Pause before each retry of a failed webhook delivery; one entry per retry.
    pub webhook_retry_delays: Vec<Duration>,
    /// Pause before each retry of a webhook endpoint's delivery (docs/webhooks.md#retries).
    pub endpoint_retry_delays: Vec<Duration>,
    /// Chain id of the admin sign-in's EIP-712 domain.
    pub chain_id: u64,
    /// HS256 key of the admin session cookie. `new` draws a random one, so without a configured secret
    /// every session ends when the process restarts.
    pub jwt_secret: Secret,
    /// Wallets holding the `platform_admin` role.
    pub platform_admins: Vec<Wallet>,
    /// The platform's split recipient; splits cannot be configured without one.
    pub platform_recipient: Option<Wallet>,
    /// The platform recipient's share of every split, in basis points.
    pub platform_share_bps: u32,
    /// Contract of the payment token (a 6-decimal USD stablecoin).
    pub token_address: Wallet,
    /// The platform's factories on the chain (`--chain-contracts`); development mode falls back to
    /// [`ChainContracts::DEVELOPMENT`]. Without either, splits need a given `splitAddress`.
    pub chain_contracts: Option<ChainContracts>,
    /// JSON-RPC URL of an EVM node (`--chain-rpc-url`); without one the server runs the in-process test-mode
    /// chain (docs/chain.md).
    pub chain_rpc_url: Option<Url>,
    /// The relayer's private key (`--relayer-key-file`): deploys splits, forwards deposits, distributes.
    /// Never logged. Without it, paid receipts wait for a server that can settle them.
    pub relayer_key: Option<RelayerKey>,
    /// Blocks on top of a transfer's block before it counts (`--confirmations`); `None`: 0 on the test-mode
    /// chain, [`DEFAULT_CONFIRMATIONS`] on a node.
    pub confirmations: Option<u64>,
    /// Whether settlement forwards only deposits whose transfers are final (the chain's `finalized` block
    /// passed them); `None`: yes on a node, no on the test-mode chain (`--settle-before-finality` says no).
    pub settle_only_finalized: Option<bool>,
    /// Pause between deposit-watcher passes once it has caught up with the chain.
    pub chain_poll: Duration,
    /// `x-cron-secret` of the subscription charge routes and the test clock; `None`: those routes are 404.
    pub cron_secret: Option<Secret>,
    /// The platform fee of each subscription charge, in basis points (the spec's 0.5% by default).
    pub subscription_fee_bps: u32,
    /// The spender every spend permission must name; `None` takes the chain's relayer (who sends the
    /// charges, so only a deployment whose charges are sent by another key sets it).
    pub subscription_spender: Option<Wallet>,
    /// How often the in-process timer runs the subscription charge batch.
    pub subscription_batch_interval: Duration,
    /// How long a batch run holds its claims (and the relayer's send lease) before another run may take
    /// them over and reconcile them with the chain.
    pub subscription_lease: Duration,
    /// How long before a charge its `subscription.charge_upcoming` notice is sent
    /// (`--subscription-notice-hours`, default 72).
    pub subscription_notice: Duration,
    /// Minutes a receipt created without `expiresInMins` waits for its payment (`--payment-window-mins`,
    /// 5 to 10,080; a value outside that range is clamped into it).
    pub payment_window_mins: u32,
    /// Days an expired receipt's deposit stays watched for a late payment (`--late-payment-watch-days`).
    pub late_payment_watch_days: u32,
    /// The card path's provider (`--onramp`); `None`: the payment page offers no "Pay with card".
    pub onramp: Option<OnrampConfig>,
}

/// A receipt's payment window unless it asks for another: one hour.
pub const DEFAULT_PAYMENT_WINDOW_MINS: u32 = 60;
/// How long an expired receipt's deposit address stays watched for a late payment.
pub const DEFAULT_LATE_PAYMENT_WATCH_DAYS: u32 = 30;

/// Confirmations a transfer needs on a real chain unless `--confirmations` says otherwise.
pub const DEFAULT_CONFIRMATIONS: u64 = 3;
/// How often the subscription charge batch runs by itself: daily.
pub const DEFAULT_SUBSCRIPTION_BATCH_INTERVAL: Duration = Duration::from_secs(86_400);
/// How long a charge batch run holds its claims: far longer than one chunk's chain transactions take, far
/// shorter than any billing period.
pub const DEFAULT_SUBSCRIPTION_LEASE: Duration = Duration::from_secs(300);

/// How long before a charge the batch sends its `subscription.charge_upcoming` notice: three days.
pub const DEFAULT_SUBSCRIPTION_NOTICE: Duration = Duration::from_secs(72 * 3_600);

/// How often the deposit watcher looks for new blocks once caught up.
pub const DEFAULT_CHAIN_POLL: Duration = Duration::from_secs(2);

impl ServerConfig {
    /// The chain id and token of payment instructions.
    pub(crate) fn payment_chain(&self) -> PaymentChain {
        PaymentChain {
            chain_id: self.chain_id,
            token: self.token_address,
        }
    }

    /// A configuration with the documented defaults for everything but the database and base URL.
    pub fn new(database: impl Into<DatabaseLocation>, base_url: Url) -> Self {
        ServerConfig {
            database: database.into(),
            base_url,
            dev_mode: false,
            rate_limit_per_minute: DEFAULT_RATE_LIMIT_PER_MINUTE,
            sign_in_rate_limit_per_minute: DEFAULT_SIGN_IN_RATE_LIMIT_PER_MINUTE,
            edge_secret: None,
            metrics_token: None,
            key_cache: Duration::from_millis(DEFAULT_KEY_CACHE_MS),
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            inventory_list_budget: DEFAULT_INVENTORY_LIST_BUDGET,
            graphql_introspection: false,
            limits: ServerLimits::default(),
            master_key: None,
            webhook_timeout: DEFAULT_WEBHOOK_TIMEOUT,
            webhook_retry_delays: vec![DEFAULT_WEBHOOK_RETRY_DELAY],
            endpoint_retry_delays: payments_core::default_endpoint_retry_schedule(),
            // No RPC URL: the test-mode chain, which names the local test chain and token (never a mainnet a
            // tester's wallet could pay on); a node's chain and token come from its contracts.
            chain_id: ChainContracts::DEVELOPMENT.chain_id,
            jwt_secret: Secret::new(hex::encode(rand::random::<[u8; 32]>())),
            platform_admins: Vec::new(),
            platform_recipient: None,
            platform_share_bps: DEFAULT_PLATFORM_SHARE_BPS,
            token_address: ChainContracts::DEVELOPMENT.token,
            chain_contracts: None,
            chain_rpc_url: None,
            relayer_key: None,
            confirmations: None,
            settle_only_finalized: None,
            chain_poll: DEFAULT_CHAIN_POLL,
            cron_secret: None,
            subscription_fee_bps: payments_core::DEFAULT_SUBSCRIPTION_FEE_BPS,
            subscription_spender: None,
            subscription_batch_interval: DEFAULT_SUBSCRIPTION_BATCH_INTERVAL,
            subscription_lease: DEFAULT_SUBSCRIPTION_LEASE,
            subscription_notice: DEFAULT_SUBSCRIPTION_NOTICE,
            payment_window_mins: DEFAULT_PAYMENT_WINDOW_MINS,
            late_payment_watch_days: DEFAULT_LATE_PAYMENT_WATCH_DAYS,
            onramp: None,
        }
    }

    /// The default payment window, clamped to what a receipt may ask for.
    pub(crate) fn payment_window(&self) -> PaymentWindow {
        let minutes = self
            .payment_window_mins
            .clamp(PaymentWindow::MIN_MINUTES, PaymentWindow::MAX_MINUTES);
        PaymentWindow::of_minutes(i64::from(minutes)).unwrap_or(PaymentWindow::DEFAULT)
    }

    /// How long an expired receipt's deposit stays watched, in milliseconds.
    pub(crate) fn late_payment_watch_ms(&self) -> i64 {
        i64::from(self.late_payment_watch_days).saturating_mul(24 * 60 * 60 * 1000)
    }
}

impl ServerConfig {
    /// The configured factories, or in development mode and on the test-mode chain those of a fresh local
    /// anvil (on the test-mode chain they are just addresses).
    pub fn effective_chain_contracts(&self) -> Option<ChainContracts> {
        self.chain_contracts
            .or_else(|| (self.dev_mode || self.is_test_mode()).then_some(ChainContracts::DEVELOPMENT))
    }

    /// No RPC URL: payments run on the in-process test-mode chain, and nothing moves real money.
    pub fn is_test_mode(&self) -> bool {
        self.chain_rpc_url.is_none()
    }

    /// Whether settlement waits for the chain to finalize a payment before forwarding it.
    pub fn effective_settle_only_finalized(&self) -> bool {
        self.settle_only_finalized.unwrap_or(!self.is_test_mode())
    }

    /// Blocks a transfer needs on top of it before it counts.
    pub fn effective_confirmations(&self) -> u64 {
        self.confirmations.unwrap_or(if self.is_test_mode() {
            0
        } else {
            DEFAULT_CONFIRMATIONS
        })
    }
}
