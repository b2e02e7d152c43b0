//! Many subscriptions due at once on anvil, against the real SpendPermissionManager: one run charges every
//! one of them (in `chargeBatch` transactions, nonces managed by the relayer), with exact balances; a second
//! run charges nothing; two server instances sharing PostgreSQL running the batch at the same time charge
//! each subscription once, checked against the manager's period state on chain. Skipped (with a message)
//! when anvil (or PostgreSQL, for the shared test) is not there, except under `CI=true`.

use alloy::primitives::{Address, B256, U256, keccak256};
use alloy::signers::local::PrivateKeySigner;
use payments_core::{SpendPermission, SpendPermissionData, SpendPermissionDomain};
use payments_server::testing::{PgTestDatabase, TEST_CRON_SECRET, TestNode, TestOptions, sign_permission};
use reqwest::Method;
use serde_json::{Value, json};

use crate::anvil::{Anvil, DEPLOYER_KEY};
use crate::chain_anvil::bootstrap;
use crate::helpers::{Api, send};

const RELAYER: &str = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
const PLATFORM: &str = "0x5050505050505050505050505050505050505050";
const WEEK: u64 = 604_800;
/// TestToken's storage: `balanceOf` is slot 1, `allowance` slot 2 (`totalSupply` is slot 0).
const BALANCES_SLOT: u8 = 1;
const ALLOWANCES_SLOT: u8 = 2;

pub(crate) struct Customer {
    key: [u8; 32],
    pub(crate) address: String,
}

/// Customer `index`: a deterministic key, its address.
pub(crate) fn customer(index: usize) -> Customer {
    let key = keccak256(format!("customer-{index}")).0;
    let signer = PrivateKeySigner::from_bytes(&B256::from(key)).unwrap();
    Customer {
        key,
        address: format!("{:#x}", signer.address()),
    }
}

fn word(value: impl Into<U256>) -> [u8; 32] {
    value.into().to_be_bytes()
}

fn address_word(address: &str) -> [u8; 32] {
    let address: Address = address.parse().unwrap();
    let mut word = [0_u8; 32];
    word[12..].copy_from_slice(address.as_slice());
    word
}

/// `keccak256(key . slot)`: where a Solidity mapping keeps `key`'s value.
fn mapping_slot(key: [u8; 32], slot: [u8; 32]) -> [u8; 32] {
    keccak256([key, slot].concat()).0
}

fn hex32(bytes: [u8; 32]) -> String {
    format!("0x{}", hex::encode(bytes))
}

pub(crate) struct Chain {
    pub(crate) anvil: Anvil,
    pub(crate) token: String,
    pub(crate) manager: String,
    pub(crate) contracts: payments_server::ChainContracts,
}

impl Chain {
    pub(crate) fn start() -> Option<Chain> {
        let anvil = Anvil::start()?;
        let contracts = bootstrap(&anvil);
        Some(Chain {
            token: contracts.token.to_string(),
            manager: contracts.spend_permission_manager.unwrap().to_string(),
            contracts,
            anvil,
        })
    }

    pub(crate) fn node(&self) -> TestNode {
        TestNode {
            rpc_url: self.anvil.rpc_url.clone(),
            contracts: self.contracts,
            relayer_key: DEPLOYER_KEY.to_owned(),
        }
    }

    pub(crate) fn now(&self) -> u64 {
        self.anvil
            .cast(&["block", "latest", "--field", "timestamp"])
            .parse()
            .unwrap()
    }

    /// Gives every customer `balance` tokens and the manager an unlimited token allowance, by writing the
    /// token's storage (one JSON-RPC batch instead of two transactions per customer).
    pub(crate) async fn fund(&self, customers: &[Customer], balance: u128) {
        let manager = address_word(&self.manager);
        let mut calls = Vec::new();
        for (index, customer) in customers.iter().enumerate() {
            let owner = address_word(&customer.address);
            let balance_slot = mapping_slot(owner, word(U256::from(BALANCES_SLOT)));
            let allowance_slot =
                mapping_slot(manager, mapping_slot(owner, word(U256::from(ALLOWANCES_SLOT))));
            for (offset, (slot, value)) in [(balance_slot, U256::from(balance)), (allowance_slot, U256::MAX)]
                .into_iter()
                .enumerate()
            {
                calls.push(json!({
                    "jsonrpc": "2.0", "id": index * 2 + offset, "method": "anvil_setStorageAt",
                    "params": [self.token, hex32(slot), hex32(word(value))],
                }));
            }
        }
        let answers: Vec<Value> = reqwest::Client::new()
            .post(&self.anvil.rpc_url)
            .json(&calls)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert!(
            answers.iter().all(|answer| answer["result"] == true),
            "{answers:?}"
        );
    }

    pub(crate) fn balance(&self, owner: &str) -> u128 {
        self.anvil.balance(&self.token, owner)
    }

    /// What the manager counts as spent in `permission`'s current period.
    pub(crate) fn spent(&self, data: &SpendPermissionData) -> u128 {
        let tuple = cast_tuple(data);
        let answer = self.anvil.cast(&[
            "call",
            &self.manager,
            "getCurrentPeriod((address,address,address,uint160,uint48,uint48,uint48,uint256,bytes))(uint48,uint48,uint160)",
            &tuple,
        ]);
        answer
            .lines()
            .nth(2)
            .unwrap()
            .split_whitespace()
            .next()
            .unwrap()
            .parse()
            .unwrap()
    }
}

/// `data` as the tuple `cast` passes for the manager's `SpendPermission` argument.
pub(crate) fn cast_tuple(data: &SpendPermissionData) -> String {
    format!(
        "({},{},{},{},{},{},{},{},{})",
        data.account,
        data.spender,
        data.token,
        data.allowance,
        data.period,
        data.start,
        data.end,
        data.salt,
        data.extra_data
    )
}

/// A server on `chain` whose clock reads the chain's time.
pub(crate) async fn server(chain: &Chain, postgres_url: Option<String>) -> Api {
    let api = Api::spawn_with(TestOptions {
        node: Some(chain.node()),
        postgres_url,
        ..TestOptions::default()
    })
    .await;
    api.app.clock.set(i64::try_from(chain.now()).unwrap() * 1000);
    api
}

pub(crate) async fn create_plan(api: &Api, price_usd: f64) -> String {
    let plan = send(api.dev(Method::POST, "/api/subscriptions/plans").json(&json!({
        "name": "Weekly box", "priceUsd": price_usd, "period": "WEEKLY"
    })))
    .await;
    assert_eq!(plan.status, 201, "{}", plan.json);
    plan.json["plan"]["planId"].as_str().unwrap().to_owned()
}

/// The weekly permission of `allowance` base units `customer` signs for `plan_id`, and the body of
/// `POST /api/subscriptions/create` that carries it.
pub(crate) fn subscription_request(
    chain: &Chain,
    plan_id: &str,
    customer: &Customer,
    allowance: u128,
) -> (SpendPermissionData, Value) {
    let start = chain.now() - 10;
    let data = SpendPermissionData {
        account: customer.address.clone(),
        spender: RELAYER.to_owned(),
        token: chain.token.clone(),
        allowance: allowance.to_string(),
        period: WEEK,
        start,
        end: start + 365 * 86_400,
        salt: "1".to_owned(),
        extra_data: "0x".to_owned(),
    };
    let permission: SpendPermission = data.parse().unwrap();
    let domain = SpendPermissionDomain {
        chain_id: 31_337,
        verifying_contract: chain.manager.parse().unwrap(),
    };
    let signature = sign_permission(customer.key, &permission, &domain);
    let body = json!({
        "planId": plan_id,
        "customerWallet": customer.address,
        "permissionSignature": format!("0x{}", hex::encode(signature)),
        "permissionData": data,
    });
    (data, body)
}

/// `customer` subscribes to `plan_id` with a weekly permission of `allowance` base units.
pub(crate) async fn subscribe(
    api: &Api,
    chain: &Chain,
    plan_id: &str,
    customer: &Customer,
    allowance: u128,
) -> SpendPermissionData {
    let (data, body) = subscription_request(chain, plan_id, customer, allowance);
    let reply = send(
        api.anonymous(Method::POST, "/api/subscriptions/create")
            .json(&body),
    )
    .await;
    assert_eq!(reply.status, 201, "{}", reply.json);
    data
}

pub(crate) async fn batch(api: &Api) -> Value {
    let reply = send(
        api.anonymous(Method::POST, "/api/cron/charge-subscriptions")
            .header("x-cron-secret", TEST_CRON_SECRET),
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.json);
    reply.json
}

fn count(report: &Value, key: &str) -> u64 {
    report[key].as_u64().unwrap()
}

pub(crate) const PRICE: u128 = 9_990_000;
const FEE: u128 = 49_950;
const NET: u128 = PRICE - FEE;

#[tokio::test(flavor = "multi_thread")]
async fn on_anvil_forty_due_subscriptions_are_all_charged_in_one_run_and_a_second_run_charges_nothing() {
    let Some(chain) = Chain::start() else { return };
    let api = server(&chain, None).await;
    let merchant = api.app.wallet.to_string();
    let plan_id = create_plan(&api, 9.99).await;
    let customers: Vec<Customer> = (0..40).map(customer).collect();
    chain.fund(&customers, 2 * PRICE).await;
    for customer in &customers {
        subscribe(&api, &chain, &plan_id, customer, PRICE).await;
    }

    let first = batch(&api).await;
    let second = batch(&api).await;

    assert_eq!(
        (count(&first, "succeeded"), count(&first, "failed")),
        (40, 0),
        "{first}"
    );
    let results = first["results"].as_array().unwrap();
    assert!(
        results.iter().all(|result| result["status"] == "charged"),
        "{first}"
    );
    let transactions: std::collections::HashSet<&str> = results
        .iter()
        .map(|result| result["transactionHash"].as_str().unwrap())
        .collect();
    assert_eq!(
        transactions.len(),
        1,
        "40 charges fit in one chargeBatch: {transactions:?}"
    );
    assert_eq!(count(&second, "processed"), 0, "{second}");
    for customer in &customers {
        assert_eq!(chain.balance(&customer.address), PRICE, "{}", customer.address);
    }
    assert_eq!(chain.balance(&merchant), 40 * NET);
    assert_eq!(chain.balance(PLATFORM), 40 * FEE);
}

#[tokio::test(flavor = "multi_thread")]
async fn on_anvil_two_instances_sharing_postgresql_charge_each_due_subscription_once() {
    let Some(chain) = Chain::start() else { return };
    let Some(database) = PgTestDatabase::create().await else {
        return;
    };
    let one = server(&chain, Some(database.url().to_owned())).await;
    let two = server(&chain, Some(database.url().to_owned())).await;
    let merchant = one.app.wallet.to_string();
    let plan_id = create_plan(&one, 9.99).await;
    let customers: Vec<Customer> = (100..140).map(customer).collect();
    chain.fund(&customers, 3 * PRICE).await;
    let mut permissions = Vec::new();
    for customer in &customers {
        permissions.push(subscribe(&one, &chain, &plan_id, customer, 2 * PRICE).await);
    }

    let (first, second) = tokio::join!(batch(&one), batch(&two));

    assert_eq!(
        count(&first, "succeeded") + count(&second, "succeeded"),
        40,
        "{first} {second}"
    );
    assert_eq!(
        count(&first, "failed") + count(&second, "failed"),
        0,
        "{first} {second}"
    );
    // The allowance would let a second charge through: only the server's exactly-once keeps it at one.
    for (customer, permission) in customers.iter().zip(&permissions) {
        assert_eq!(chain.spent(permission), PRICE, "{}", customer.address);
        assert_eq!(
            chain.balance(&customer.address),
            2 * PRICE,
            "{}",
            customer.address
        );
    }
    assert_eq!(chain.balance(&merchant), 40 * NET);
    assert_eq!(count(&batch(&two).await, "processed"), 0);
    one.app.shutdown().await;
    two.app.shutdown().await;
    database.drop_database().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn on_anvil_a_99_cent_plan_pays_a_fee_of_4950_base_units_which_the_billing_balance_counts() {
    let Some(chain) = Chain::start() else { return };
    let api = server(&chain, None).await;
    let merchant = api.app.wallet.to_string();
    let plan_id = create_plan(&api, 0.99).await;
    let customers: Vec<Customer> = (200..203).map(customer).collect();
    chain.fund(&customers, 990_000).await;
    for customer in &customers {
        subscribe(&api, &chain, &plan_id, customer, 990_000).await;
    }

    let report = batch(&api).await;
    let listed = send(api.anonymous(
        Method::GET,
        &format!("/api/subscriptions/status?customer={}", customers[0].address),
    ))
    .await;
    let id = listed.json["subscriptions"][0]["subscriptionId"]
        .as_str()
        .unwrap();
    let status = send(api.anonymous(
        Method::GET,
        &format!("/api/subscriptions/status?subscriptionId={id}"),
    ))
    .await;
    let balance = send(api.dev(Method::GET, "/api/billing/balance")).await;

    assert_eq!(count(&report, "succeeded"), 3, "{report}");
    assert_eq!(chain.balance(PLATFORM), 3 * 4_950);
    assert_eq!(chain.balance(&merchant), 3 * 985_050);
    let event = &status.json["billingEvents"][0];
    assert_eq!(
        (
            &event["grossBaseUnits"],
            &event["feeBaseUnits"],
            &event["netBaseUnits"]
        ),
        (&json!("990000"), &json!("4950"), &json!("985050")),
        "{}",
        status.json
    );
    assert_eq!(balance.status, 200, "{}", balance.json);
    let subscriptions = &balance.json["subscriptions"];
    assert_eq!(subscriptions["chargeCount"], 3, "{}", balance.json);
    assert_eq!(subscriptions["feeBaseUnits"], "14850", "{}", balance.json);
    // 14,850 base units is 1.485 cents: 1 cent, half up.
    assert_eq!(subscriptions["accruedUsd"], 0.01, "{}", balance.json);
}
