//! Builds every service from the repositories, the clock and the configuration: the one place that knows
//! which service needs what.

use std::sync::Arc;

use tokio::sync::Notify;

use crate::clock::Clock;
use crate::config::ServerConfig;
use crate::graphql::GraphqlEndpoint;
use crate::master_key::MasterKey;
use crate::services::admin_auth::AdminAuthService;
use crate::services::auth::Authenticator;
use crate::services::billing::BillingService;
use crate::services::health::HealthService;
use crate::services::inventory::InventoryService;
use crate::services::keys::KeyAdmin;
use crate::services::receipts::Deposits;
use crate::services::receipts::{Dispatcher, ReceiptService};
use crate::services::recent_callers::RecentCallers;
use crate::services::shop::ShopService;
use crate::services::split::SplitService;
use crate::services::users::UserService;
use crate::store::Repositories;

/// Every service of the server.
#[derive(Debug)]
pub(crate) struct Services {
    pub(crate) auth: Authenticator,
    pub(crate) admin_auth: AdminAuthService,
    pub(crate) health: HealthService,
    pub(crate) inventory: InventoryService,
    pub(crate) receipts: ReceiptService,
    pub(crate) shop: ShopService,
    pub(crate) split: SplitService,
    pub(crate) users: UserService,
    pub(crate) billing: BillingService,
    /// The read-only GraphQL schema over `users`.
    pub(crate) graphql: GraphqlEndpoint,
    pub(crate) keys: KeyAdmin,
    pub(crate) dispatcher: Arc<Dispatcher>,
}

impl Services {
    pub(crate) fn new(config: &ServerConfig, repos: &Repositories, clock: &Arc<dyn Clock>) -> Self {
        let master_key = master_key(config);
        let wakeup = Arc::new(Notify::new());
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
            inventory: InventoryService {
                inventory: Arc::clone(&repos.inventory),
                clock: Arc::clone(clock),
                list_budget: config.inventory_list_budget,
            },
            receipts: ReceiptService {
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
            },
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
            },
            graphql: GraphqlEndpoint::new(users.clone()),
            users,
            billing: BillingService {
                billing: Arc::clone(&repos.billing),
                clock: Arc::clone(clock),
                platform_share_bps: config.platform_share_bps,
            },
            keys: KeyAdmin::new(
                Arc::clone(&repos.keys),
                Arc::clone(&repos.shops),
                Arc::clone(clock),
            ),
            dispatcher: Arc::new(Dispatcher {
                outbox: Arc::clone(&repos.outbox),
                clock: Arc::clone(clock),
                master_key,
                wakeup,
                timeout: config.webhook_timeout,
                retry_delays: config.webhook_retry_delays.clone(),
                dev_mode: config.dev_mode,
            }),
        }
    }
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
