//! Behind a transaction pooler (PgBouncer, `pooler=transaction`): what the contract suite through it
//! cannot see from the repositories' answers alone.

use crate::postgres::connection::Queries;
use crate::postgres::{PgBouncer, PgStore, PgTestDatabase};
use crate::testing::fixtures::T0;

/// One server connection for every client: each transaction of each store connection runs on it in turn.
const ONE_SERVER_CONNECTION: u32 = 1;

#[tokio::test]
async fn every_transaction_behind_the_pooler_gets_the_lock_timeout_it_would_get_directly() {
    let Some(database) = PgTestDatabase::create().await else {
        return;
    };
    let Some(bouncer) = PgBouncer::start(database.url(), ONE_SERVER_CONNECTION) else {
        return;
    };
    let store = PgStore::open(&bouncer.url_for(database.url()), T0).await.unwrap();

    let mut client = store.client().await.unwrap();
    let transaction = client.transaction().await.unwrap();
    let show = transaction.prepare_cached("SHOW lock_timeout").await.unwrap();
    let inside: String = transaction.query_one(&show, &[]).await.unwrap().get(0);
    transaction.commit().await.unwrap();
    let outside: String = client.query_one(&show, &[]).await.unwrap().get(0);

    assert_eq!(inside, "5s");
    assert_eq!(
        outside, "0",
        "a SET LOCAL must not outlive its transaction on a shared server connection"
    );
    drop((client, store, bouncer));
    database.drop_database().await;
}

#[tokio::test]
async fn two_stores_taking_turns_on_one_server_connection_leave_each_other_no_statement() {
    let Some(database) = PgTestDatabase::create().await else {
        return;
    };
    let Some(bouncer) = PgBouncer::start(database.url(), ONE_SERVER_CONNECTION) else {
        return;
    };
    let url = bouncer.url_for(database.url());
    let (first, second) = (
        PgStore::open(&url, T0).await.unwrap(),
        PgStore::open(&url, T0).await.unwrap(),
    );

    for _ in 0..3 {
        for store in [&first, &second] {
            let mut client = store.client().await.unwrap();
            let transaction = client.transaction().await.unwrap();
            let count = transaction
                .prepare_cached("SELECT COUNT(*) FROM receipts WHERE wallet = $1")
                .await
                .unwrap();
            let _: i64 = transaction.query_one(&count, &[&"0xabc"]).await.unwrap().get(0);
            transaction.commit().await.unwrap();
            let _: i64 = client.query_one(&count, &[&"0xabc"]).await.unwrap().get(0);
        }
    }

    let mut client = first.client().await.unwrap();
    let transaction = client.transaction().await.unwrap();
    let left = transaction
        .prepare_cached("SELECT COUNT(*) FROM pg_prepared_statements")
        .await
        .unwrap();
    let left: i64 = transaction.query_one(&left, &[]).await.unwrap().get(0);
    assert_eq!(
        left, 0,
        "prepared statements left on the shared server connection"
    );
    drop(transaction);
    drop((client, first, second, bouncer));
    database.drop_database().await;
}
