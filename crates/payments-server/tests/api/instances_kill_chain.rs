//! Three `payments-server` processes on one PostgreSQL database and one anvil chain, one killed with SIGKILL:
//! the chain watcher and the subscription charge batch carry on from another instance within 30 s, and no
//! charge in flight when the instance died is sent twice (issue 27). `bench/instances_kill.sh` runs these
//! too and prints the measured takeover times (`instances_kill_chain:` lines).
//!
//! Every instance runs the deposit watcher (no leader: a range's transfers and the cursor past it commit in
//! one transaction, and a range scanned twice records the same rows), so the watcher carries on at once on
//! the instances left. The charge batch runs wherever it is started (the cron route, or each instance's
//! timer); its claims and the relayer's send lease last `--subscription-lease-secs` (3 s here), after which
//! another run reconciles the dead run's claims with the chain before sending anything.
//! Skipped with a message without anvil or PostgreSQL, except under `CI=true`.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use payments_core::AdminLogin;
use payments_core::SpendPermissionData;
use payments_server::testing::{
    PgTestDatabase, TEST_ADMIN_PRIVATE_KEY, TEST_ADMIN_WALLET, eventually, sign_login,
};
use reqwest::Method;
use serde_json::{Value, json};

use crate::anvil::{BUYER, BUYER_KEY, DEPLOYER_KEY};
use crate::dev_master_key_shared::{DevServerProcess, key_with_scopes};
use crate::helpers::{KEY_HEADER, send};
use crate::receipts_create::receipt_body;
use crate::subscriptions_batch_anvil::{Chain, PRICE, customer, subscription_request};
use crate::subscriptions_in_flight_anvil::{rpc, unmined};

/// The merchant: the harness's admin wallet, so it can sign in and deploy its split.
const MERCHANT: &str = TEST_ADMIN_WALLET;
const CRON_SECRET: &str = "instances-kill-chain-cron-secret";
const LEASE_SECS: u64 = 3;
const LEASE: Duration = Duration::from_secs(LEASE_SECS);
/// What issue 27 allows for another instance to take over.
const TAKEOVER: Duration = Duration::from_secs(30);
/// Two `chargeBatch` transactions (50 charges each at most): one is mined, one lost in flight.
const SUBSCRIPTIONS: usize = 55;
/// The manager's event for every spend of a permission (the account is its second indexed topic).
const SPEND_EVENT: &str = "SpendPermissionUsed(bytes32,address,address,address,uint48,uint48,uint256)";

/// anvil with the contracts, a fresh database, the merchant's key and three server processes on them.
/// Fields drop in this order: the processes are killed before their database and chain go.
struct Cluster {
    instances: Vec<DevServerProcess>,
    database: PgTestDatabase,
    chain: Chain,
    files: tempfile::TempDir,
    key: String,
    http: reqwest::Client,
}

impl Cluster {
    async fn start() -> Option<Cluster> {
        let chain = Chain::start()?;
        let database = PgTestDatabase::create().await?;
        let files = tempfile::tempdir().unwrap();
        std::fs::write(
            files.path().join("contracts.json"),
            serde_json::to_string(&chain.contracts).unwrap(),
        )
        .unwrap();
        std::fs::write(files.path().join("relayer.key"), format!("{DEPLOYER_KEY}\n")).unwrap();
        let mut cluster = Cluster {
            instances: Vec::new(),
            database,
            chain,
            files,
            key: String::new(),
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(20))
                .build()
                .unwrap(),
        };
        for _ in 0..3 {
            let instance = cluster.start_instance().await;
            cluster.instances.push(instance);
        }
        cluster.key = key_with_scopes(
            &cluster.database,
            MERCHANT,
            "receipts:read,receipts:write,subscriptions:read,subscriptions:write",
        );
        Some(cluster)
    }

    async fn start_instance(&self) -> DevServerProcess {
        let path = |name: &str| self.files.path().join(name).to_string_lossy().into_owned();
        let (contracts, relayer) = (path("contracts.json"), path("relayer.key"));
        let lease = LEASE_SECS.to_string();
        let extra = [
            "--chain-rpc-url",
            self.chain.anvil.rpc_url.as_str(),
            "--chain-contracts",
            &contracts,
            "--relayer-key-file",
            &relayer,
            "--confirmations",
            "1",
            "--chain-poll-ms",
            "200",
            "--cron-secret",
            CRON_SECRET,
            "--subscription-lease-secs",
            &lease,
            "--rate-limit-per-minute",
            "1000000",
        ];
        DevServerProcess::start_with(&self.database, &extra).await
    }

    fn request(&self, instance: &DevServerProcess, method: Method, path: &str) -> reqwest::RequestBuilder {
        self.http
            .request(method, format!("{}{path}", instance.base_url))
            .header(KEY_HEADER, &self.key)
    }

    /// Signs the merchant in on `instance` (its session cookie is good there only: each `--dev` process
    /// draws its own JWT secret) and deploys its split, the platform's share included: receipts are paid to
    /// deposit addresses that forward to it.
    async fn deploy_split(&self, instance: &DevServerProcess) {
        let base = &instance.base_url;
        let nonce: Value = self
            .http
            .get(format!("{base}/api/auth/nonce?wallet={MERCHANT}"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let login = AdminLogin {
            wallet: MERCHANT.parse().unwrap(),
            nonce: nonce["nonce"].as_str().unwrap().to_owned(),
            issued_at_secs: std::time::UNIX_EPOCH.elapsed().unwrap().as_secs(),
        };
        let body = json!({
            "wallet": MERCHANT, "nonce": login.nonce, "issuedAt": login.issued_at_secs,
            "signature": sign_login(TEST_ADMIN_PRIVATE_KEY, &login, self.chain.contracts.chain_id),
        });
        let signed_in = self
            .http
            .post(format!("{base}/api/auth/login"))
            .json(&body)
            .send()
            .await
            .unwrap();
        let cookie = signed_in.headers()["set-cookie"].to_str().unwrap();
        let cookie = cookie.split(';').next().unwrap().to_owned();
        let csrf: Value = signed_in.json().await.unwrap();
        let deployed = send(
            self.http
                .post(format!("{base}/api/split/deploy"))
                .header("cookie", cookie)
                .header("x-csrf-token", csrf["csrfToken"].as_str().unwrap())
                .json(&json!({})),
        )
        .await;
        assert_eq!(deployed.status, 200, "{}", deployed.json);
    }

    async fn rpc(&self, method: &str, params: Value) -> Value {
        rpc(&self.chain.anvil.rpc_url, method, params).await
    }

    /// `POST /api/cron/charge-subscriptions` on `instance`.
    fn batch(&self, instance: &DevServerProcess) -> impl Future<Output = reqwest::Result<Value>> + 'static {
        let request = self
            .http
            .post(format!("{}/api/cron/charge-subscriptions", instance.base_url))
            .header("x-cron-secret", CRON_SECRET)
            .send();
        async move { request.await?.error_for_status()?.json().await }
    }

    /// How many spends the manager recorded for each of `owners`: its `SpendPermissionUsed` events (one per
    /// charge, whichever transaction made it).
    async fn spends_of(&self, owners: &[String]) -> HashMap<String, usize> {
        let used = alloy::primitives::keccak256(SPEND_EVENT);
        let logs = self
            .rpc(
                "eth_getLogs",
                json!([{"fromBlock": "0x0", "toBlock": "latest", "address": self.chain.manager,
                        "topics": [format!("{used:#x}")]}]),
            )
            .await;
        let mut counts: HashMap<String, usize> = owners.iter().map(|owner| (owner.clone(), 0)).collect();
        for log in logs.as_array().unwrap() {
            let account = format!("0x{}", &log["topics"][2].as_str().unwrap()[26..]);
            if let Some(count) = counts.get_mut(&account) {
                *count += 1;
            }
        }
        counts
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn with_an_instance_killed_another_marks_an_on_chain_payment_paid_within_30_seconds() {
    let Some(mut cluster) = Cluster::start().await else {
        return;
    };
    cluster.deploy_split(&cluster.instances[1]).await;
    let created = send(
        cluster
            .request(&cluster.instances[1], Method::POST, "/api/receipts")
            .json(&receipt_body("kill-chain-1")),
    )
    .await;
    assert_eq!(created.status, 201, "{}", created.json);
    let path = "/api/receipts/kill-chain-1";
    let unpaid = send(cluster.request(&cluster.instances[2], Method::GET, path)).await;
    let deposit = unpaid.json["payment"]["to"].as_str().unwrap().to_owned();
    let amount = unpaid.json["payment"]["amount"].as_str().unwrap().to_owned();

    // kill -9 of a watching instance: no leader to hand over, the others keep scanning.
    drop(cluster.instances.remove(0));
    let anvil = &cluster.chain.anvil;
    let token = cluster.chain.token.clone();
    anvil.send(BUYER_KEY, &token, "mint(address,uint256)", &[BUYER, &amount]);
    let payment = anvil.send(
        BUYER_KEY,
        &token,
        "transfer(address,uint256)",
        &[&deposit, &amount],
    );
    anvil.mine(1);
    let mined = Instant::now();
    let paid = eventually("another instance to mark the payment paid", TAKEOVER, || async {
        let receipt = send(cluster.request(&cluster.instances[1], Method::GET, path)).await;
        ["paid", "completed"]
            .contains(&receipt.json["status"].as_str().unwrap_or_default())
            .then_some(receipt.json)
    })
    .await;
    let took = mined.elapsed();

    eprintln!(
        "instances_kill_chain: watcher: paid {took:?} after the payment was confirmed, one instance killed"
    );
    assert_eq!(paid["transactionHash"], payment.as_str(), "{paid} {payment}");
    assert!(took < TAKEOVER, "{took:?}");
}

/// What `subscription` records: its `charged` and `charge_failed` billing events.
async fn billing_counts(cluster: &Cluster, instance: &DevServerProcess, id: &str) -> (usize, usize) {
    let path = format!("/api/subscriptions/status?subscriptionId={id}");
    let status = send(cluster.request(instance, Method::GET, &path)).await;
    let events = status.json["billingEvents"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let with = |wanted: &str| events.iter().filter(|event| event["status"] == wanted).count();
    (with("charged"), with("charge_failed"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_batch_killed_with_charges_in_flight_is_finished_by_another_instance_charging_each_once() {
    let Some(mut cluster) = Cluster::start().await else {
        return;
    };
    let plan = send(
        cluster
            .request(&cluster.instances[0], Method::POST, "/api/subscriptions/plans")
            .json(&json!({"name": "Weekly box", "priceUsd": 9.99, "period": "WEEKLY"})),
    )
    .await;
    assert_eq!(plan.status, 201, "{}", plan.json);
    let plan_id = plan.json["plan"]["planId"].as_str().unwrap().to_owned();
    let customers: Vec<_> = (300..300 + SUBSCRIPTIONS).map(customer).collect();
    cluster.chain.fund(&customers, 3 * PRICE).await;
    let mut subscriptions: Vec<(String, SpendPermissionData)> = Vec::new();
    for customer in &customers {
        // The allowance would let a second charge through: only the servers' exactly-once keeps it at one.
        let (data, body) = subscription_request(&cluster.chain, &plan_id, customer, 2 * PRICE);
        let reply = send(
            cluster
                .request(&cluster.instances[0], Method::POST, "/api/subscriptions/create")
                .json(&body),
        )
        .await;
        assert_eq!(reply.status, 201, "{}", reply.json);
        let id = reply.json["subscription"]["subscriptionId"].as_str().unwrap();
        subscriptions.push((id.to_owned(), data));
    }

    // The chain stops mining, so the run's charges stay in flight (accepted, not mined) when it is killed.
    cluster.rpc("evm_setAutomine", json!([false])).await;
    let doomed = tokio::spawn(cluster.batch(&cluster.instances[0]));
    let in_flight = eventually("the run's two chargeBatch transactions", TAKEOVER, || async {
        let unmined = unmined(&cluster.chain.anvil.rpc_url).await;
        (unmined.len() == 2).then_some(unmined)
    })
    .await;
    drop(cluster.instances.remove(0));
    let killed = Instant::now();
    doomed.abort();
    // One transaction is lost with the instance (the node forgets it), the other is still to be mined.
    cluster
        .rpc("anvil_dropTransaction", json!([in_flight[1].1]))
        .await;

    tokio::time::sleep(LEASE + Duration::from_millis(500)).await;
    let early = tokio::time::timeout(Duration::from_secs(10), cluster.batch(&cluster.instances[0]))
        .await
        .unwrap_or_else(|_| {
            panic!("the run after the lease sent charges again while the dead run's were in flight")
        })
        .unwrap();
    let unmined_after = unmined(&cluster.chain.anvil.rpc_url).await;
    cluster.rpc("anvil_mine", json!(["0x1"])).await;
    cluster.rpc("evm_setAutomine", json!([true])).await;
    tokio::time::sleep(LEASE + Duration::from_millis(500)).await;
    let takeover = cluster.batch(&cluster.instances[1]).await.unwrap();
    let took = killed.elapsed();

    assert_eq!(early["succeeded"], 0, "{early}");
    assert_eq!(
        unmined_after,
        in_flight[..1].to_vec(),
        "nothing more sent while a charge was in flight"
    );
    assert_eq!(
        (&takeover["succeeded"], &takeover["failed"]),
        (&json!(SUBSCRIPTIONS), &json!(0)),
        "{takeover}"
    );
    assert!(took < TAKEOVER, "{took:?}");
    let owners: Vec<String> = customers.iter().map(|c| c.address.clone()).collect();
    let spends = cluster.spends_of(&owners).await;
    for ((id, permission), owner) in subscriptions.iter().zip(&owners) {
        assert_eq!(spends[owner], 1, "{owner} spent once");
        assert_eq!(cluster.chain.spent(permission), PRICE, "{owner}");
        let counts = billing_counts(&cluster, &cluster.instances[1], id).await;
        assert_eq!(counts, (1, 0), "{id}: one charged event");
    }

    // The killed instance comes back: nothing is due, nothing more is charged.
    let restarted = cluster.start_instance().await;
    let after_restart = cluster.batch(&restarted).await.unwrap();
    assert_eq!(after_restart["processed"], 0, "{after_restart}");
    assert_eq!(cluster.spends_of(&owners).await, spends);
    eprintln!(
        "instances_kill_chain: batch: {SUBSCRIPTIONS} subscriptions, 2 chargeBatch transactions in flight at \
         the kill (one mined later, one lost); every subscription charged once by another instance {took:?} \
         after the kill (lease {LEASE_SECS} s, a run in between left them pending while one was unmined)"
    );
}
