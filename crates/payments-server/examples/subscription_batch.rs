//! Benchmark of the subscription charge batch on the test-mode chain (docs/benchmarks.md):
//! `cargo run --release -p payments-server --features testing --example subscription_batch -- [COUNT]`.
//!
//! Subscribes COUNT customers (default 10,000) to one weekly plan through the HTTP API, each with tokens and
//! the manager approved, then times `POST /api/cron/charge-subscriptions` twice, each on a fresh server:
//! once with every relayer transaction refused by the chain (the whole claim / settle path with next to no
//! chain time: each charge is recorded `charge_failed`), once charging for real on the in-process chain.
//! Loopback only, bounded in count; prints one JSON line per run.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Instant;

use futures_util::{StreamExt, stream};
use payments_core::{SpendPermission, SpendPermissionData};
use payments_server::testing::{
    TEST_CRON_SECRET, TEST_START_MS, TestApp, sign_permission, spawn_app, wallet_of_key,
};
use serde_json::{Value, json};

const KEY_HEADER: &str = "X-Gateway-Subscription-Key";
const PRICE_UNITS: u128 = 9_990_000;
const MAX_COUNT: usize = 50_000;

fn customer_key(index: usize) -> [u8; 32] {
    let mut key = [0x11_u8; 32];
    key[24..].copy_from_slice(&(index as u64 + 1).to_be_bytes());
    key
}

async fn subscribe_all(app: &TestApp, http: &reqwest::Client, count: usize) {
    let plan: Value = http
        .post(app.url("/api/subscriptions/plans"))
        .header(KEY_HEADER, &app.key)
        .json(&json!({"name": "Weekly", "priceUsd": 9.99, "period": "WEEKLY"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let plan_id = plan["plan"]["planId"].as_str().unwrap().to_owned();
    let chain = app.chain();
    let spend = app.spend();
    let start = u64::try_from(TEST_START_MS / 1000).unwrap();
    let bodies: Vec<Value> = (0..count)
        .map(|index| {
            let key = customer_key(index);
            let account = wallet_of_key(key);
            chain.mint(account, 2 * PRICE_UNITS);
            chain.approve(account, chain.manager(), u128::MAX);
            let data = SpendPermissionData {
                account: account.to_string(),
                spender: spend.relayer().to_string(),
                token: spend.token().to_string(),
                allowance: PRICE_UNITS.to_string(),
                period: 604_800,
                start,
                end: start + 365 * 86_400,
                salt: index.to_string(),
                extra_data: "0x".to_owned(),
            };
            let permission: SpendPermission = data.parse().unwrap();
            let signature = sign_permission(key, &permission, &spend.domain());
            json!({
                "planId": plan_id,
                "customerWallet": account.to_string(),
                "permissionSignature": format!("0x{}", hex::encode(signature)),
                "permissionData": data,
            })
        })
        .collect();
    stream::iter(bodies)
        .map(|body| {
            let request = http.post(app.url("/api/subscriptions/create")).json(&body);
            async move {
                let status = request.send().await.unwrap().status();
                assert_eq!(status.as_u16(), 201);
            }
        })
        .buffer_unordered(32)
        .collect::<Vec<()>>()
        .await;
}

async fn run(count: usize, chain_refuses: bool) {
    let app = spawn_app().await;
    let http = reqwest::Client::new();
    subscribe_all(&app, &http, count).await;
    app.chain().fail_relayer_transactions(chain_refuses);
    let started = Instant::now();
    let report: Value = http
        .post(app.url("/api/cron/charge-subscriptions"))
        .header("x-cron-secret", TEST_CRON_SECRET)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let wall = started.elapsed();
    let processed = report["processed"].as_u64().unwrap();
    assert_eq!(processed, count as u64);
    println!(
        "{}",
        json!({
            "run": if chain_refuses { "chain refuses every charge" } else { "charged on the test-mode chain" },
            "subscriptions": count,
            "succeeded": report["succeeded"],
            "failed": report["failed"],
            "batchMs": report["durationMs"],
            "wallMs": wall.as_millis() as u64,
            "perSecond": (processed as f64 / wall.as_secs_f64()).round(),
        })
    );
    app.shutdown().await;
}

#[tokio::main(flavor = "multi_thread")]
async fn main() {
    let count = std::env::args()
        .nth(1)
        .map(|text| text.parse::<usize>().expect("COUNT is a number"))
        .unwrap_or(10_000)
        .min(MAX_COUNT);
    run(count, true).await;
    run(count, false).await;
}
