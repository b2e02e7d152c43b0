//! Restarting a test server on the same database file (durability tests: outbox rows survive a restart).

use url::Url;

use crate::runtime::master_key::MasterKey;
use crate::testing::{TestApp, bind_loopback, start_server, test_wallet};

impl TestApp {
    /// Shuts this server down (in-flight requests finish, the webhook dispatcher stops) and starts a new one
    /// on the same database file, with a new clock at [`super::TEST_START_MS`] and a new port. The keys stay valid.
    /// `production: true` turns development mode off (HTTPS-only, no internal webhook targets), keeping the
    /// master key the first server created beside the database.
    pub async fn restart(self, production: bool) -> TestApp {
        self.restart_with(production, None).await
    }

    /// Restarts in development mode against the EVM node at `rpc_url` instead of the test-mode chain (nothing
    /// needs to answer there for tests of what a real chain forbids: admins attesting payments).
    pub async fn restart_on_a_node(self, rpc_url: &str) -> TestApp {
        let url = Url::parse(rpc_url).unwrap_or_else(|error| panic!("parsing {rpc_url}: {error}"));
        self.restart_with(false, Some(url)).await
    }

    async fn restart_with(mut self, production: bool, rpc_url: Option<Url>) -> TestApp {
        if let Some(shutdown) = self.shutdown.take() {
            shutdown.send(()).ok();
        }
        if let Some(server) = self.server.take() {
            server.await.ok();
        }
        let placeholder = tempfile::tempdir().unwrap_or_else(|error| panic!("creating a temp dir: {error}"));
        let dir = std::mem::replace(&mut self._dir, placeholder);
        let db_path = self.db_path.clone();
        let (listener, base_url, mut config) = bind_loopback(&db_path).await;
        config.dev_mode = !production;
        // Same secrets as before: admin sessions survive the restart, as with a configured --jwt-secret.
        config.jwt_secret = self.app.config().jwt_secret.clone();
        config.chain_rpc_url = rpc_url;
        config.platform_recipient = Some(test_wallet(0x50));
        config.master_key = Some(
            MasterKey::load_or_create(&MasterKey::dev_file_for(&db_path))
                .unwrap_or_else(|error| panic!("reading the master key: {error}")),
        );
        config.confirmations = self.confirmations;
        config.settle_only_finalized = Some(self.settle_only_finalized);
        config.cron_secret = self.app.config().cron_secret.clone();
        super::use_node(&mut config, self.node.as_ref());
        // The chain outlives the server, as a real one does.
        let running = start_server(listener, config, self.app.simulated_chain()).await;
        TestApp {
            base_url,
            key: self.key.clone(),
            subscription_id: self.subscription_id.clone(),
            wallet: self.wallet,
            clock: running.clock,
            db_path,
            app: running.app,
            availability: running.availability,
            shutdown: Some(running.shutdown),
            server: Some(running.server),
            confirmations: self.confirmations,
            settle_only_finalized: self.settle_only_finalized,
            node: self.node.clone(),
            _dir: dir,
        }
    }
}
