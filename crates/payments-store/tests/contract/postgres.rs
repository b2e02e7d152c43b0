//! The repository contract suite on PostgreSQL: a fresh database per test at `PAYMENTS_TEST_POSTGRES_URL`,
//! checked after each test for the invariants its tables must keep.

use std::sync::Arc;

use tokio_postgres::NoTls;

use crate::ContractBackend;
use crate::fixtures::{Repositories, T0};
use payments_store::{PgStore, PgTestDatabase};

/// A fresh database with the schema applied.
#[derive(Debug)]
struct PgBackend {
    store: Arc<PgStore>,
    database: PgTestDatabase,
}

/// Rows no contract test may leave behind: a claimed idempotency key that names no resource and has no
/// response (a committed claim naming its resource may wait for its response: a replay answers from it), a receipt
/// whose refunded amount is not the sum of its refund rows, or whose version is not its number of
/// history rows, or a buyer whose purchase total (and xp) is not what its receipts credit.
pub(crate) const BROKEN_INVARIANTS: &str = "SELECT
    (SELECT COUNT(*) FROM idempotency_keys WHERE status = 0 AND resource_id IS NULL) AS pending_keys,
    (SELECT COUNT(*) FROM receipts r WHERE r.refunded_cents <>
        COALESCE((SELECT SUM(f.usd_cents) FROM receipt_refunds f WHERE f.receipt_id = r.id), 0)) AS refund_sums,
    (SELECT COUNT(*) FROM receipts r WHERE r.version <>
        (SELECT COUNT(*) FROM receipt_history h WHERE h.receipt_id = r.id)) AS versions,
    (SELECT COUNT(*) FROM users u WHERE u.purchase_cents <> COALESCE((SELECT SUM(GREATEST(r.paid_cents -
        r.refunded_cents, 0)) FROM receipts r WHERE r.buyer_wallet = u.wallet AND r.status IN ('paid', 'completed',
        'reconciled', 'refund_requested', 'refund_partial', 'refunded')), 0)
        OR u.xp <> (u.purchase_cents + u.subscription_cents) / 100) AS buyer_credits";

impl ContractBackend for PgBackend {
    async fn start() -> Option<Self> {
        let database = PgTestDatabase::create().await?;
        let store = PgStore::open(database.url(), T0).await.unwrap();
        Some(PgBackend {
            store: Arc::new(store),
            database,
        })
    }

    fn repositories(&self) -> Repositories {
        Repositories::of(self.store.clone(), self.store.availability().clone())
    }

    async fn finish(self) {
        assert_invariants_hold(&self.database).await;
        drop(self.store);
        self.database.drop_database().await;
    }
}

crate::contract_suite!(PgBackend);

/// Fails the test when a table breaks one of [`BROKEN_INVARIANTS`].
pub(crate) async fn assert_invariants_hold(database: &PgTestDatabase) {
    let client = connect(database).await;
    let row = client.query_one(BROKEN_INVARIANTS, &[]).await.unwrap();
    let broken: [i64; 4] = [
        row.get("pending_keys"),
        row.get("refund_sums"),
        row.get("versions"),
        row.get("buyer_credits"),
    ];
    assert_eq!(
        broken,
        [0, 0, 0, 0],
        "pending keys, refund sums, versions, buyer credits"
    );
}

/// A plain client of the test database, beside the store's pool.
async fn connect(database: &PgTestDatabase) -> tokio_postgres::Client {
    let (client, connection) = tokio_postgres::connect(database.url(), NoTls).await.unwrap();
    tokio::spawn(connection);
    client
}
