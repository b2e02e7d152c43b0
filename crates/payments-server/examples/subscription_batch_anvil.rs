//! Benchmark of the subscription charge batch on anvil, chain included (docs/benchmarks.md). Driven by
//! `bench/subscriptions_anvil.sh`, which starts anvil and PostgreSQL's database, deploys the contracts and
//! runs this program in phases (each a fresh in-process server on the shared database, as a restarted
//! instance would be):
//!
//! - `setup FROM COUNT`: gives customers FROM..FROM+COUNT tokens and the manager's token allowance (token
//!   storage written through `anvil_setStorageAt`), and subscribes each through the HTTP API with a signed
//!   weekly permission of twice the price (so a double charge would be possible on chain, and visible);
//! - `charge`: one `POST /api/cron/charge-subscriptions`, timed; prints one JSON line;
//! - `verify FROM COUNT`: every customer's token balance and the manager's `getCurrentPeriod` spent show
//!   exactly one charge; prints one JSON line and exits non-zero otherwise.
//!
//! Environment: `BENCH_RPC_URL`, `BENCH_CONTRACTS` (the JSON `chain bootstrap` printed), `BENCH_DATABASE_URL`
//! (PostgreSQL), `BENCH_LEASE_SECS` (the claims' lease, for the restart after a `kill -9`). Loopback only;
//! COUNT is at most 5,000.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

use std::time::{Duration, Instant};

use alloy::primitives::{Address, B256, U256, keccak256};
use alloy::signers::local::PrivateKeySigner;
use alloy::sol;
use alloy::sol_types::SolCall;
use futures_util::{StreamExt, stream};
use payments_core::{SpendPermission, SpendPermissionData, SpendPermissionDomain};
use payments_server::ChainContracts;
use payments_server::testing::{
    TEST_CRON_SECRET, TestApp, TestNode, TestOptions, sign_permission, spawn_app_with,
};
use serde_json::{Value, json};

sol! {
    struct Permission {
        address account;
        address spender;
        address token;
        uint160 allowance;
        uint48 period;
        uint48 start;
        uint48 end;
        uint256 salt;
        bytes extraData;
    }
    function getCurrentPeriod(Permission permission) external view returns (uint48 start, uint48 end, uint160 spent);
    function balanceOf(address account) external view returns (uint256);
}

const KEY_HEADER: &str = "X-Gateway-Subscription-Key";
/// anvil's first account: deploys, relays and is the spender every permission names.
const RELAYER_KEY: &str = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const PRICE: u128 = 9_990_000;
const FUNDED: u128 = 3 * PRICE;
const WEEK: u64 = 604_800;
const MAX_COUNT: usize = 5_000;

struct Env {
    rpc_url: String,
    contracts: ChainContracts,
    database_url: String,
    lease: Duration,
    start: u64,
    http: reqwest::Client,
}

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| panic!("{name} is required"))
}

fn customer(index: usize) -> ([u8; 32], Address) {
    let key = keccak256(format!("bench-customer-{index}")).0;
    let address = PrivateKeySigner::from_bytes(&B256::from(key)).unwrap().address();
    (key, address)
}

fn word(address: Address) -> [u8; 32] {
    address.into_word().0
}

fn slot(key: [u8; 32], slot: [u8; 32]) -> String {
    format!("0x{}", hex::encode(keccak256([key, slot].concat())))
}

/// One JSON-RPC batch; every answer's `result`, in order.
async fn rpc_batch(env: &Env, calls: Vec<(&str, Value)>) -> Vec<Value> {
    let body: Vec<Value> = calls
        .into_iter()
        .enumerate()
        .map(|(id, (method, params))| json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
        .collect();
    let mut answers: Vec<Value> = env
        .http
        .post(&env.rpc_url)
        .json(&body)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    answers.sort_by_key(|answer| answer["id"].as_u64());
    answers
        .into_iter()
        .map(|answer| answer["result"].clone())
        .collect()
}

async fn chain_now(env: &Env) -> u64 {
    let block = rpc_batch(env, vec![("eth_getBlockByNumber", json!(["latest", false]))]).await;
    u64::from_str_radix(
        block[0]["timestamp"].as_str().unwrap().trim_start_matches("0x"),
        16,
    )
    .unwrap()
}

/// A fresh server on the shared database, its clock at the chain's time.
async fn server(env: &Env) -> TestApp {
    let app = spawn_app_with(TestOptions {
        node: Some(TestNode {
            rpc_url: env.rpc_url.clone(),
            contracts: env.contracts,
            relayer_key: RELAYER_KEY.to_owned(),
        }),
        postgres_url: Some(env.database_url.clone()),
        subscription_lease: Some(env.lease),
        ..TestOptions::default()
    })
    .await;
    // The chain's latest block may lag the wall clock (anvil mines only on demand); leases run on the later.
    let wall_ms = i64::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis(),
    )
    .unwrap();
    app.clock
        .set((i64::try_from(chain_now(env).await).unwrap() * 1000).max(wall_ms));
    app
}

/// Every permission starts at `BENCH_START` (Unix seconds, set once by the script), so `verify` can rebuild
/// it to ask the manager about it.
fn permission_data(env: &Env, account: Address) -> SpendPermissionData {
    let start = env.start;
    SpendPermissionData {
        account: format!("{account:#x}"),
        spender: format!(
            "{:#x}",
            PrivateKeySigner::from_bytes(&RELAYER_KEY.parse().unwrap())
                .unwrap()
                .address()
        ),
        token: env.contracts.token.to_string(),
        allowance: (2 * PRICE).to_string(),
        period: WEEK,
        start,
        end: start + 365 * 86_400,
        salt: "1".to_owned(),
        extra_data: "0x".to_owned(),
    }
}

async fn setup(env: &Env, from: usize, count: usize) {
    let app = server(env).await;
    let manager = env
        .contracts
        .spend_permission_manager
        .expect("a manager")
        .address();
    let token = env.contracts.token.to_string();
    let mut writes = Vec::new();
    for index in from..from + count {
        let (_, account) = customer(index);
        let balance = slot(word(account), U256::from(1).to_be_bytes());
        let allowance = slot(
            word(manager),
            keccak256([word(account), U256::from(2).to_be_bytes()].concat()).0,
        );
        writes.push((
            "anvil_setStorageAt",
            json!([token, balance, B256::from(U256::from(FUNDED))]),
        ));
        writes.push((
            "anvil_setStorageAt",
            json!([token, allowance, B256::from(U256::MAX)]),
        ));
    }
    for chunk in writes.chunks(1_000) {
        assert!(
            rpc_batch(env, chunk.to_vec())
                .await
                .iter()
                .all(|ok| ok == &json!(true))
        );
    }
    let plan: Value = env
        .http
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
    let domain = SpendPermissionDomain {
        chain_id: env.contracts.chain_id,
        verifying_contract: manager,
    };
    stream::iter(from..from + count)
        .map(|index| {
            let (key, account) = customer(index);
            let data = permission_data(env, account);
            let permission: SpendPermission = data.parse().unwrap();
            let signature = sign_permission(key, &permission, &domain);
            let request = env.http.post(app.url("/api/subscriptions/create")).json(&json!({
                "planId": plan_id,
                "customerWallet": format!("{account:#x}"),
                "permissionSignature": format!("0x{}", hex::encode(signature)),
                "permissionData": data,
            }));
            async move {
                let reply = request.send().await.unwrap();
                assert_eq!(reply.status().as_u16(), 201, "{}", reply.text().await.unwrap());
            }
        })
        .buffer_unordered(16)
        .collect::<Vec<()>>()
        .await;
    println!(
        "{}",
        json!({"phase": "setup", "from": from, "subscriptions": count})
    );
    app.shutdown().await;
}

async fn charge(env: &Env) {
    let app = server(env).await;
    let started = Instant::now();
    let report: Value = env
        .http
        .post(app.url("/api/cron/charge-subscriptions"))
        .header("x-cron-secret", TEST_CRON_SECRET)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let wall = started.elapsed();
    let succeeded = report["succeeded"].as_u64().unwrap_or_default();
    // A charge found on chain by reconciliation (a killed run's, mined but never recorded) has no hash.
    let found_on_chain = report["results"].as_array().map_or(0, |results| {
        results
            .iter()
            .filter(|result| result["status"] == "charged" && result["transactionHash"].is_null())
            .count()
    });
    let transactions: std::collections::HashSet<&str> = report["results"]
        .as_array()
        .map(|results| {
            results
                .iter()
                .filter_map(|result| result["transactionHash"].as_str())
                .collect()
        })
        .unwrap_or_default();
    println!(
        "{}",
        json!({
            "phase": "charge",
            "processed": report["processed"],
            "succeeded": succeeded,
            "failed": report["failed"],
            "transactions": transactions.len(),
            "foundOnChain": found_on_chain,
            "batchMs": report["durationMs"],
            "wallMs": u64::try_from(wall.as_millis()).unwrap(),
            "chargesPerSecond": (succeeded as f64 / wall.as_secs_f64()).round(),
        })
    );
    app.shutdown().await;
}

async fn verify(env: &Env, from: usize, count: usize) -> bool {
    let manager = env
        .contracts
        .spend_permission_manager
        .expect("a manager")
        .to_string();
    let token = env.contracts.token.to_string();
    let mut calls = Vec::new();
    for index in from..from + count {
        let (_, account) = customer(index);
        let data: SpendPermission = permission_data(env, account).parse().unwrap();
        let balance = balanceOfCall { account }.abi_encode();
        let period = getCurrentPeriodCall {
            permission: Permission {
                account: data.account,
                spender: data.spender,
                token: data.token,
                allowance: data.allowance,
                period: data.period,
                start: data.start,
                end: data.end,
                salt: data.salt,
                extraData: data.extra_data.clone(),
            },
        }
        .abi_encode();
        calls.push((
            "eth_call",
            json!([{"to": token, "data": format!("0x{}", hex::encode(balance))}, "latest"]),
        ));
        calls.push((
            "eth_call",
            json!([{"to": manager, "data": format!("0x{}", hex::encode(period))}, "latest"]),
        ));
    }
    let mut answers = Vec::new();
    for chunk in calls.chunks(1_000) {
        answers.extend(rpc_batch(env, chunk.to_vec()).await);
    }
    let mut charged_once = 0;
    let mut wrong = Vec::new();
    for (offset, pair) in answers.chunks(2).enumerate() {
        let decode =
            |answer: &Value| hex::decode(answer.as_str().unwrap_or("0x").trim_start_matches("0x")).unwrap();
        let balance = U256::from_be_slice(&decode(&pair[0]));
        let period = getCurrentPeriodCall::abi_decode_returns(&decode(&pair[1]));
        let spent = period.map(|period| period.spent.to::<u128>()).ok();
        if balance == U256::from(FUNDED - PRICE) && spent == Some(PRICE) {
            charged_once += 1;
        } else {
            wrong.push(json!({"customer": from + offset, "balance": balance.to_string(), "spent": spent}));
        }
    }
    println!(
        "{}",
        json!({"phase": "verify", "subscriptions": count, "chargedExactlyOnce": charged_once, "wrong": wrong})
    );
    wrong.is_empty()
}

#[tokio::main(flavor = "multi_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let env = Env {
        rpc_url: env("BENCH_RPC_URL"),
        contracts: ChainContracts::from_json(&env("BENCH_CONTRACTS")).expect("BENCH_CONTRACTS"),
        database_url: env("BENCH_DATABASE_URL"),
        lease: Duration::from_secs(
            std::env::var("BENCH_LEASE_SECS")
                .ok()
                .and_then(|secs| secs.parse().ok())
                .unwrap_or(300),
        ),
        start: env("BENCH_START").parse().expect("BENCH_START is Unix seconds"),
        http: reqwest::Client::new(),
    };
    let number = |position: usize| -> usize {
        args.get(position)
            .map_or(0, |text| text.parse().expect("a number"))
    };
    match args.first().map(String::as_str) {
        Some("setup") => setup(&env, number(1), number(2).min(MAX_COUNT)).await,
        Some("charge") => charge(&env).await,
        Some("verify") => {
            if !verify(&env, number(1), number(2).min(MAX_COUNT)).await {
                std::process::exit(1);
            }
        }
        _ => panic!("usage: subscription_batch_anvil setup FROM COUNT | charge | verify FROM COUNT"),
    }
}
