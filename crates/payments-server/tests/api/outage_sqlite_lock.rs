//! A real SQLite outage: another process holds the database's write lock (here a connection of the test's
//! own, `BEGIN EXCLUSIVE`, as an operator's `sqlite3` shell or a backup tool would). Writes answer 503 with
//! `Retry-After` within the outage bound and write nothing; reads keep being answered from the database (WAL
//! readers never wait for a writer); once the lock is let go, writes work again and everything acknowledged
//! before is there.

use std::time::Duration;

use futures_util::future::join_all;
use reqwest::{Method, RequestBuilder};
use serde_json::{Value, json};

use crate::helpers::{Api, Reply, send};
use crate::receipts_create::{create_receipt, receipt_body};

/// The spec's degraded mode: during an outage, writes and single reads answer (503 with `Retry-After`)
/// within 2 s.
pub(crate) const OUTAGE_ANSWER_BOUND: Duration = Duration::from_secs(2);

/// The answer to `request`; a failed test when none comes within [`OUTAGE_ANSWER_BOUND`].
pub(crate) async fn answered_in_bound(request: RequestBuilder) -> Reply {
    tokio::time::timeout(OUTAGE_ANSWER_BOUND, send(request))
        .await
        .unwrap_or_else(|_| panic!("no answer within {OUTAGE_ANSWER_BOUND:?} during the outage"))
}

/// A 503 `datastore_unavailable` that tells the client when to come back.
pub(crate) fn assert_unavailable(reply: &Reply) {
    assert_eq!(
        (reply.status, reply.json["error"].clone()),
        (503, json!("datastore_unavailable")),
        "{}",
        reply.json
    );
    assert_eq!(reply.header("retry-after"), "5");
}

/// A merchant with receipt `r-1` and product `TEA-1`, stored before the outage.
async fn merchant_with_a_receipt_and_a_product() -> (Api, Value) {
    let api = Api::spawn().await;
    assert_eq!(create_receipt(&api, receipt_body("r-1")).await.status, 201);
    let product = api
        .upsert(json!({"sku": "TEA-1", "name": "Tea", "priceUsd": 3.5, "stockQty": 4}))
        .await;
    (api, product)
}

fn hold_the_write_lock(api: &Api) -> rusqlite::Connection {
    let locker = rusqlite::Connection::open(&api.app.db_path).unwrap();
    locker.execute_batch("BEGIN EXCLUSIVE").unwrap();
    locker
}

#[tokio::test]
async fn writes_while_another_process_holds_the_sqlite_lock_answer_503_in_bound_and_write_nothing() {
    let (api, product) = merchant_with_a_receipt_and_a_product().await;
    let locker = hold_the_write_lock(&api);

    let new_product = json!({"sku": "LOST-1", "name": "Never stored", "priceUsd": 1, "stockQty": 1});
    let moved = json!({"receiptId": "r-1", "wallet": api.app.wallet, "status": "link_opened"});
    let one_at_a_time = [
        answered_in_bound(api.dev(Method::POST, "/api/inventory").json(&new_product)).await,
        answered_in_bound(api.dev(Method::POST, "/api/receipts/status").json(&moved)).await,
        answered_in_bound(api.dev(
            Method::DELETE,
            &format!("/api/inventory?id={}", product["id"].as_str().unwrap()),
        ))
        .await,
    ];
    let at_once = join_all((0..8).map(|index| {
        answered_in_bound(
            api.dev(Method::POST, "/api/receipts")
                .json(&receipt_body(&format!("lost-{index}"))),
        )
    }))
    .await;
    locker.execute_batch("ROLLBACK").unwrap();

    for reply in one_at_a_time.iter().chain(&at_once) {
        assert_unavailable(reply);
    }
    for index in 0..8 {
        let lost = send(api.dev(Method::GET, &format!("/api/receipts/lost-{index}"))).await;
        assert_eq!(lost.status, 404, "{}", lost.json);
    }
    let r1 = send(api.dev(Method::GET, "/api/receipts/r-1")).await;
    assert_eq!(r1.json["status"], "pending");
    assert_eq!(api.skus("").await, ["TEA-1"]);
    assert_eq!(create_receipt(&api, receipt_body("r-2")).await.status, 201);
}

#[tokio::test]
async fn reads_while_another_process_holds_the_sqlite_lock_are_answered_from_the_database() {
    let (api, _) = merchant_with_a_receipt_and_a_product().await;
    let locker = hold_the_write_lock(&api);

    let receipt = answered_in_bound(api.dev(Method::GET, "/api/receipts/r-1")).await;
    let status = answered_in_bound(api.dev(Method::GET, "/api/receipts/status?receiptId=r-1")).await;
    let inventory = answered_in_bound(api.dev(Method::GET, "/api/inventory")).await;
    locker.execute_batch("ROLLBACK").unwrap();

    assert_eq!(
        (receipt.status, receipt.json["receiptId"].clone()),
        (200, json!("r-1"))
    );
    assert_eq!(
        (status.status, status.json["status"].clone()),
        (200, json!("pending"))
    );
    assert_eq!(inventory.status, 200);
    assert_eq!(inventory.json["total"], 1);
    assert_eq!(inventory.json.get("degraded"), None, "{}", inventory.json);
}
