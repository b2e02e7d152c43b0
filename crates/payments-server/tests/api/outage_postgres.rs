//! A real PostgreSQL outage: the server runs on a cluster of the test's own (never the machine's), which the
//! test stops as a crash would (`pg_ctl stop -m immediate`) and starts again. Meanwhile writes and single
//! reads answer 503 with `Retry-After` within the outage bound, lists answer 200 with `degraded: true`, and
//! the server keeps running; once the cluster is back the server recovers by itself, everything acknowledged
//! before the outage is there and nothing refused during it is.

use std::time::Duration;

use payments_server::testing::{TestOptions, ThrowawayCluster, eventually};
use reqwest::Method;
use serde_json::json;

use crate::helpers::{Api, send};
use crate::outage_sqlite_lock::{answered_in_bound, assert_unavailable};
use crate::receipts_create::{create_receipt, receipt_body};

/// How long a restarted cluster may take to be served from again (new connections replace the broken ones).
const RECOVERY: Duration = Duration::from_secs(30);

#[tokio::test]
async fn while_postgresql_is_stopped_writes_and_reads_answer_503_in_bound_lists_are_degraded_and_it_recovers()
{
    let Some(cluster) = ThrowawayCluster::start(false) else {
        return;
    };
    let api = Api::spawn_with(TestOptions {
        postgres_url: Some(cluster.url("postgres", "127.0.0.1", "sslmode=disable")),
        ..TestOptions::default()
    })
    .await;
    assert_eq!(create_receipt(&api, receipt_body("r-1")).await.status, 201);
    api.upsert(json!({"sku": "TEA-1", "name": "Tea", "priceUsd": 3.5, "stockQty": 4}))
        .await;

    cluster.stop();
    let new_product = json!({"sku": "LOST-1", "name": "Never stored", "priceUsd": 1, "stockQty": 1});
    let refused = [
        answered_in_bound(api.dev(Method::POST, "/api/receipts").json(&receipt_body("lost"))).await,
        answered_in_bound(api.dev(Method::POST, "/api/inventory").json(&new_product)).await,
        answered_in_bound(api.dev(Method::GET, "/api/receipts/r-1")).await,
        answered_in_bound(api.dev(Method::GET, "/api/receipts/status?receiptId=r-1")).await,
    ];
    let inventory = answered_in_bound(api.dev(Method::GET, "/api/inventory")).await;
    let receipts = answered_in_bound(api.dev(Method::GET, "/api/receipts")).await;
    cluster.start_again();

    for reply in &refused {
        assert_unavailable(reply);
    }
    for list in [&inventory, &receipts] {
        assert_eq!(list.status, 200, "{}", list.json);
        assert_eq!(
            (list.json["degraded"].clone(), list.json["reason"].clone()),
            (json!(true), json!("datastore_unavailable"))
        );
    }
    let r1 = eventually(
        "the server to serve from the restarted cluster",
        RECOVERY,
        || async {
            let reply = send(api.dev(Method::GET, "/api/receipts/r-1")).await;
            (reply.status == 200).then_some(reply)
        },
    )
    .await;
    assert_eq!(r1.json["status"], "pending");
    let lost = send(api.dev(Method::GET, "/api/receipts/lost")).await;
    assert_eq!(lost.status, 404, "{}", lost.json);
    assert_eq!(api.skus("").await, ["TEA-1"]);
    assert_eq!(create_receipt(&api, receipt_body("r-2")).await.status, 201);
}
