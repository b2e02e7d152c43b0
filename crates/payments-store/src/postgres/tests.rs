//! What only the PostgreSQL backend has: its migrations, its connection failures and its decoding of stored
//! values (the repository contract suite runs on it from `tests/contract/postgres.rs`).

use std::sync::Arc;

use tokio_postgres::NoTls;

use crate::StoreError;
use crate::postgres::migrations;
use crate::postgres::{PgStore, PgTestDatabase};
use crate::testing::fixtures::{Repositories, T0, wallet};

/// A plain client of the test database, beside the store's pool.
pub(super) async fn connect(database: &PgTestDatabase) -> tokio_postgres::Client {
    let (client, connection) = tokio_postgres::connect(database.url(), NoTls).await.unwrap();
    tokio::spawn(connection);
    client
}

async fn table_names(client: &tokio_postgres::Client) -> Vec<String> {
    let rows = client
        .query(
            "SELECT table_name::text FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1",
            &[],
        )
        .await
        .unwrap();
    rows.iter().map(|row| row.get(0)).collect()
}

#[tokio::test]
async fn migrations_apply_once_and_reopening_changes_nothing() {
    let Some(database) = PgTestDatabase::create().await else {
        return;
    };
    let first = PgStore::open(database.url(), T0).await.unwrap();
    let client = connect(&database).await;
    let tables = table_names(&client).await;

    let mut pooled = first.connections.pool.get().await.unwrap();
    let applied_again = migrations::apply(&mut pooled, T0 + 1).await.unwrap();
    drop(pooled);
    PgStore::open(database.url(), T0 + 2).await.unwrap();

    assert!(applied_again.is_empty());
    assert_eq!(table_names(&client).await, tables);
    let expected = [
        "admin_nonces",
        "admin_sessions",
        "billing_events",
        "chain_cursors",
        "chain_transfers",
        "customer_subscriptions",
        "idempotency_keys",
        "instance_settings",
        "inventory_images",
        "inventory_items",
        "receipt_history",
        "receipt_refunds",
        "receipt_stock",
        "receipts",
        "relayer_send_leases",
        "schema_migrations",
        "settlements",
        "shops",
        "split_history",
        "splits",
        "subscription_changes",
        "subscription_charges",
        "subscription_notices",
        "subscription_plans",
        "subscriptions",
        "user_follows",
        "user_metrics",
        "users",
        "webhook_attempts",
        "webhook_deliveries",
        "webhook_endpoints",
    ];
    assert_eq!(tables, expected);
    let versions = client
        .query(
            "SELECT version, applied_at FROM schema_migrations ORDER BY version",
            &[],
        )
        .await
        .unwrap();
    let versions: Vec<(i64, i64)> = versions.iter().map(|row| (row.get(0), row.get(1))).collect();
    assert_eq!(
        versions,
        [
            (1, T0),
            (2, T0),
            (3, T0),
            (4, T0),
            (5, T0),
            (6, T0),
            (7, T0),
            (8, T0),
            (9, T0),
            (10, T0),
            (11, T0),
            (12, T0),
            (13, T0),
            (14, T0),
            (15, T0),
            (16, T0),
            (17, T0),
            (18, T0),
            (19, T0),
            (20, T0),
            (21, T0),
            (22, T0),
            (23, T0),
            (24, T0)
        ]
    );
    drop(first);
    database.drop_database().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn instances_starting_together_apply_each_migration_once() {
    let Some(database) = PgTestDatabase::create().await else {
        return;
    };
    let url = database.url().to_owned();

    let opens: Vec<_> = (0..4)
        .map(|n| {
            let url = url.clone();
            tokio::spawn(async move { PgStore::open(&url, T0 + n).await.map(|_| ()) })
        })
        .collect();
    for open in opens {
        open.await.unwrap().unwrap();
    }

    let client = connect(&database).await;
    let count: i64 = client
        .query_one("SELECT COUNT(*) FROM schema_migrations", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(count, i64::try_from(super::migrations::MIGRATIONS.len()).unwrap());
    database.drop_database().await;
}

#[tokio::test]
async fn a_server_that_does_not_answer_is_unavailable_without_showing_the_password() {
    let url = "postgres://payments:hunter2@127.0.0.1:1/payments?connect_timeout=1";

    let error = PgStore::open(url, T0).await.unwrap_err();

    assert!(matches!(error, StoreError::Unavailable(_)), "{error:?}");
    assert!(!error.to_string().contains("hunter2"), "{error}");
    assert!(!format!("{error:?}").contains("hunter2"), "{error:?}");
}

#[tokio::test]
async fn stored_values_that_do_not_decode_are_reported_as_corrupt() {
    let Some(database) = PgTestDatabase::create().await else {
        return;
    };
    let store = Arc::new(PgStore::open(database.url(), T0).await.unwrap());
    let client = connect(&database).await;
    client
        .batch_execute(
            "INSERT INTO shops (wallet, processing_fee_pct, created_at, updated_at)
             VALUES ('0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'lots', 0, 0)",
        )
        .await
        .unwrap();
    let repos = Repositories::of(store.clone(), store.availability().clone());

    let error = repos.shops.fetch_shop(wallet('a')).await.unwrap_err();

    assert!(
        matches!(&error, StoreError::Corrupt(message) if message.contains("processing_fee_pct")),
        "{error:?}"
    );
    drop(repos);
    drop(store);
    database.drop_database().await;
}
