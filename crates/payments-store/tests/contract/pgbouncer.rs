//! The repository contract suite through PgBouncer in transaction pooling mode (`pooler=transaction`): a
//! fresh database per test on the server at `PAYMENTS_TEST_POSTGRES_URL`, reached only through a PgBouncer
//! the test starts on its own port. Its server pool is smaller than the store's pool, so consecutive
//! transactions of one store connection land on different server connections, and several store
//! connections take turns on one: whatever the store left on a server connection between transactions
//! (a prepared statement, a session setting) would show up as a failure here.

use std::sync::Arc;

use crate::ContractBackend;
use crate::fixtures::{Repositories, T0};
use crate::postgres::assert_invariants_hold;
use payments_store::{PgBouncer, PgStore, PgTestDatabase};

/// Server connections per database behind the PgBouncer (the store's pool has 16).
const SERVER_POOL_SIZE: u32 = 4;

#[derive(Debug)]
struct PgBouncerBackend {
    store: Arc<PgStore>,
    database: PgTestDatabase,
    bouncer: PgBouncer,
}

impl ContractBackend for PgBouncerBackend {
    async fn start() -> Option<Self> {
        let database = PgTestDatabase::create().await?;
        let bouncer = PgBouncer::start(database.url(), SERVER_POOL_SIZE)?;
        let store = PgStore::open(&bouncer.url_for(database.url()), T0).await.unwrap();
        Some(PgBouncerBackend {
            store: Arc::new(store),
            database,
            bouncer,
        })
    }

    fn repositories(&self) -> Repositories {
        Repositories::of(self.store.clone(), self.store.availability().clone())
    }

    async fn finish(self) {
        assert_invariants_hold(&self.database).await;
        drop(self.store);
        drop(self.bouncer);
        self.database.drop_database().await;
    }
}

crate::contract_suite!(PgBouncerBackend);
