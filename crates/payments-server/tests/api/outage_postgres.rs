//! A real PostgreSQL outage: the server runs on a cluster of the test's own (never the machine's), which the
//! test stops as a crash would (`pg_ctl stop -m immediate`) and starts again. Meanwhile writes and single
//! reads answer 503 with `Retry-After` within the outage bound, lists answer 200 with `degraded: true`, and
//! the server keeps running; once the cluster is back the server recovers by itself, everything acknowledged
//! before the outage is there and nothing refused during it is. A network partition (connections broken, new
//! ones never answered) is answered within the same bound.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use payments_server::testing::{TestOptions, ThrowawayCluster, eventually};
use reqwest::Method;
use serde_json::json;
use tokio::net::{TcpListener, TcpStream};

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

/// A TCP relay between the server and its database that can be cut like a network partition: open
/// connections are broken, and new ones are accepted but never answered (as behind a firewall that drops
/// packets, where only a timeout tells the server).
struct Partition {
    port: u16,
    cut: Arc<AtomicBool>,
    relays: Arc<Mutex<Vec<tokio::task::JoinHandle<()>>>>,
    _accepting: tokio::task::JoinHandle<()>,
}

impl Partition {
    async fn relay_to(database_port: u16) -> Partition {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let cut = Arc::new(AtomicBool::new(false));
        let relays: Arc<Mutex<Vec<tokio::task::JoinHandle<()>>>> = Arc::default();
        let (cut_seen, relays_kept) = (Arc::clone(&cut), Arc::clone(&relays));
        let accepting = tokio::spawn(async move {
            let mut unanswered = Vec::new();
            while let Ok((mut client, _)) = listener.accept().await {
                if cut_seen.load(Ordering::SeqCst) {
                    unanswered.push(client);
                    continue;
                }
                relays_kept.lock().unwrap().push(tokio::spawn(async move {
                    let Ok(mut database) = TcpStream::connect(("127.0.0.1", database_port)).await else {
                        return;
                    };
                    let _ = tokio::io::copy_bidirectional(&mut client, &mut database).await;
                }));
            }
        });
        Partition {
            port,
            cut,
            relays,
            _accepting: accepting,
        }
    }

    fn cut(&self) {
        self.cut.store(true, Ordering::SeqCst);
        for relay in self.relays.lock().unwrap().drain(..) {
            relay.abort();
        }
    }
}

#[tokio::test]
async fn when_postgresql_stops_answering_new_connections_writes_and_reads_answer_503_in_bound() {
    let Some(cluster) = ThrowawayCluster::start(false) else {
        return;
    };
    let partition = Partition::relay_to(cluster.port()).await;
    let api = Api::spawn_with(TestOptions {
        postgres_url: Some(format!(
            "postgres://postgres@127.0.0.1:{}/postgres?sslmode=disable",
            partition.port
        )),
        ..TestOptions::default()
    })
    .await;
    assert_eq!(create_receipt(&api, receipt_body("r-1")).await.status, 201);

    partition.cut();
    let write = answered_in_bound(api.dev(Method::POST, "/api/receipts").json(&receipt_body("lost"))).await;
    let read = answered_in_bound(api.dev(Method::GET, "/api/receipts/r-1")).await;
    let list = answered_in_bound(api.dev(Method::GET, "/api/receipts")).await;

    assert_unavailable(&write);
    assert_unavailable(&read);
    assert_eq!(
        (list.status, list.json["degraded"].clone()),
        (200, json!(true)),
        "{}",
        list.json
    );
}
