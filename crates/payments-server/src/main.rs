//! `payments-server`: run the HTTP server (default) or administer subscription keys.

use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::path::PathBuf;

use std::sync::Arc;
use std::time::Duration;

mod chain_args;
mod subscription_args;

use anyhow::Context as _;
use clap::{Args, Parser, Subcommand};
use payments_core::Wallet;
use payments_server::{
    App, ChainContracts, IssuedKey, KeyAdmin, LogFormat, Scopes, Secret, ServerConfig, ServerLimits,
    Subscription, SubscriptionId, SystemClock,
};
use payments_server::{Clock, OffsetClock};
use payments_server::{DatabaseLocation, DevModeInputs, MasterKey};
use serde_json::json;
use url::Url;

/// Merchant payments server. Without a subcommand it runs `serve`.
#[derive(Debug, Parser)]
#[command(version, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    serve: ServeArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the HTTP server (the default).
    /// Boxed: the serve flags are many and `Keys` is small (clippy `large_enum_variant`).
    Serve(Box<ServeArgs>),
    /// Create, list, revoke and rotate subscription keys.
    Keys(KeysArgs),
    /// Deploy the platform's contracts on a chain (`chain bootstrap`).
    Chain(chain_args::ChainCommandArgs),
}

#[derive(Debug, Args)]
struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "PAYMENTS_LISTEN", default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// The database: a SQLite file (created with its schema if missing), or a PostgreSQL URL
    /// (`postgres://user@host:5432/dbname`) for deployments with several server instances.
    #[arg(long, env = "PAYMENTS_DB", default_value = "payments.db", hide_env_values = true, value_parser = parse_database)]
    db: DatabaseLocation,
    /// Public base URL used in payment links [default: http://<listen>].
    #[arg(long, env = "PAYMENTS_BASE_URL")]
    base_url: Option<Url>,
    /// Development mode: on a fresh database, create the development merchant and print a key with every scope;
    /// webhooks may go to loopback. Without the flag, on only for a new (or development-made) SQLite database
    /// on a loopback address with no --jwt-secret/--master-key; never with either; `--dev=false` turns it off.
    #[arg(long, env = "PAYMENTS_DEV", num_args = 0..=1, default_missing_value = "true", require_equals = true)]
    dev: Option<bool>,
    /// Log line format.
    #[arg(long, env = "PAYMENTS_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
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
    #[command(flatten)]
    limits: LimitArgs,
    #[command(flatten)]
    admin: AdminArgs,
    #[command(flatten)]
    receipts: ReceiptArgs,
    #[command(flatten)]
    chain: chain_args::ChainArgs,
    #[command(flatten)]
    subscriptions: subscription_args::SubscriptionArgs,
}

/// Connection, timeout and body limits (docs/benchmarks.md shows them under load).
#[derive(Debug, Args)]
struct LimitArgs {
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
struct AdminArgs {
    /// Sign-in requests (/api/auth/nonce, /api/auth/login) per minute per client address.
    #[arg(
        long,
        env = "PAYMENTS_SIGN_IN_RATE_LIMIT_PER_MINUTE",
        default_value_t = payments_server::DEFAULT_SIGN_IN_RATE_LIMIT_PER_MINUTE
    )]
    sign_in_rate_limit_per_minute: NonZeroU32,
    /// Chain id of the admin sign-in's EIP-712 domain.
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

#[derive(Debug, Args)]
struct KeysArgs {
    /// The database: a SQLite file or a PostgreSQL URL.
    #[arg(long, env = "PAYMENTS_DB", default_value = "payments.db", global = true, hide_env_values = true, value_parser = parse_database)]
    db: DatabaseLocation,
    /// Create the SQLite file (with its schema) when it does not exist. Without it a missing file is refused:
    /// run in the server's working directory, or name the server's database with --db.
    #[arg(long, env = "PAYMENTS_KEYS_CREATE_DB", global = true)]
    create_db: bool,
    #[command(subcommand)]
    command: KeysCommand,
}

#[derive(Debug, Subcommand)]
enum KeysCommand {
    /// Issue a key; prints {subscriptionId, key, wallet, scopes} as JSON. The key is shown only this once.
    Create {
        /// Merchant wallet (0x + 40 hex digits) the key acts for.
        #[arg(long, env = "PAYMENTS_KEY_WALLET")]
        wallet: Wallet,
        /// Comma-separated scopes [default: all: inventory:read, inventory:write, orders:create,
        /// receipts:read, receipts:write, shop:read, split:read, users:read, graphql:read, subscriptions:read,
        /// subscriptions:write].
        #[arg(long, env = "PAYMENTS_KEY_SCOPES")]
        scopes: Option<Scopes>,
        /// A label for the key.
        #[arg(long, env = "PAYMENTS_KEY_NAME")]
        name: Option<String>,
    },
    /// List subscriptions as a JSON array (never the keys: only their hashes are stored).
    List,
    /// Revoke a key by subscription id; it stops working at once.
    Revoke {
        /// Subscription id (sub_...).
        id: String,
    },
    /// Revoke a key and print a new one for the same wallet and scopes.
    Rotate {
        /// Subscription id (sub_...).
        id: String,
    },
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        None => serve(cli.serve),
        Some(Command::Serve(args)) => serve(*args),
        Some(Command::Keys(args)) => keys(args),
        Some(Command::Chain(args)) => chain_args::chain_command(args),
    }
}

fn serve(args: ServeArgs) -> anyhow::Result<()> {
    let _log_guard =
        payments_server::init_tracing(args.log_format).map_err(|error| anyhow::anyhow!(error))?;
    let explicit_base_url = args.base_url.is_some();
    let base_url = match args.base_url {
        Some(url) => url,
        None => Url::parse(&format!("http://{}", args.listen)).context("building the default base URL")?,
    };
    let db_display = args.db.to_string();
    let dev_mode = payments_server::decide_dev_mode(DevModeInputs {
        explicit: args.dev,
        production_secrets: args.admin.jwt_secret.is_some() || args.receipts.master_key.is_some(),
        database: &args.db,
        listen: args.listen,
    })?;
    if dev_mode {
        eprintln!("{}", payments_server::DEV_MODE_WARNING);
        tracing::warn!("development mode");
    }
    let mut config = ServerConfig::new(args.db, base_url);
    config.dev_mode = dev_mode;
    apply_admin_args(&mut config, &args.admin)?;
    apply_receipt_args(&mut config, &args.receipts)?;
    chain_args::apply_chain_args(&mut config, &args.chain)?;
    subscription_args::apply_subscription_args(&mut config, &args.subscriptions)?;
    config.rate_limit_per_minute = args.rate_limit_per_minute;
    config.key_cache = Duration::from_millis(args.key_cache_ms);
    config.sign_in_rate_limit_per_minute = args.admin.sign_in_rate_limit_per_minute;
    config.edge_secret = args.edge_secret.map(Secret::new);
    config.metrics_token = args.metrics_token.map(Secret::new);
    config.max_body_bytes = args.max_body_bytes;
    config.limits = args.limits.limits();
    let open_files = payments_server::raise_open_file_limit();
    tracing::info!(open_files, "open-file limit");
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(async move {
        // Bound before anything is created or printed: with the port taken, the start fails before the
        // development key exists, so the next start (on a free port) still prints it.
        let listener = tokio::net::TcpListener::bind(args.listen)
            .await
            .with_context(|| {
                format!(
                    "binding {} (is another server running there? --listen picks another address)",
                    args.listen
                )
            })?;
        if !explicit_base_url && let Ok(bound) = listener.local_addr() {
            // `--listen 127.0.0.1:0`: payment links and the printed example name the port actually bound.
            config.base_url =
                Url::parse(&format!("http://{bound}")).context("building the default base URL")?;
        }
        // Development mode runs the test clock (POST /api/test-clock/advance); production the wall clock.
        let clock: Arc<dyn Clock> = if config.dev_mode {
            Arc::new(OffsetClock::new())
        } else {
            Arc::new(SystemClock)
        };
        let app = App::open(config, clock)
            .await
            .with_context(|| format!("opening the database {db_display}"))?;
        if let Some(welcome) = app
            .bootstrap_development()
            .await
            .context("creating the development merchant")?
        {
            print!("{}", welcome.render(&app.config().base_url));
        }
        tracing::info!(listen = %args.listen, dev = app.config().dev_mode, "payments-server listening");
        payments_server::serve(listener, app, payments_server::shutdown_signal()).await;
        Ok(())
    })
}

/// Receipt signing-key sealing and webhook delivery.
#[derive(Debug, Args)]
struct ReceiptArgs {
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
}

fn apply_receipt_args(config: &mut ServerConfig, args: &ReceiptArgs) -> anyhow::Result<()> {
    config.webhook_timeout = Duration::from_millis(args.webhook_timeout_ms);
    config.webhook_retry_delays = args
        .webhook_retry_delays_ms
        .iter()
        .copied()
        .map(Duration::from_millis)
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

fn parse_database(value: &str) -> Result<DatabaseLocation, String> {
    if value.trim().is_empty() {
        return Err("the database must be a file path or a postgres:// URL".to_owned());
    }
    Ok(DatabaseLocation::parse(value))
}

fn keys(args: KeysArgs) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(keys_command(args))
}

async fn keys_command(args: KeysArgs) -> anyhow::Result<()> {
    if let Some(path) = args.db.sqlite_path()
        && !args.create_db
        && !path.exists()
    {
        anyhow::bail!(
            "no database at {}: run the command where the server runs, or name its database with --db \
             (PAYMENTS_DB); --create-db makes a new, empty one",
            path.display()
        );
    }
    let admin = KeyAdmin::open(&args.db, Arc::new(SystemClock))
        .await
        .with_context(|| format!("opening the database {}", args.db))?;
    let output = match args.command {
        KeysCommand::Create { wallet, scopes, name } => {
            let issued = admin
                .create(wallet, scopes.unwrap_or_else(Scopes::all), name)
                .await
                .context("creating a key")?;
            issued_json(&issued)
        }
        KeysCommand::List => {
            let subscriptions = admin.list().await.context("listing keys")?;
            serde_json::Value::Array(subscriptions.iter().map(subscription_json).collect())
        }
        KeysCommand::Revoke { id } => {
            let id = SubscriptionId::new(id);
            admin
                .revoke(&id)
                .await
                .with_context(|| format!("revoking {id}"))?;
            json!({"subscriptionId": id.as_str(), "revoked": true})
        }
        KeysCommand::Rotate { id } => {
            let issued = admin
                .rotate(&SubscriptionId::new(id.as_str()))
                .await
                .with_context(|| format!("rotating {id}"))?;
            issued_json(&issued)
        }
    };
    println!(
        "{}",
        serde_json::to_string_pretty(&output).context("rendering the output")?
    );
    Ok(())
}

fn issued_json(issued: &IssuedKey) -> serde_json::Value {
    json!({
        "subscriptionId": issued.subscription_id.as_str(),
        "key": issued.key.expose(),
        "wallet": issued.wallet,
        "scopes": issued.scopes,
        "name": issued.name,
    })
}

fn subscription_json(subscription: &Subscription) -> serde_json::Value {
    json!({
        "subscriptionId": subscription.id.as_str(),
        "wallet": subscription.wallet,
        "scopes": subscription.scopes,
        "name": subscription.name,
        "createdAt": subscription.created_at,
        "revokedAt": subscription.revoked_at,
        "active": subscription.revoked_at.is_none(),
    })
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory as _;

    use super::Cli;

    #[test]
    fn the_command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    /// Every flag, of today and of tomorrow, must be settable from the environment and explained by --help.
    #[test]
    fn every_serve_flag_has_an_env_var_and_help_text() {
        let cli = Cli::command();
        let flags: Vec<_> = cli
            .get_arguments()
            .filter(|arg| {
                arg.get_long()
                    .is_some_and(|long| long != "help" && long != "version")
            })
            .collect();

        assert!(flags.len() >= 18, "only {} flags found", flags.len());
        for flag in flags {
            let long = flag.get_long().unwrap_or_default();
            let env = flag.get_env().and_then(|env| env.to_str()).unwrap_or_default();
            assert!(env.starts_with("PAYMENTS_"), "--{long} has no PAYMENTS_* env var");
            assert!(flag.get_help().is_some(), "--{long} has no help text");
        }
    }
}
