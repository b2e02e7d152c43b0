//! Test harness (feature `testing`): an in-process server on a temporary SQLite file, with a settable clock
//! and a merchant key holding every scope. Used by this crate's HTTP tests and by other crates' tests.
//!
//! ```text
//! let app = payments_server::testing::spawn_app().await;
//! // GET {app.base_url}/api/inventory with header X-Gateway-Subscription-Key: {app.key}
//! ```

mod admin;
pub mod anvil;
mod chain;
mod restart;
mod spend;

use std::future::Future;
use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Once};
use std::time::{Duration, Instant};

use payments_core::Wallet;
use tempfile::TempDir;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use url::Url;

use crate::app::App;
use crate::domain::api_key::SubscriptionId;
use crate::domain::scope::Scopes;
use crate::runtime::clock::{Clock, ManualClock};
use crate::runtime::config::ServerConfig;
use crate::secret::Secret;
use crate::services::keys::KeyAdmin;
use crate::store::Availability;

pub use admin::{AdminClient, TEST_ADMIN_PRIVATE_KEY, TEST_ADMIN_WALLET, sign_login, wallet_of_key};
pub use chain::TestChain;
/// A throwaway PostgreSQL database (for tests of the PostgreSQL backend, here and in other crates).
pub use payments_store::{PgBouncer, PgTestDatabase, ThrowawayCluster};
pub use spend::{TestCharge, TestPeriod, TestSpend, sign_hash, sign_permission};

/// Where the test clock starts: 2023-11-14T22:13:20Z.
pub const TEST_START_MS: i64 = 1_700_000_000_000;
/// The merchant of [`TestApp::key`].
pub const TEST_MERCHANT_WALLET: &str = "0x1111111111111111111111111111111111111111";
/// The platform's split recipient in the test config (share: [`crate::DEFAULT_PLATFORM_SHARE_BPS`]).
pub const TEST_PLATFORM_RECIPIENT: &str = "0x5050505050505050505050505050505050505050";

/// The `x-cron-secret` of the test config (unless [`TestOptions::without_cron_secret`]).
pub const TEST_CRON_SECRET: &str = "test-cron-secret";

/// Knobs for [`spawn_app_with`]; `Default` gives the production defaults.
#[derive(Debug, Clone, Default)]
pub struct TestOptions {
    /// Overrides [`crate::DEFAULT_MAX_BODY_BYTES`].
    pub max_body_bytes: Option<usize>,
    /// Overrides [`crate::DEFAULT_INVENTORY_LIST_BUDGET`].
    pub inventory_list_budget: Option<Duration>,
    /// Overrides the connection, timeout and body limits ([`crate::ServerLimits::default`]).
    pub limits: Option<crate::ServerLimits>,
    /// Overrides [`crate::DEFAULT_RATE_LIMIT_PER_MINUTE`].
    pub rate_limit_per_minute: Option<NonZeroU32>,
    /// Configures the edge-proxy secret.
    pub edge_secret: Option<String>,
    /// `--metrics-token`.
    pub metrics_token: Option<String>,
    /// Wallets with the `platform_admin` role.
    pub platform_admins: Vec<Wallet>,
    /// Leaves the platform split recipient unset (default: [`TEST_PLATFORM_RECIPIENT`]).
    pub without_platform_recipient: bool,
    /// Blocks a transfer needs on top of it before it counts (default: 0 on the test-mode chain).
    pub confirmations: Option<u64>,
    /// Run against this EVM node instead of the test-mode chain.
    pub node: Option<TestNode>,
    /// Settlement waits for the chain's finalized block (a node's default; the harness settles confirmed
    /// payments unless asked, so tests need not mine past finality).
    pub settle_only_finalized: bool,
    /// Leaves `--cron-secret` unset (default: [`TEST_CRON_SECRET`]).
    pub without_cron_secret: bool,
    /// Runs outside development mode (no test clock route).
    pub production_mode: bool,
    /// `--graphql-introspection`.
    pub graphql_introspection: bool,
    /// `--chain-contracts` on the test-mode chain (it sets the chain id and token too), e.g. to verify
    /// permissions signed for Base's spend permission manager.
    pub chain_contracts: Option<crate::ChainContracts>,
    /// `--subscription-spender`.
    pub subscription_spender: Option<Wallet>,
    /// `--subscription-fee-bps`.
    pub subscription_fee_bps: Option<u32>,
    /// `--subscription-lease-secs` (default 300 s).
    pub subscription_lease: Option<Duration>,
    /// Use this PostgreSQL database (e.g. a [`PgTestDatabase`]'s URL, shared by several instances) instead
    /// of a fresh SQLite file.
    pub postgres_url: Option<String>,
    /// On PostgreSQL, leave the master key unset, as `serve --dev` without `--master-key`: the instance takes
    /// the development master key recorded in the database (default: a fixed test key).
    pub dev_master_key_from_database: bool,
    /// `--onramp`: the card path's provider (tests point its API URL at a mock).
    pub onramp: Option<crate::OnrampConfig>,
}

/// The master key of test servers on a shared PostgreSQL database (32 bytes of 7, base64).
const SHARED_POSTGRES_MASTER_KEY: &str = "BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=";

/// An EVM node (anvil in tests) with the platform's contracts deployed.
#[derive(Debug, Clone)]
pub struct TestNode {
    /// Its JSON-RPC URL.
    pub rpc_url: String,
    /// What `chain bootstrap` deployed there.
    pub contracts: crate::ChainContracts,
    /// The relayer's private key (0x-hex).
    pub relayer_key: String,
}

/// Points `config` at `node` (or leaves the test-mode chain).
fn use_node(config: &mut ServerConfig, node: Option<&TestNode>) {
    let Some(node) = node else { return };
    config.chain_rpc_url =
        Some(Url::parse(&node.rpc_url).unwrap_or_else(|error| panic!("parsing {}: {error}", node.rpc_url)));
    config.chain_contracts = Some(node.contracts);
    config.chain_id = node.contracts.chain_id;
    config.token_address = node.contracts.token;
    config.relayer_key = Some(
        crate::RelayerKey::parse(&node.relayer_key)
            .unwrap_or_else(|error| panic!("the relayer key: {error}")),
    );
}

/// A key issued by the harness.
#[derive(Debug, Clone)]
pub struct TestKey {
    /// The key to send.
    pub key: String,
    /// Its subscription id.
    pub subscription_id: String,
    /// Its merchant.
    pub wallet: Wallet,
}

/// A running server. Dropping it stops the server and deletes its database.
#[derive(Debug)]
pub struct TestApp {
    /// `http://127.0.0.1:<port>`, without a trailing slash.
    pub base_url: String,
    /// A key of [`TestApp::wallet`] with every scope.
    pub key: String,
    /// Subscription id of [`TestApp::key`].
    pub subscription_id: String,
    /// The merchant of [`TestApp::key`] ([`TEST_MERCHANT_WALLET`]).
    pub wallet: Wallet,
    /// The app's clock; move it instead of sleeping.
    pub clock: Arc<ManualClock>,
    /// The SQLite file (e.g. to run the binary's `keys` commands against it).
    pub db_path: PathBuf,
    app: App,
    availability: Availability,
    shutdown: Option<oneshot::Sender<()>>,
    server: Option<JoinHandle<()>>,
    confirmations: Option<u64>,
    settle_only_finalized: bool,
    node: Option<TestNode>,
    _dir: TempDir,
}

/// Starts a server with the default options.
pub async fn spawn_app() -> TestApp {
    spawn_app_with(TestOptions::default()).await
}

/// Starts a server. Panics when it cannot (a harness failure is a test failure).
pub async fn spawn_app_with(options: TestOptions) -> TestApp {
    init_test_tracing();
    let dir = tempfile::tempdir().unwrap_or_else(|error| panic!("creating a temp dir: {error}"));
    let db_path = dir.path().join("payments.db");
    let (listener, base_url, mut config) = bind_loopback(&db_path).await;
    config.dev_mode = true;
    config.max_body_bytes = options.max_body_bytes.unwrap_or(config.max_body_bytes);
    config.inventory_list_budget = options
        .inventory_list_budget
        .unwrap_or(config.inventory_list_budget);
    config.limits = options.limits.unwrap_or(config.limits);
    config.rate_limit_per_minute = options
        .rate_limit_per_minute
        .unwrap_or(config.rate_limit_per_minute);
    config.edge_secret = options.edge_secret.map(Secret::new);
    config.metrics_token = options.metrics_token.map(Secret::new);
    config.platform_admins = options.platform_admins;
    config.platform_recipient = (!options.without_platform_recipient).then(|| test_wallet(0x50));
    config.confirmations = options.confirmations;
    config.settle_only_finalized = Some(options.settle_only_finalized);
    config.dev_mode = !options.production_mode;
    config.graphql_introspection = options.graphql_introspection;
    config.cron_secret = (!options.without_cron_secret).then(|| Secret::new(TEST_CRON_SECRET));
    if let Some(contracts) = options.chain_contracts {
        config.chain_id = contracts.chain_id;
        config.token_address = contracts.token;
        config.chain_contracts = Some(contracts);
    }
    config.subscription_spender = options.subscription_spender;
    config.subscription_fee_bps = options
        .subscription_fee_bps
        .unwrap_or(config.subscription_fee_bps);
    config.subscription_lease = options.subscription_lease.unwrap_or(config.subscription_lease);
    if let Some(url) = options.postgres_url {
        config.database = crate::store::DatabaseLocation::Postgres(url);
        // Development mode would keep its master key in a file in the working directory (PostgreSQL has no
        // file to sit beside): a fixed test key instead, the same for every instance sharing the database.
        if !options.dev_master_key_from_database {
            config.master_key =
                crate::runtime::master_key::MasterKey::parse_base64(SHARED_POSTGRES_MASTER_KEY).ok();
        }
    }
    if options.production_mode && config.master_key.is_none() {
        // A production server refuses to start without one (`serve` requires --master-key).
        config.master_key =
            crate::runtime::master_key::MasterKey::parse_base64(SHARED_POSTGRES_MASTER_KEY).ok();
    }
    config.onramp = options.onramp;
    use_node(&mut config, options.node.as_ref());
    let running = start_server(listener, config, None).await;
    let app = running.app.clone();
    let wallet = test_wallet(0x11);
    let issued = app
        .key_admin()
        .create(wallet, Scopes::all(), Some("test merchant".to_owned()))
        .await
        .unwrap_or_else(|error| panic!("creating the test key: {error}"));
    TestApp {
        base_url,
        key: issued.key.expose().to_owned(),
        subscription_id: issued.subscription_id.as_str().to_owned(),
        wallet,
        clock: running.clock,
        db_path,
        app,
        availability: running.availability,
        shutdown: Some(running.shutdown),
        server: Some(running.server),
        confirmations: options.confirmations,
        settle_only_finalized: options.settle_only_finalized,
        node: options.node,
        _dir: dir,
    }
}

/// A listener on a free loopback port, its base URL, and the default config for that URL and database.
async fn bind_loopback(db_path: &Path) -> (tokio::net::TcpListener, String, ServerConfig) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap_or_else(|error| panic!("binding 127.0.0.1:0: {error}"));
    let address = listener
        .local_addr()
        .unwrap_or_else(|error| panic!("reading the bound address: {error}"));
    let base_url = format!("http://{address}");
    let config = ServerConfig::new(
        db_path,
        Url::parse(&base_url).unwrap_or_else(|error| panic!("parsing {base_url}: {error}")),
    );
    (listener, base_url, config)
}

/// A server task on `listener`, over the config's database (with the switch that simulates outages) and a
/// manual clock at [`TEST_START_MS`].
struct RunningServer {
    app: App,
    clock: Arc<ManualClock>,
    availability: Availability,
    shutdown: oneshot::Sender<()>,
    server: JoinHandle<()>,
}

async fn start_server(
    listener: tokio::net::TcpListener,
    mut config: ServerConfig,
    chain: Option<Arc<crate::chain::simulated::SimulatedChain>>,
) -> RunningServer {
    // Tests wait for the chain workers with `eventually`; a short poll keeps them quick.
    config.chain_poll = Duration::from_millis(20);
    let clock = Arc::new(ManualClock::new(TEST_START_MS));
    let repositories = crate::store::open(&config.database, TEST_START_MS)
        .await
        .unwrap_or_else(|error| panic!("opening the db: {error}"));
    crate::services::instance_settings::agree_with_database(
        &mut config,
        repositories.keys.as_ref(),
        TEST_START_MS,
    )
    .await
    .unwrap_or_else(|error| panic!("starting on the db: {error}"));
    let availability = repositories.availability.clone();
    let app = App::with_repositories(config, repositories, Arc::clone(&clock) as Arc<dyn Clock>, chain);
    let (shutdown, signal) = oneshot::channel::<()>();
    let server = tokio::spawn(crate::serve(listener, app.clone(), async {
        signal.await.ok();
    }));
    RunningServer {
        app,
        clock,
        availability,
        shutdown,
        server,
    }
}

impl TestApp {
    /// `base_url` + `path` (`path` starts with `/`).
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base_url)
    }

    /// Key administration on this app's database.
    pub fn key_admin(&self) -> KeyAdmin {
        self.app.key_admin()
    }

    /// Issues a key for `wallet` with comma-separated `scopes` (e.g. `"inventory:read"`; `""` for none).
    pub async fn create_key(&self, wallet: Wallet, scopes: &str) -> TestKey {
        let scopes: Scopes = scopes
            .parse()
            .unwrap_or_else(|error| panic!("scopes {scopes}: {error}"));
        let issued = self
            .key_admin()
            .create(wallet, scopes, None)
            .await
            .unwrap_or_else(|error| panic!("create key: {error}"));
        TestKey {
            key: issued.key.expose().to_owned(),
            subscription_id: issued.subscription_id.as_str().to_owned(),
            wallet,
        }
    }

    /// Revokes a key by subscription id.
    pub async fn revoke_key(&self, subscription_id: &str) {
        self.key_admin()
            .revoke(&SubscriptionId::new(subscription_id))
            .await
            .unwrap_or_else(|error| panic!("revoke {subscription_id}: {error}"));
    }

    /// Makes every datastore operation fail (`false`) or work again (`true`).
    pub fn set_datastore_available(&self, available: bool) {
        self.availability.set_available(available);
    }

    /// Signals shutdown and waits for the server to finish its in-flight requests.
    pub async fn shutdown(mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            shutdown.send(()).ok();
        }
        if let Some(server) = self.server.take() {
            server.await.ok();
        }
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(server) = self.server.take() {
            server.abort();
        }
    }
}

/// A wallet made of one repeated byte: `test_wallet(0x22)` is `0x2222...22`.
pub fn test_wallet(byte: u8) -> Wallet {
    let text = format!("0x{}", format!("{byte:02x}").repeat(20));
    Wallet::parse(&text).unwrap_or_else(|error| panic!("{text}: {error}"))
}

/// Polls `check` until it returns `Some`, for at most `timeout`; panics with `what` when time runs out.
/// The bounded alternative to sleeping in tests.
pub async fn eventually<T, F, Fut>(what: &str, timeout: Duration, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Option<T>>,
{
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(value) = check().await {
            return value;
        }
        if Instant::now() >= deadline {
            panic!("timed out after {timeout:?} waiting for {what}");
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Logs go to the test's captured output (shown for failing tests); level from `RUST_LOG`, default `info`.
fn init_test_tracing() {
    static INIT: Once = Once::new();
    INIT.call_once(|| {
        let filter = tracing_subscriber::EnvFilter::try_from_default_env()
            .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
        tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_test_writer()
            .try_init()
            .ok();
    });
}
