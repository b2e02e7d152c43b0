//! Restarting a test server on the same database file (durability tests: outbox rows survive a restart).

use std::sync::Arc;

use tokio::sync::oneshot;
use url::Url;

use crate::app::App;
use crate::clock::{Clock, ManualClock};
use crate::config::ServerConfig;
use crate::master_key::MasterKey;
use crate::store::SqliteStore;
use crate::testing::switchable_store::SwitchableStore;
use crate::testing::{TEST_START_MS, TestApp, test_wallet};

impl TestApp {
    /// Shuts this server down (in-flight requests finish, the webhook dispatcher stops) and starts a new one
    /// on the same database file, with a new clock at [`TEST_START_MS`] and a new port. The keys stay valid.
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
        let clock = Arc::new(ManualClock::new(TEST_START_MS));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .unwrap_or_else(|error| panic!("binding 127.0.0.1:0: {error}"));
        let address = listener
            .local_addr()
            .unwrap_or_else(|error| panic!("reading the bound address: {error}"));
        let base_url = format!("http://{address}");
        let mut config = ServerConfig::new(
            &db_path,
            Url::parse(&base_url).unwrap_or_else(|error| panic!("parsing {base_url}: {error}")),
        );
        config.dev_mode = !production;
        config.platform_recipient = Some(test_wallet(0x50));
        config.master_key = Some(
            MasterKey::load_or_create(&MasterKey::dev_file_for(&db_path))
                .unwrap_or_else(|error| panic!("reading the master key: {error}")),
        );
        let sqlite = SqliteStore::open(&db_path, TEST_START_MS)
            .unwrap_or_else(|error| panic!("opening the db: {error}"));
        let store = Arc::new(SwitchableStore::new(Arc::new(sqlite)));
        let app = App::with_store(
            config,
            Arc::clone(&store) as _,
            Arc::clone(&clock) as Arc<dyn Clock>,
        );
        let (shutdown, signal) = oneshot::channel::<()>();
        let server = tokio::spawn(crate::serve(listener, app.clone(), async {
            signal.await.ok();
        }));
        TestApp {
            base_url,
            key: self.key.clone(),
            subscription_id: self.subscription_id.clone(),
            wallet: self.wallet,
            clock,
            db_path,
            app,
            store,
            shutdown: Some(shutdown),
            server: Some(server),
            _dir: dir,
        }
    }
}
