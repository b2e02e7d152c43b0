//! Restarting a test server on the same database file (durability tests: outbox rows survive a restart).

use crate::master_key::MasterKey;
use crate::testing::{TestApp, bind_loopback, start_server, test_wallet};

impl TestApp {
    /// Shuts this server down (in-flight requests finish, the webhook dispatcher stops) and starts a new one
    /// on the same database file, with a new clock at [`super::TEST_START_MS`] and a new port. The keys stay valid.
    /// `production: true` turns development mode off (HTTPS-only, no internal webhook targets), keeping the
    /// master key the first server created beside the database.
    pub async fn restart(mut self, production: bool) -> TestApp {
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
        config.platform_recipient = Some(test_wallet(0x50));
        config.master_key = Some(
            MasterKey::load_or_create(&MasterKey::dev_file_for(&db_path))
                .unwrap_or_else(|error| panic!("reading the master key: {error}")),
        );
        let running = start_server(listener, config).await;
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
            _dir: dir,
        }
    }
}
