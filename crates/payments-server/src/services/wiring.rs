//! Builds every service from the repositories, the clock and the configuration: the one place that knows
//! which service needs what.

use std::sync::Arc;

use payments_core::ReserveRule;
use tokio::sync::Notify;

use crate::chain::Chain;
use crate::chain::rpc::RpcChain;
use crate::chain::simulated::SimulatedChain;
use crate::domain::api_key::KeyMode;
use crate::domain::chain::ChainContracts;
use crate::domain::receipt::TargetPolicy;
use crate::runtime::clock::Clock;
use crate::runtime::config::ServerConfig;
use crate::runtime::master_key::MasterKey;
use crate::runtime::metrics::Metrics;
use crate::services::admin_auth::AdminAuthService;
use crate::services::auth::Authenticator;
use crate::services::billing::BillingService;
use crate::services::chain::ChainWorkers;
use crate::services::chain::settlement::Settlement;
use crate::services::chain::watcher::DepositWatcher;
use crate::services::health::HealthService;
use crate::services::idempotency::IdempotencyService;
use crate::services::inventory::InventoryService;
use crate::services::keys::KeyAdmin;
use crate::services::ledger::LedgerService;
use crate::services::onramp::OnrampService;
use crate::services::receipts::Deposits;
use crate::services::receipts::{Dispatcher, ReceiptService};
use crate::services::recent_callers::RecentCallers;
use crate::services::reconcile::ReconcileService;
use crate::services::recurring::{RecurringService, RecurringTerms};
use crate::services::reserve::ReserveService;
use crate::services::shop::ShopService;
use crate::services::split::SplitService;
use crate::services::split_transactions::SplitTransactionsService;
use crate::services::users::UserService;
use crate::services::webhook_endpoints::WebhookEndpointService;
use crate::store::Repositories;

/// Every service of the server.
#[derive(Debug)]
pub(crate) struct Services {
    pub(crate) auth: Authenticator,
    pub(crate) admin_auth: AdminAuthService,
    pub(crate) health: HealthService,
    /// Keeps the answers of claimed use cases after they committed.
    pub(crate) idempotency: IdempotencyService,
    pub(crate) inventory: InventoryService,
    pub(crate) receipts: ReceiptService,
    pub(crate) shop: ShopService,
    pub(crate) split: SplitService,
    pub(crate) split_transactions: SplitTransactionsService,
    pub(crate) reserve: ReserveService,
    pub(crate) users: UserService,
    pub(crate) billing: BillingService,
    pub(crate) ledger: LedgerService,
    pub(crate) reconcile: ReconcileService,
    pub(crate) recurring: RecurringService,
    pub(crate) keys: KeyAdmin,
    pub(crate) dispatcher: Arc<Dispatcher>,
    pub(crate) webhook_endpoints: WebhookEndpointService,
    /// The chain payments are taken on.
    pub(crate) chain: Arc<dyn Chain>,
    /// The same chain when it is the test-mode one: resumed at start where the watcher left it; tests mine and
    /// reorganise it.
    pub(crate) simulated: Option<Arc<SimulatedChain>>,
    /// `None` when the chain's factories are unknown (nothing to watch).
    pub(crate) chain_workers: Option<ChainWorkers>,
    /// The card path; `None` without `--onramp` (the payment page then offers no "Pay with card").
    pub(crate) onramp: Option<OnrampService>,
}

impl Services {
    /// `simulated`: the test-mode chain to use (a test server restarted on the same chain); `None` makes one
    /// when no RPC URL is configured.
    pub(crate) fn new(
        config: &ServerConfig,
        repos: &Repositories,
        clock: &Arc<dyn Clock>,
        simulated: Option<Arc<SimulatedChain>>,
        metrics: &Arc<Metrics>,
    ) -> Self {
        let master_key = master_key(config);
        let wakeup = Arc::new(Notify::new());
        let (chain, simulated) = chain(config, simulated, clock);
        let chain_wakeup = Arc::new(Notify::new());
        let receipts = ReceiptService {
            receipts: Arc::clone(&repos.receipts),
            outbox: Arc::clone(&repos.outbox),
            shops: Arc::clone(&repos.shops),
            clock: Arc::clone(clock),
            master_key: master_key.clone(),
            wakeup: Arc::clone(&wakeup),
            base_url: config.base_url.clone(),
            deposits: Deposits {
                contracts: config.effective_chain_contracts(),
                token: config.token_address,
            },
            admin_attests_payments: config.is_test_mode(),
            chain: Arc::clone(&chain),
            chain_wakeup: Arc::clone(&chain_wakeup),
            chain_records: Arc::clone(&repos.chain),
            payment_window: config.payment_window(),
            confirmations: config.effective_confirmations(),
        };
        let chain_workers = chain_workers(config, repos, clock, &chain, &receipts, chain_wakeup);
        let onramp = onramp(config, repos, clock);
        let split_transactions = SplitTransactionsService {
            chain: Arc::clone(&chain),
            shops: Arc::clone(&repos.shops),
            reserve: Arc::clone(&repos.reserve),
            chain_id: config.chain_id,
            token: config.token_address,
            confirmations: config.effective_confirmations(),
            platform_recipient: config.platform_recipient,
        };
        let reserve = ReserveService {
            chain: Arc::clone(&chain),
            shops: Arc::clone(&repos.shops),
            reserve: Arc::clone(&repos.reserve),
            clock: Arc::clone(clock),
            chain_id: config.chain_id,
            token: config.token_address,
            rule: ReserveRule::DEFAULT,
        };
        let users = UserService {
            users: Arc::clone(&repos.users),
            clock: Arc::clone(clock),
        };
        Services {
            auth: Authenticator {
                keys: Arc::clone(&repos.keys),
                clock: Arc::clone(clock),
                recent_callers: RecentCallers::default(),
                edge_secret: config.edge_secret.clone(),
                key_cache: config.key_cache,
                mode: KeyMode::for_chain(!config.is_test_mode()),
            },
            admin_auth: AdminAuthService {
                sessions: Arc::clone(&repos.sessions),
                clock: Arc::clone(clock),
                chain_id: config.chain_id,
                jwt_secret: config.jwt_secret.clone(),
                platform_admins: config.platform_admins.clone(),
            },
            health: HealthService {
                health: Arc::clone(&repos.health),
            },
            idempotency: IdempotencyService {
                repository: Arc::clone(&repos.idempotency),
            },
            inventory: InventoryService {
                inventory: Arc::clone(&repos.inventory),
                clock: Arc::clone(clock),
                list_budget: config.inventory_list_budget,
            },
            receipts,
            shop: ShopService {
                shops: Arc::clone(&repos.shops),
                clock: Arc::clone(clock),
            },
            split: SplitService {
                shops: Arc::clone(&repos.shops),
                clock: Arc::clone(clock),
                platform_recipient: config.platform_recipient,
                platform_share_bps: config.platform_share_bps,
                split_factory: config
                    .effective_chain_contracts()
                    .map(|contracts| contracts.split_factory),
                chain: (!config.is_test_mode()).then(|| Arc::clone(&chain)),
            },
            split_transactions,
            reserve,
            users,
            billing: BillingService {
                billing: Arc::clone(&repos.billing),
                clock: Arc::clone(clock),
                platform_share_bps: config.platform_share_bps,
            },
            ledger: LedgerService {
                billing: Arc::clone(&repos.billing),
                shops: Arc::clone(&repos.shops),
                platform_recipient: config.platform_recipient,
            },
            reconcile: ReconcileService {
                records: Arc::clone(&repos.reconcile),
                chain: Arc::clone(&chain),
                chain_id: config.chain_id,
                token: config.token_address,
                confirmations: config.effective_confirmations(),
            },
            recurring: recurring(config, repos, clock, &chain, master_key.clone(), &wakeup),
            keys: KeyAdmin::new(
                Arc::clone(&repos.keys),
                Arc::clone(&repos.shops),
                Arc::clone(clock),
                KeyMode::for_chain(!config.is_test_mode()),
            ),
            webhook_endpoints: WebhookEndpointService {
                endpoints: Arc::clone(&repos.endpoints),
                clock: Arc::clone(clock),
                master_key: master_key.clone(),
                wakeup: Arc::clone(&wakeup),
                target_policy: TargetPolicy {
                    dev_mode: config.dev_mode,
                },
            },
            dispatcher: Arc::new(Dispatcher {
                outbox: Arc::clone(&repos.outbox),
                clock: Arc::clone(clock),
                master_key,
                wakeup,
                timeout: config.webhook_timeout,
                retry_delays: config.webhook_retry_delays.clone(),
                endpoint_retry_delays: config.endpoint_retry_delays.clone(),
                dev_mode: config.dev_mode,
                metrics: Arc::clone(metrics),
            }),
            chain,
            simulated,
            chain_workers,
            onramp,
        }
    }
}

/// The card path of `--onramp`. The flags were checked at start (`serve` and `config check` refuse a chain
/// the provider does not deliver on), so a refusal here is logged and leaves the button off.
fn onramp(config: &ServerConfig, repos: &Repositories, clock: &Arc<dyn Clock>) -> Option<OnrampService> {
    let onramp = config.onramp.as_ref()?;
    OnrampService::new(
        onramp,
        config.payment_chain(),
        config.base_url.clone(),
        Arc::clone(&repos.receipts),
        Arc::clone(clock),
    )
    .map_err(|error| tracing::error!(%error, "the card path is off"))
    .ok()
}

/// Recurring billing, with the terms every permission and charge must meet, the master key that seals plans'
/// webhook keys and the dispatcher's wake-up.
fn recurring(
    config: &ServerConfig,
    repos: &Repositories,
    clock: &Arc<dyn Clock>,
    chain: &Arc<dyn Chain>,
    master_key: Option<MasterKey>,
    outbox_wakeup: &Arc<Notify>,
) -> RecurringService {
    RecurringService {
        master_key,
        outbox_wakeup: Arc::clone(outbox_wakeup),
        recurring: Arc::clone(&repos.recurring),
        outbox: Arc::clone(&repos.outbox),
        shops: Arc::clone(&repos.shops),
        chain: Arc::clone(chain),
        clock: Arc::clone(clock),
        terms: RecurringTerms {
            chain_id: config.chain_id,
            manager: config
                .effective_chain_contracts()
                .and_then(|contracts| contracts.spend_permission_manager),
            token: config.token_address,
            spender: config.subscription_spender,
            fee_bps: config.subscription_fee_bps,
            platform_recipient: config.platform_recipient,
            policy: payments_core::FailurePolicy::DEFAULT,
            lease: config.subscription_lease,
            notice: config.subscription_notice,
            chunk: RECURRING_CHUNK,
            concurrency: RECURRING_CONCURRENCY,
        },
    }
}

/// Subscriptions claimed and settled per transaction.
const RECURRING_CHUNK: u32 = 500;
/// Charge transactions in flight at once.
const RECURRING_CONCURRENCY: usize = 16;

/// The node at `--chain-rpc-url`, or the in-process test-mode chain.
fn chain(
    config: &ServerConfig,
    simulated: Option<Arc<SimulatedChain>>,
    clock: &Arc<dyn Clock>,
) -> (Arc<dyn Chain>, Option<Arc<SimulatedChain>>) {
    match (&config.chain_rpc_url, simulated) {
        (Some(url), _) => (
            Arc::new(RpcChain::connect(url, config.relayer_key.as_ref())),
            None,
        ),
        (None, Some(simulated)) => (simulated.clone(), Some(simulated)),
        (None, None) => {
            let contracts = config.effective_chain_contracts();
            let deployed: Vec<_> = contracts
                .iter()
                .flat_map(|contracts| {
                    [
                        Some(config.token_address),
                        Some(contracts.split_factory),
                        Some(contracts.deposit_factory),
                        contracts.spend_permission_manager,
                    ]
                })
                .flatten()
                .collect();
            let simulated = Arc::new(SimulatedChain::with_clock(
                config.chain_id,
                &deployed,
                Arc::clone(clock),
            ));
            (simulated.clone(), Some(simulated))
        }
    }
}

/// The deposit watcher and (with a relayer, or on the test-mode chain) settlement.
fn chain_workers(
    config: &ServerConfig,
    repos: &Repositories,
    clock: &Arc<dyn Clock>,
    chain: &Arc<dyn Chain>,
    receipts: &ReceiptService,
    wakeup: Arc<Notify>,
) -> Option<ChainWorkers> {
    // Receipts derive their deposits with the configured token and chain (what payment instructions name).
    let contracts = ChainContracts {
        chain_id: config.chain_id,
        token: config.token_address,
        ..config.effective_chain_contracts()?
    };
    let can_settle = config.is_test_mode() || config.relayer_key.is_some();
    Some(ChainWorkers {
        watcher: DepositWatcher {
            chain: Arc::clone(chain),
            records: Arc::clone(&repos.chain),
            receipts: receipts.clone(),
            clock: Arc::clone(clock),
            chain_id: contracts.chain_id,
            token: contracts.token,
            confirmations: config.effective_confirmations(),
            late_payment_watch_ms: config.late_payment_watch_ms(),
        },
        settlement: can_settle.then(|| Settlement {
            chain: Arc::clone(chain),
            records: Arc::clone(&repos.chain),
            shops: Arc::clone(&repos.shops),
            receipts: receipts.clone(),
            clock: Arc::clone(clock),
            contracts,
            finalized_only: config.effective_settle_only_finalized(),
        }),
        poll: config.chain_poll,
        wakeup,
    })
}

/// The configured master key; development mode keeps one beside the data (created 0600 when missing).
fn master_key(config: &ServerConfig) -> Option<MasterKey> {
    match &config.master_key {
        Some(key) => Some(key.clone()),
        None if config.dev_mode => {
            let path = MasterKey::dev_file_for(&config.database.sidecar_base());
            match MasterKey::load_or_create(&path) {
                Ok(key) => Some(key),
                Err(error) => {
                    tracing::error!(error = %error, "no master key: receipts cannot store signing keys");
                    None
                }
            }
        }
        None => None,
    }
}
