//! Reconciliation on anvil (issue 26): on an honest database the admin route and `payments-server reconcile`
//! find no difference; rows changed behind the server's back (a received total, a recorded transfer, a
//! settlement, a refund) are each named with the database's and the chain's value, and the command exits 1.
//! Skips without anvil (fails under CI).

use std::path::Path;
use std::process::{Command, Output};

use reqwest::Method;
use serde_json::{Value, json};

use crate::admin_helpers::admin;
use crate::chain_anvil::{Shop, shop_with};
use crate::helpers::send;
use crate::webhook_receiver::Receiver;

const JWT_SECRET: &str = "a-reconcile-test-jwt-secret-of-enough-length";
const MASTER_KEY: &str = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
/// Who the refund goes back to.
const REFUNDED_BUYER: &str = "0x00000000000000000000000000000000000000b7";

async fn shop() -> Option<Shop> {
    let platform_admin = payments_core::Wallet::parse(payments_server::testing::TEST_ADMIN_WALLET).unwrap();
    shop_with(payments_server::testing::TestOptions {
        confirmations: Some(1),
        platform_admins: vec![platform_admin],
        // The test clock stands still, so the minute never ends: the status polls below must not run out.
        rate_limit_per_minute: std::num::NonZeroU32::new(1_000_000),
        ..Default::default()
    })
    .await
}

impl Shop {
    async fn reconcile(&self) -> Value {
        let reply = send(admin(&self.api, &self.admin, Method::GET, "/api/admin/reconcile")).await;
        assert_eq!(reply.status, 200, "{}", reply.json);
        reply.json
    }

    /// `payments-server reconcile` on the test server's database and chain.
    fn reconcile_command(&self, dir: &Path, json: bool) -> Output {
        let contracts = dir.join("contracts.json");
        std::fs::write(&contracts, serde_json::to_string(&self.contracts).unwrap()).unwrap();
        let mut command = Command::new(env!("CARGO_BIN_EXE_payments-server"));
        for (name, _) in std::env::vars().filter(|(name, _)| name.starts_with("PAYMENTS_")) {
            command.env_remove(name);
        }
        command
            .current_dir(dir)
            .args(["reconcile", "--dev=false", "--confirmations", "1"])
            .args(["--db", self.api.app.db_path.to_str().unwrap()])
            .args(["--chain-rpc-url", &self.anvil.rpc_url])
            .args(["--chain-contracts", contracts.to_str().unwrap()])
            .args(json.then_some("--json"))
            .env("PAYMENTS_JWT_SECRET", JWT_SECRET)
            .env("PAYMENTS_MASTER_KEY", MASTER_KEY)
            .output()
            .unwrap()
    }

    /// Changes the server's database behind its back.
    fn tamper(&self, sql: &str) {
        let connection = rusqlite::Connection::open(&self.api.app.db_path).unwrap();
        connection
            .busy_timeout(std::time::Duration::from_secs(5))
            .unwrap();
        connection.execute_batch(sql).unwrap();
    }
}

fn differences(report: &Value) -> Vec<(String, String, String, String)> {
    let mut found: Vec<_> = report["differences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|difference| {
            let text = |name: &str| difference[name].as_str().unwrap().to_owned();
            (text("subject"), text("field"), text("database"), text("chain"))
        })
        .collect();
    found.sort();
    found
}

#[tokio::test]
async fn reconcile_agrees_with_an_honest_database_and_names_every_row_changed_behind_the_servers_back() {
    let Some(shop) = shop().await else { return };
    let hooks = Receiver::start(&[]).await;
    let (paid, _) = shop.receipt_with_hook("rec-paid", &hooks.url).await;
    let (part, _) = shop.receipt_with_hook("rec-part", &hooks.url).await;
    let (refunded, _) = shop.receipt_with_hook("rec-refunded", &hooks.url).await;
    shop.pay(&paid, 10_000_000);
    let partial = shop.pay(&part, 3_000_000);
    shop.pay(&refunded, 10_000_000);
    shop.anvil.mine(1);
    shop.wait_for("rec-paid", "completed").await;
    shop.wait_for("rec-refunded", "completed").await;
    shop.wait_for("rec-part", "underpaid").await;
    // The merchant's refund is a real transfer of 4.00 to the buyer.
    let refund_hash = shop.pay(REFUNDED_BUYER, 4_000_000);
    shop.anvil.mine(2);
    let refund = send(
        admin(&shop.api, &shop.admin, Method::POST, "/api/receipts/refund").json(&json!({
            "receiptId": "rec-refunded", "wallet": shop.key.wallet, "buyer": REFUNDED_BUYER, "usd": 4.0,
            "items": [{"label": "Tea", "priceUsd": 4.0, "qty": 1}], "txHash": refund_hash,
        })),
    )
    .await;
    assert_eq!(refund.status, 200, "{}", refund.json);
    let dir = tempfile::tempdir().unwrap();

    let honest = shop.reconcile().await;
    let honest_command = shop.reconcile_command(dir.path(), false);

    assert_eq!(honest["ok"], true, "{honest}");
    assert_eq!(
        honest["checked"],
        json!({"receipts": 3, "refunds": 1, "charges": 0})
    );
    assert_eq!(differences(&honest), []);
    let printed = String::from_utf8_lossy(&honest_command.stdout);
    assert_eq!(
        honest_command.status.code(),
        Some(0),
        "{printed}{}",
        String::from_utf8_lossy(&honest_command.stderr)
    );
    assert!(printed.contains("no differences"), "{printed}");

    // Rows the watcher re-derives from the transfers it recorded (a paid receipt's received total, its
    // history) would be mended by its next pass; these it never rewrites.
    shop.tamper(
        "UPDATE receipts SET pay_split = '0x00000000000000000000000000000000000000c5' WHERE public_id = 'rec-paid';
         DELETE FROM chain_transfers WHERE to_wallet = (SELECT pay_to FROM receipts WHERE public_id = 'rec-part');
         UPDATE receipts SET received_units = '2999999' WHERE public_id = 'rec-part';
         UPDATE receipt_refunds SET usd_cents = 450;",
    );
    let tampered = shop.reconcile().await;
    let command = shop.reconcile_command(dir.path(), true);

    let partial_log = format!("transfer {}:0", partial.to_ascii_lowercase());
    let owned = |values: [&str; 4]| values.map(str::to_owned).into();
    let mut expected: Vec<(String, String, String, String)> = vec![
        owned(["receipt:rec-paid", "settlement", "completed", "nothing forwarded"]),
        owned([
            "receipt:rec-part",
            "amountReceivedBaseUnits",
            "2999999",
            "3000000",
        ]),
        (
            "receipt:rec-part".to_owned(),
            partial_log,
            "absent".to_owned(),
            "3000000".to_owned(),
        ),
        (
            "receipt:rec-refunded".to_owned(),
            "refund".to_owned(),
            format!("4500000 by {refund_hash}"),
            format!("4000000 moved by {refund_hash}"),
        ),
    ];
    expected.sort();
    assert_eq!(tampered["ok"], false);
    assert_eq!(differences(&tampered), expected, "{tampered}");
    assert_eq!(
        command.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&command.stderr)
    );
    let printed: Value = serde_json::from_slice(&command.stdout).unwrap();
    assert_eq!(differences(&printed), expected);
}
