//! Three `payments-server` processes on one PostgreSQL database under load, one killed with SIGKILL midway
//! and started again: every acknowledged create is stored exactly once, and every acknowledged status
//! change reaches the merchant's receiver (counted by delivery id; at-least-once, so duplicates are counted
//! and reported, never required to be zero). `bench/instances_kill.sh` runs the same test with 3,000 creates
//! (`PAYMENTS_INSTANCES_KILL_CREATES`).

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use payments_server::testing::{PgTestDatabase, eventually};
use reqwest::Method;
use serde_json::{Value, json};

use crate::dev_master_key_shared::{DevServerProcess, receipts_key};
use crate::helpers::KEY_HEADER;
use crate::receipts_create::receipt_body;
use crate::webhook_receiver::Receiver;

const DEFAULT_CREATES: usize = 300;
const CONCURRENT_CLIENTS: usize = 8;
const WALLET: &str = "0x1111111111111111111111111111111111111111";
/// A killed instance's webhook attempts are retried after their lease: the timeout plus a 30 s margin.
const WEBHOOK_TIMEOUT_MS: &str = "1000";
const DELIVERY_WAIT: Duration = Duration::from_secs(45);

/// What the clients were told: the ids whose create answered 201 and whose status change answered 200.
#[derive(Default)]
struct Acknowledged {
    created: Vec<String>,
    moved: Vec<String>,
    refused: usize,
}

fn creates() -> usize {
    std::env::var("PAYMENTS_INSTANCES_KILL_CREATES")
        .ok()
        .and_then(|count| count.parse().ok())
        .unwrap_or(DEFAULT_CREATES)
}

async fn start_instance(database: &PgTestDatabase) -> DevServerProcess {
    // One key sends every request: the per-key rate limit would refuse most of them.
    let extra = [
        "--webhook-timeout-ms",
        WEBHOOK_TIMEOUT_MS,
        "--rate-limit-per-minute",
        "1000000",
    ];
    DevServerProcess::start_with(database, &extra).await
}

/// Creates receipt `index` on one instance and moves it to `link_opened` on the next; a refused or
/// unanswered request (the killed instance) is not retried, so it stays unacknowledged.
async fn create_and_move(
    http: &reqwest::Client,
    urls: &Mutex<Vec<String>>,
    key: &str,
    hook: &str,
    index: usize,
    acknowledged: &Mutex<Acknowledged>,
) {
    let (creator, mover) = {
        let urls = urls.lock().unwrap();
        (urls[index % 3].clone(), urls[(index + 1) % 3].clone())
    };
    let id = format!("kill-{index}");
    let mut body = receipt_body(&id);
    body["webhook_url"] = json!(hook);
    let created = http
        .request(Method::POST, format!("{creator}/api/receipts"))
        .header(KEY_HEADER, key)
        .json(&body)
        .send()
        .await;
    if !created.is_ok_and(|reply| reply.status() == 201) {
        acknowledged.lock().unwrap().refused += 1;
        return;
    }
    acknowledged.lock().unwrap().created.push(id.clone());
    let moved = http
        .request(Method::POST, format!("{mover}/api/receipts/status"))
        .header(KEY_HEADER, key)
        .json(&json!({"receiptId": id, "wallet": WALLET, "status": "link_opened"}))
        .send()
        .await;
    let mut acknowledged = acknowledged.lock().unwrap();
    if moved.is_ok_and(|reply| reply.status() == 200) {
        acknowledged.moved.push(id);
    } else {
        acknowledged.refused += 1;
    }
}

/// How many times each receipt id appears when the merchant's receipts are listed, page by page, from
/// `instance`.
async fn listed_receipts(http: &reqwest::Client, instance: &str, key: &str) -> HashMap<String, i64> {
    let mut counts = HashMap::new();
    let first = format!("{instance}/api/receipts?limit=100");
    let mut page = first.clone();
    loop {
        let reply: Value = http
            .get(&page)
            .header(KEY_HEADER, key)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let receipts = reply["receipts"].as_array();
        for receipt in receipts.unwrap_or_else(|| panic!("listing receipts: {reply}")) {
            *counts
                .entry(receipt["receiptId"].as_str().unwrap().to_owned())
                .or_default() += 1;
        }
        match &reply["nextCursor"] {
            Value::String(cursor) => page = format!("{first}&cursor={cursor}"),
            _ => return counts,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn three_instances_with_one_killed_midway_lose_no_acknowledged_write_and_deliver_every_webhook() {
    let Some(database) = PgTestDatabase::create().await else {
        return;
    };
    let total = creates();
    let mut instances = vec![
        start_instance(&database).await,
        start_instance(&database).await,
        start_instance(&database).await,
    ];
    let key = receipts_key(&database, WALLET);
    let receiver = Receiver::start(&[]).await;
    let urls = Arc::new(Mutex::new(
        instances
            .iter()
            .map(|instance| instance.base_url.clone())
            .collect::<Vec<_>>(),
    ));
    let acknowledged = Arc::new(Mutex::new(Acknowledged::default()));
    let next = Arc::new(AtomicUsize::new(0));
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap();
    let started = Instant::now();

    let clients: Vec<_> = (0..CONCURRENT_CLIENTS)
        .map(|_| {
            let (http, urls, key, hook) = (http.clone(), urls.clone(), key.clone(), receiver.url.clone());
            let (acknowledged, next) = (acknowledged.clone(), next.clone());
            tokio::spawn(async move {
                loop {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    if index >= total {
                        return;
                    }
                    create_and_move(&http, &urls, &key, &hook, index, &acknowledged).await;
                }
            })
        })
        .collect();
    eventually(
        "half of the creates to be sent",
        Duration::from_secs(60),
        || async { (next.load(Ordering::SeqCst) >= total / 2).then_some(()) },
    )
    .await;
    // kill -9: no shutdown, its transactions and leased webhook attempts cut off where they were.
    drop(instances.remove(0));
    let killed_at = started.elapsed();
    let restarted = start_instance(&database).await;
    urls.lock().unwrap()[0] = restarted.base_url.clone();
    instances.push(restarted);
    for client in clients {
        client.await.unwrap();
    }
    let Acknowledged {
        created,
        moved,
        refused,
    } = std::mem::take(&mut *acknowledged.lock().unwrap());

    let stored = listed_receipts(&http, &instances[0].base_url, &key).await;
    let not_once: Vec<_> = created
        .iter()
        .filter(|id| stored.get(id.as_str()) != Some(&1))
        .collect();
    assert!(
        not_once.is_empty(),
        "acknowledged creates not stored exactly once: {not_once:?}"
    );
    let expected: HashSet<&str> = moved.iter().map(String::as_str).collect();
    let deliveries = eventually(
        "a webhook for every acknowledged status change",
        DELIVERY_WAIT,
        || async {
            let received = receiver.received();
            let delivered: HashSet<String> = received
                .iter()
                .filter(|request| request.json()["status"] == "link_opened")
                .map(|request| {
                    request.json()["receiptId"]
                        .as_str()
                        .unwrap_or_default()
                        .to_owned()
                })
                .collect();
            expected
                .iter()
                .all(|id| delivered.contains(*id))
                .then_some(received)
        },
    )
    .await;
    let mut attempts_by_delivery: HashMap<String, usize> = HashMap::new();
    for request in &deliveries {
        *attempts_by_delivery
            .entry(request.header("webhook-id").to_owned())
            .or_default() += 1;
    }
    let duplicates: usize = attempts_by_delivery.values().map(|count| count - 1).sum();
    eprintln!(
        "instances_kill: {total} creates sent, {} acknowledged, {} status changes acknowledged, {refused} \
         refused or unanswered; instance killed at {killed_at:?}; {} deliveries received for {} delivery ids \
         ({duplicates} duplicates, receivers dedupe by id); all delivered after {:?}",
        created.len(),
        moved.len(),
        deliveries.len(),
        attempts_by_delivery.len(),
        started.elapsed()
    );
    assert!(
        created.len() >= total / 2,
        "most creates are acknowledged: {}",
        created.len()
    );
}
