//! The flags of `serve` (and of `config check`, which validates the same configuration) and how they become
//! a [`ServerConfig`]. Every flag has a `PAYMENTS_*` environment variable and is a key of the `--config`
//! file (config_file.rs): add a flag here and all three work.

use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context as _;
use clap::Args;
use payments_core::Wallet;
use payments_server::{
    ChainContracts, DatabaseLocation, DevModeInputs, LogFormat, MasterKey, Secret, ServerConfig, ServerLimits,
};
use url::Url;

use crate::cli::chain_args;

#[derive(Debug, Args)]
pub(crate) struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "PAYMENTS_LISTEN", default_value = "127.0.0.1:8080")]
    pub(crate) listen: SocketAddr,
    /// The database: a SQLite file (created with its schema if missing), or a PostgreSQL URL
    /// (`postgres://user@host:5432/dbname`) for deployments with several server instances.
    #[arg(long, env = "PAYMENTS_DB", default_value = "payments.db", hide_env_values = true, value_parser = parse_database)]
    pub(crate) db: DatabaseLocation,
    /// Public base URL used in payment links [default: http://<listen>].
    #[arg(long, env = "PAYMENTS_BASE_URL")]
    pub(crate) base_url: Option<Url>,
    /// Development mode: on a fresh database, create the development merchant and print a key with every scope;
    /// webhooks may go to loopback. Without the flag, on only for a new (or development-made) SQLite database
    /// on a loopback address with no --jwt-secret/--master-key; never with either; `--dev=false` turns it off.
    #[arg(long, env = "PAYMENTS_DEV", num_args = 0..=1, default_missing_value = "true", require_equals = true)]
    pub(crate) dev: Option<bool>,
    /// Log line format.
    #[arg(long, env = "PAYMENTS_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub(crate) log_format: LogFormat,
    /// Requests per minute allowed per subscription key.
    #[arg(long, env = "PAYMENTS_RATE_LIMIT_PER_MINUTE", default_value_t = payments_server::DEFAULT_RATE_LIMIT_PER_MINUTE)]
    rate_limit_per_minute: NonZeroU32,
    /// Milliseconds a key confirmed by the database is answered from memory; a key revoked with `keys revoke`
    /// (or on another instance) keeps working at most this long. 0 looks every key up on every request.
    #[arg(long, env = "PAYMENTS_KEY_CACHE_MS", default_value_t = payments_server::DEFAULT_KEY_CACHE_MS)]
    key_cache_ms: u64,
    /// Shared secret of a trusted edge proxy: `x-edge-secret` + `x-subscription-id` then identify the caller.
    #[arg(long, env = "PAYMENTS_EDGE_SECRET", hide_env_values = true)]
    edge_secret: Option<String>,
    /// Bearer token that GET /metrics requires; without one, /metrics answers only on a loopback listener,
    /// to requests without proxy headers.
    #[arg(long, env = "PAYMENTS_METRICS_TOKEN", hide_env_values = true)]
    metrics_token: Option<String>,
    /// Largest body of POST /api/inventory (a product with data-URL images), in bytes (413 above it).
    #[arg(long, env = "PAYMENTS_MAX_BODY_BYTES", default_value_t = payments_server::DEFAULT_MAX_BODY_BYTES)]
    max_body_bytes: usize,
    /// Answer GraphQL introspection queries (`__schema`, `__type`) in production; development mode always
    /// does. Off by default, so a production server does not describe its schema to every key.
    #[arg(long, env = "PAYMENTS_GRAPHQL_INTROSPECTION")]
    graphql_introspection: bool,
    #[command(flatten)]
    limits: LimitArgs,
    #[command(flatten)]
    admin: AdminArgs,
    #[command(flatten)]
    receipts: ReceiptArgs,
    #[command(flatten)]
    pub(crate) chain: chain_args::ChainArgs,
    #[command(flatten)]
    subscriptions: crate::cli::subscription_args::SubscriptionArgs,
    #[command(flatten)]
    onramp: crate::cli::onramp_args::OnrampArgs,
}

/// Connection, timeout and body limits (docs/benchmarks.md shows them under load).
#[derive(Debug, Args)]
pub(crate) struct LimitArgs {
    /// Connections served at once; more are answered 503 overloaded and closed. Lowered at start when the
    /// open-file limit cannot hold it.
    #[arg(long, env = "PAYMENTS_MAX_CONNECTIONS", default_value_t = payments_server::DEFAULT_MAX_CONNECTIONS)]
    max_connections: usize,
    /// Seconds to receive a request's headers; also the idle limit of a keep-alive connection.
    #[arg(long, env = "PAYMENTS_HEADER_TIMEOUT_SECS", default_value_t = payments_server::DEFAULT_HEADER_TIMEOUT.as_secs())]
    header_timeout_secs: u64,
    /// Seconds to receive a whole request body (408 body_timeout after it).
    #[arg(long, env = "PAYMENTS_BODY_TIMEOUT_SECS", default_value_t = payments_server::DEFAULT_BODY_TIMEOUT.as_secs())]
    body_timeout_secs: u64,
    /// Seconds for one request in all, body included (503 deadline_exceeded after it).
    #[arg(long, env = "PAYMENTS_REQUEST_DEADLINE_SECS", default_value_t = payments_server::DEFAULT_REQUEST_DEADLINE.as_secs())]
    request_deadline_secs: u64,
    /// Largest body of the JSON routes other than POST /api/inventory, in bytes (413 above it).
    #[arg(long, env = "PAYMENTS_MAX_JSON_BODY_BYTES", default_value_t = payments_server::DEFAULT_MAX_JSON_BODY_BYTES)]
    max_json_body_bytes: usize,
}

impl LimitArgs {
    fn limits(&self) -> ServerLimits {
        ServerLimits {
            max_connections: self.max_connections,
            header_timeout: Duration::from_secs(self.header_timeout_secs),
            body_timeout: Duration::from_secs(self.body_timeout_secs),
            request_deadline: Duration::from_secs(self.request_deadline_secs),
            max_json_body_bytes: self.max_json_body_bytes,
        }
    }
}

/// Admin sign-in and split settings.
#[derive(Debug, Args)]
pub(crate) struct AdminArgs {
    /// Sign-in requests (/api/auth/nonce, /api/auth/login) per minute per client address.
    #[arg(
        long,
        env = "PAYMENTS_SIGN_IN_RATE_LIMIT_PER_MINUTE",
        default_value_t = payments_server::DEFAULT_SIGN_IN_RATE_LIMIT_PER_MINUTE
    )]
    sign_in_rate_limit_per_minute: NonZeroU32,
    /// Chain id of the admin sign-in's EIP-712 domain and of payments (on the test-mode chain, without
    /// --chain-rpc-url, always the local test chain 31337 and its test token).
    #[arg(long, env = "PAYMENTS_CHAIN_ID", default_value_t = payments_core::BASE_MAINNET_CHAIN_ID)]
    chain_id: u64,
    /// HS256 secret of admin session cookies. Required outside development mode; in development mode a
    /// random one is drawn at start, so admin sessions end when the server restarts.
    #[arg(long, env = "PAYMENTS_JWT_SECRET", hide_env_values = true)]
    jwt_secret: Option<String>,
    /// Comma-separated wallets with the platform_admin role.
    #[arg(long, env = "PAYMENTS_PLATFORM_ADMINS", value_delimiter = ',')]
    platform_admins: Vec<Wallet>,
    /// The platform's split recipient [development default: 0xdec0de0000000000000000000000000000000002].
    #[arg(long, env = "PAYMENTS_PLATFORM_RECIPIENT")]
    platform_recipient: Option<Wallet>,
    /// The platform recipient's share of every split, in basis points.
    #[arg(long, env = "PAYMENTS_PLATFORM_SHARE_BPS", default_value_t = payments_server::DEFAULT_PLATFORM_SHARE_BPS)]
    platform_share_bps: u32,
    /// Contract address of the payment token (6-decimal USD stablecoin) [default: USDC on Base].
    #[arg(long, env = "PAYMENTS_TOKEN_ADDRESS", default_value_t = payments_server::BASE_USDC)]
    token_address: Wallet,
    /// The platform's contracts on the chain: the JSON object `{ "chainId", "token", "splitFactory",
    /// "depositFactory" }` (what contract bootstrap prints). It sets the chain id and token too. Without it,
    /// development mode assumes a fresh local anvil (docs/contracts.md) and production splits need a given
    /// splitAddress.
    #[arg(long, env = "PAYMENTS_CHAIN_CONTRACTS", value_name = "FILE")]
    chain_contracts: Option<PathBuf>,
}

/// Receipt signing-key sealing and webhook delivery.
#[derive(Debug, Args)]
pub(crate) struct ReceiptArgs {
    /// Master key sealing the API keys stored with receipts (webhook signing keys): 32 bytes, standard
    /// base64 (`openssl rand -base64 32`). Required outside development mode; without it, development mode
    /// keeps one in `<db>.master.key` beside the database (created 0600).
    #[arg(long, env = "PAYMENTS_MASTER_KEY", hide_env_values = true)]
    master_key: Option<String>,
    /// Time allowed for one webhook attempt, in milliseconds.
    #[arg(long, env = "PAYMENTS_WEBHOOK_TIMEOUT_MS", default_value_t = 5000)]
    webhook_timeout_ms: u64,
    /// Delays before each webhook retry, in milliseconds, comma-separated (default: one retry after 5 s).
    #[arg(
        long,
        env = "PAYMENTS_WEBHOOK_RETRY_DELAYS_MS",
        value_delimiter = ',',
        default_value = "5000"
    )]
    webhook_retry_delays_ms: Vec<u64>,
    /// Delays before each retry of a webhook endpoint's delivery, in seconds, comma-separated (default: 5 s,
    /// 5 min, 30 min, 2 h, 5 h, then 10 h six times: about 3 days; docs/webhooks.md#retries).
    #[arg(
        long,
        env = "PAYMENTS_ENDPOINT_RETRY_SCHEDULE_SECS",
        value_delimiter = ',',
        default_value = "5,300,1800,7200,18000,36000,36000,36000,36000,36000,36000"
    )]
    endpoint_retry_schedule_secs: Vec<u64>,
    /// Minutes a new receipt waits for its payment unless it is created with `expiresInMins`; unpaid then,
    /// it fails and its order's stock is released (docs/money.md).
    #[arg(
        long,
        env = "PAYMENTS_PAYMENT_WINDOW_MINS",
        default_value_t = payments_server::DEFAULT_PAYMENT_WINDOW_MINS,
        value_parser = clap::value_parser!(u32).range(5..=10_080)
    )]
    payment_window_mins: u32,
    /// Days the deposit address of an expired receipt stays watched: a payment in that time makes it paid
    /// with `paidLate`.
    #[arg(
        long,
        env = "PAYMENTS_LATE_PAYMENT_WATCH_DAYS",
        default_value_t = payments_server::DEFAULT_LATE_PAYMENT_WATCH_DAYS,
        value_parser = clap::value_parser!(u32).range(1..=3_650)
    )]
    late_payment_watch_days: u32,
}

fn apply_receipt_args(config: &mut ServerConfig, args: &ReceiptArgs) -> anyhow::Result<()> {
    config.webhook_timeout = Duration::from_millis(args.webhook_timeout_ms);
    config.payment_window_mins = args.payment_window_mins;
    config.late_payment_watch_days = args.late_payment_watch_days;
    config.webhook_retry_delays = args
        .webhook_retry_delays_ms
        .iter()
        .copied()
        .map(Duration::from_millis)
        .collect();
    config.endpoint_retry_delays = args
        .endpoint_retry_schedule_secs
        .iter()
        .copied()
        .map(Duration::from_secs)
        .collect();
    match &args.master_key {
        Some(text) => {
            config.master_key = Some(MasterKey::parse_base64(text).context("reading --master-key")?);
        }
        None if !config.dev_mode => {
            anyhow::bail!(
                "--master-key (PAYMENTS_MASTER_KEY) is required outside development mode (--dev for a local try-out)"
            )
        }
        None => {}
    }
    Ok(())
}

/// Admin sign-in and split settings; development mode fills in what a local try-out needs.
fn apply_admin_args(config: &mut ServerConfig, args: &AdminArgs) -> anyhow::Result<()> {
    config.chain_id = args.chain_id;
    config.platform_admins = args.platform_admins.clone();
    config.platform_share_bps = args.platform_share_bps;
    config.token_address = args.token_address;
    if let Some(path) = &args.chain_contracts {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("reading --chain-contracts {}", path.display()))?;
        let contracts = ChainContracts::from_json(&text)
            .with_context(|| format!("parsing --chain-contracts {}", path.display()))?;
        config.chain_id = contracts.chain_id;
        config.token_address = contracts.token;
        config.chain_contracts = Some(contracts);
    }
    config.platform_recipient = args
        .platform_recipient
        .or(config.dev_mode.then_some(payments_server::DEV_PLATFORM_RECIPIENT));
    match &args.jwt_secret {
        Some(secret) => config.jwt_secret = Secret::new(secret.as_str()),
        None if !config.dev_mode => {
            anyhow::bail!(
                "--jwt-secret (PAYMENTS_JWT_SECRET) is required outside development mode (--dev for a local try-out)"
            )
        }
        None => {
            tracing::warn!("no --jwt-secret: using a random one; admin sessions end when the server restarts")
        }
    }
    Ok(())
}

pub(crate) fn parse_database(value: &str) -> Result<DatabaseLocation, String> {
    if value.trim().is_empty() {
        return Err("the database must be a file path or a postgres:// URL".to_owned());
    }
    Ok(DatabaseLocation::parse(value))
}

/// The configuration `serve` would run with, and what it was decided from.
#[derive(Debug)]
pub(crate) struct Prepared {
    /// Everything the app needs.
    pub(crate) config: ServerConfig,
    /// Whether `--base-url` was given (else it follows the bound address).
    pub(crate) explicit_base_url: bool,
}

/// Turns the flags into the server's configuration, exactly as `serve` runs it; `config check` calls it too.
/// Decides development mode first, since the admin and receipt settings depend on it.
pub(crate) fn build_config(args: &ServeArgs) -> anyhow::Result<Prepared> {
    let explicit_base_url = args.base_url.is_some();
    let base_url = match &args.base_url {
        Some(url) => url.clone(),
        None => Url::parse(&format!("http://{}", args.listen)).context("building the default base URL")?,
    };
    let dev_mode = payments_server::decide_dev_mode(DevModeInputs {
        explicit: args.dev,
        production_secrets: args.admin.jwt_secret.is_some() || args.receipts.master_key.is_some(),
        database: &args.db,
        listen: args.listen,
    })?;
    let mut config = ServerConfig::new(args.db.clone(), base_url);
    config.dev_mode = dev_mode;
    apply_admin_args(&mut config, &args.admin)?;
    apply_receipt_args(&mut config, &args.receipts)?;
    chain_args::apply_chain_args(&mut config, &args.chain)?;
    crate::cli::subscription_args::apply_subscription_args(&mut config, &args.subscriptions)?;
    crate::cli::onramp_args::apply_onramp_args(&mut config, &args.onramp)?;
    config.rate_limit_per_minute = args.rate_limit_per_minute;
    config.key_cache = Duration::from_millis(args.key_cache_ms);
    config.sign_in_rate_limit_per_minute = args.admin.sign_in_rate_limit_per_minute;
    config.edge_secret = args.edge_secret.as_deref().map(Secret::new);
    config.metrics_token = args.metrics_token.as_deref().map(Secret::new);
    config.max_body_bytes = args.max_body_bytes;
    config.graphql_introspection = args.graphql_introspection;
    config.limits = args.limits.limits();
    Ok(Prepared {
        config,
        explicit_base_url,
    })
}
