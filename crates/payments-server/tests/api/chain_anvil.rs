//! End to end on anvil: `payments-server chain bootstrap` deploys the contracts, a merchant configures a split
//! with two merchant recipients, a buyer pays an order's deposit address with the test token, the receipt
//! becomes `paid` (buyer and transaction from the chain) then `completed`, and the recipients' balances add
//! up to the payment exactly. Also: underpayment, a restart before confirmation, a reorg before confirmation,
//! a claimed `checkout_success` checked on chain, a `splitAddress` that is not a split.

use std::process::Command;
use std::time::Duration;

use payments_server::ChainContracts;
use payments_server::testing::{AdminClient, TestKey, TestOptions, eventually};
use reqwest::Method;
use serde_json::{Value, json};

use crate::admin_helpers::admin;
use crate::anvil::{Anvil, BUYER, BUYER_KEY, DEPLOYER_KEY};
use crate::helpers::{Api, send};

pub(crate) const PARTNER: &str = "0x7777777777777777777777777777777777777777";
pub(crate) const PLATFORM: &str = "0x5050505050505050505050505050505050505050";
const WAIT: Duration = Duration::from_secs(30);

/// Bootstraps the contracts on `anvil` with the server binary, as an operator would.
pub(crate) fn bootstrap(anvil: &Anvil) -> ChainContracts {
    let dir = tempfile::tempdir().unwrap();
    let key_file = dir.path().join("deployer.key");
    std::fs::write(&key_file, format!("{DEPLOYER_KEY}\n")).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_payments-server"))
        .args([
            "chain",
            "bootstrap",
            "--rpc-url",
            &anvil.rpc_url,
            "--with-test-token",
        ])
        .arg("--deployer-key-file")
        .arg(&key_file)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let printed = String::from_utf8(output.stdout).unwrap();
    assert!(!printed.contains(&DEPLOYER_KEY[2..]), "the key is never printed");
    ChainContracts::from_json(&printed).unwrap()
}

pub(crate) struct Shop {
    pub(crate) api: Api,
    pub(crate) anvil: Anvil,
    pub(crate) contracts: ChainContracts,
    pub(crate) admin: AdminClient,
    pub(crate) key: TestKey,
}

/// anvil, the contracts, a server on them (`confirmations` deep) and a merchant whose split pays itself
/// 60%, a partner 39.5% and the platform 0.5%.
pub(crate) async fn shop(confirmations: u64) -> Option<Shop> {
    shop_with(TestOptions {
        confirmations: Some(confirmations),
        ..TestOptions::default()
    })
    .await
}

/// [`shop`] on a server with `options` (their `node` is this anvil's).
pub(crate) async fn shop_with(options: TestOptions) -> Option<Shop> {
    let anvil = Anvil::start()?;
    let contracts = bootstrap(&anvil);
    let api = Api::spawn_with(TestOptions {
        node: Some(anvil.node(contracts)),
        ..options
    })
    .await;
    let (admin_session, key) = api.app.merchant_admin().await;
    let recipients = json!([
        {"address": admin_session.wallet, "sharesBps": 6000},
        {"address": PARTNER, "sharesBps": 3950},
        {"address": PLATFORM, "sharesBps": 50},
    ]);
    let split = send(
        admin(&api, &admin_session, Method::POST, "/api/split/deploy")
            .json(&json!({"recipients": recipients})),
    )
    .await;
    assert_eq!(split.status, 200, "{}", split.json);
    Some(Shop {
        api,
        anvil,
        contracts,
        admin: admin_session,
        key,
    })
}

impl Shop {
    /// An order of one product at `price`; returns (receipt id, deposit address, amount in base units).
    pub(crate) async fn order(&self, sku: &str, price: f64) -> (String, String, u128) {
        let product = crate::orders::product(&self.api, &self.key, sku, &json!(price), false, -1).await;
        let reply = send(
            self.api
                .dev_as(&self.key.key, Method::POST, "/api/orders")
                .json(&json!({"items": [{"id": product, "qty": 1}]})),
        )
        .await;
        assert_eq!(reply.status, 200, "{}", reply.json);
        let id = reply.json["receipt"]["receiptId"].as_str().unwrap().to_owned();
        let receipt = self.read(&id).await;
        let payment = &receipt["payment"];
        assert_eq!(payment["chainId"], 31337);
        (
            id,
            payment["to"].as_str().unwrap().to_owned(),
            payment["amount"].as_str().unwrap().parse().unwrap(),
        )
    }

    pub(crate) async fn read(&self, id: &str) -> Value {
        let reply = send(
            self.api
                .dev_as(&self.key.key, Method::GET, &format!("/api/receipts/{id}")),
        )
        .await;
        assert_eq!(reply.status, 200, "{}", reply.json);
        reply.json
    }

    pub(crate) async fn wait_for(&self, id: &str, status: &str) -> Value {
        eventually(&format!("{id} to become {status}"), WAIT, || async {
            let receipt = self.read(id).await;
            (receipt["status"] == status).then_some(receipt)
        })
        .await
    }

    pub(crate) fn token(&self) -> String {
        self.contracts.token.to_string()
    }

    /// The buyer mints test tokens and sends `amount` to `to`; returns the transfer's hash.
    pub(crate) fn pay(&self, to: &str, amount: u128) -> String {
        let token = self.token();
        self.anvil.send(
            BUYER_KEY,
            &token,
            "mint(address,uint256)",
            &[BUYER, &amount.to_string()],
        );
        self.anvil.send(
            BUYER_KEY,
            &token,
            "transfer(address,uint256)",
            &[to, &amount.to_string()],
        )
    }
}

#[tokio::test]
async fn an_order_paid_on_anvil_becomes_paid_then_completed_and_the_split_pays_every_recipient_exactly() {
    let Some(shop) = shop(1).await else { return };
    let (id, deposit, amount) = shop.order("mug", 12.37).await;

    let transaction = shop.pay(&deposit, amount);
    shop.anvil.mine(1);

    let paid = eventually("the receipt to be paid", WAIT, || async {
        let receipt = shop.read(&id).await;
        (receipt["status"] == "paid" || receipt["status"] == "completed").then_some(receipt)
    })
    .await;
    assert_eq!(
        paid["transactionHash"].as_str().map(str::to_lowercase),
        Some(transaction.to_lowercase())
    );
    assert_eq!(
        paid["buyerWallet"].as_str().map(str::to_lowercase).as_deref(),
        Some(BUYER)
    );
    shop.wait_for(&id, "completed").await;
    let token = shop.token();
    let owner = shop.anvil.balance(&token, &shop.admin.wallet.to_string());
    let partner = shop.anvil.balance(&token, PARTNER);
    let platform = shop.anvil.balance(&token, PLATFORM);
    assert_eq!(platform, amount * 50 / 10_000);
    assert_eq!(partner, amount * 3950 / 10_000);
    assert_eq!(
        owner + partner + platform,
        amount,
        "the parts sum exactly to the payment"
    );
    assert_eq!(shop.anvil.balance(&token, &deposit), 0);
}

#[tokio::test]
async fn an_underpayment_on_anvil_is_underpaid_not_paid() {
    let Some(shop) = shop(1).await else { return };
    let (id, deposit, amount) = shop.order("cup", 3.00).await;

    shop.pay(&deposit, amount - 1);
    shop.anvil.mine(3);

    let receipt = shop.wait_for(&id, "underpaid").await;
    assert_eq!(receipt["amountDueBaseUnits"], "1", "{receipt}");
    assert_eq!(
        shop.anvil.balance(&shop.token(), &deposit),
        amount - 1,
        "nothing forwarded"
    );
}

#[tokio::test]
async fn a_restart_between_the_transfer_and_its_confirmation_loses_nothing_on_anvil() {
    let Some(mut shop) = shop(2).await else { return };
    let (id, deposit, amount) = shop.order("bowl", 5.50).await;
    shop.pay(&deposit, amount);

    shop.api = Api::from_app(shop.api.app.restart(false).await);
    shop.anvil.mine(2);

    let completed = shop.wait_for(&id, "completed").await;
    assert_eq!(
        completed["buyerWallet"]
            .as_str()
            .map(str::to_lowercase)
            .as_deref(),
        Some(BUYER)
    );
}

#[tokio::test]
async fn a_payment_reorganised_away_before_confirmation_never_makes_the_receipt_paid_on_anvil() {
    let Some(shop) = shop(2).await else { return };
    let (id, deposit, amount) = shop.order("plate", 9.99).await;
    let before = shop.anvil.snapshot();

    shop.pay(&deposit, amount);
    shop.anvil.revert(&before);
    shop.anvil.mine(4);
    tokio::time::sleep(Duration::from_millis(800)).await;

    assert_eq!(shop.read(&id).await["status"], "generated");
    assert_eq!(shop.anvil.balance(&shop.token(), &deposit), 0);
}

#[tokio::test]
async fn a_claimed_checkout_success_counts_only_when_the_chain_shows_the_transfer() {
    let Some(shop) = shop(1).await else { return };
    let (id, deposit, amount) = shop.order("spoon", 2.00).await;
    let post = |hash: String| {
        shop.api
            .dev_as(&shop.key.key, Method::POST, "/api/receipts/status")
            .json(&json!({"receiptId": id, "wallet": shop.key.wallet, "status": "checkout_success", "transactionHash": hash}))
    };

    let invented = send(post(format!("0x{}", "ab".repeat(32)))).await;
    let elsewhere = shop
        .anvil
        .send(BUYER_KEY, &shop.token(), "mint(address,uint256)", &[BUYER, "5"]);
    let unrelated = send(post(elsewhere)).await;
    let real = shop.pay(&deposit, amount);
    let claimed = send(post(real)).await;

    assert_eq!(invented.status, 400, "{}", invented.json);
    assert_eq!(invented.json["error"], "invalid_input");
    assert_eq!(unrelated.status, 400, "{}", unrelated.json);
    assert_eq!(claimed.status, 200, "{}", claimed.json);
    shop.anvil.mine(1);
    shop.wait_for(&id, "completed").await;
}

#[tokio::test]
async fn a_split_address_that_is_not_a_split_on_chain_is_refused() {
    let Some(shop) = shop(1).await else { return };
    let not_a_split = shop.token();
    let reply = send(
        admin(&shop.api, &shop.admin, Method::POST, "/api/split/deploy").json(&json!({
            "replace": true,
            "splitAddress": not_a_split,
            "recipients": [
                {"address": shop.admin.wallet, "sharesBps": 9950},
                {"address": PLATFORM, "sharesBps": 50},
            ]
        })),
    )
    .await;

    assert_eq!(reply.status, 400, "{}", reply.json);
    assert_eq!(reply.json["field"], "splitAddress");
}
