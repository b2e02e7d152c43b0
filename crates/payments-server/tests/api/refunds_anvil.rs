//! Refunds proven on anvil (issue 26): the refund's transaction is read from the node. A real transfer to the
//! buyer is `refund_requested` until it has `--confirmations`, then `refunded`; a made-up hash, a transfer to
//! someone else, one too small and one of another token are refused; a transaction used twice (also by two
//! concurrent refunds) proves one refund. Skips without anvil (fails under CI).

use futures_util::future::join;
use payments_server::testing::eventually;
use reqwest::Method;
use serde_json::{Value, json};

use crate::admin_helpers::admin;
use crate::anvil::BUYER;
use crate::chain_anvil::{Shop, shop};
use crate::helpers::{Reply, send};

/// anvil's third default account: it stands for the merchant's wallet sending refunds (not the deployer,
/// whose nonces the server's relayer keeps).
const REFUNDER_KEY: &str = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a";
const REFUNDER: &str = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";
const SOMEONE_ELSE: &str = "0x4444444444444444444444444444444444444444";
const WAIT: std::time::Duration = std::time::Duration::from_secs(30);

impl Shop {
    /// An order of `price` paid by the buyer and settled; returns its id and what was paid (base units, tax
    /// and fee included).
    async fn settled_order(&self, sku: &str, price: f64) -> (String, u128) {
        let (id, deposit, amount) = self.order(sku, price).await;
        self.pay(&deposit, amount);
        self.anvil.mine(2);
        self.wait_for(&id, "completed").await;
        (id, amount)
    }

    /// The merchant's stand-in sends `units` of `token` to `to`; returns the transaction hash.
    fn send_refund(&self, token: &str, to: &str, units: u128) -> String {
        let units = units.to_string();
        self.anvil
            .send(REFUNDER_KEY, token, "mint(address,uint256)", &[REFUNDER, &units]);
        self.anvil
            .send(REFUNDER_KEY, token, "transfer(address,uint256)", &[to, &units])
    }

    async fn refund(&self, id: &str, usd: Value, tx_hash: &str) -> Reply {
        let body = json!({"receiptId": id, "wallet": self.key.wallet, "buyer": BUYER, "usd": usd, "items": [],
                          "txHash": tx_hash});
        send(admin(&self.api, &self.admin, Method::POST, "/api/receipts/refund").json(&body)).await
    }

    async fn status(&self, id: &str) -> Value {
        let path = format!("/api/receipts/{id}");
        send(self.api.dev_as(&self.key.key, Method::GET, &path))
            .await
            .json
    }
}

/// Whole cents of `units` base units as a JSON USD amount.
fn usd_of(units: u128) -> Value {
    let cents = u64::try_from(units / 10_000).unwrap();
    json!(cents as f64 / 100.0)
}

fn error_of(reply: &Reply) -> (u16, &str) {
    (reply.status, reply.json["error"].as_str().unwrap_or(""))
}

#[tokio::test]
async fn a_real_refund_transfer_is_requested_until_confirmed_then_refunded() {
    let Some(shop) = shop(2).await else { return };
    let (id, paid) = shop.settled_order("mug", 12.37).await;
    let usd = usd_of(paid);
    let sent = shop.send_refund(&shop.token(), BUYER, paid);

    let requested = shop.refund(&id, usd.clone(), &sent).await;
    let waiting = shop.status(&id).await;
    shop.anvil.mine(2);
    let refunded = eventually("the refund to be confirmed", WAIT, || async {
        let receipt = shop.status(&id).await;
        (receipt["status"] == "refunded").then_some(receipt)
    })
    .await;

    assert_eq!(
        requested.json,
        json!({"ok": true, "status": "refund_requested", "previousStatus": "completed"})
    );
    assert_eq!(waiting["status"], "refund_requested");
    assert_eq!(waiting["refundedUsd"], usd);
    assert_eq!(refunded["refundedUsd"], usd);
}

#[tokio::test]
async fn made_up_misdirected_short_foreign_and_reused_refund_transactions_are_refused() {
    let Some(shop) = shop(0).await else { return };
    let (id, _) = shop.settled_order("mug", 5.0).await;
    let token = shop.token();
    let other_token = shop.anvil.bootstrap().await.token.to_string();
    let before = shop.status(&id).await;

    let made_up = shop
        .refund(&id, json!(1), &format!("0x{}", "11".repeat(32)))
        .await;
    let misdirected = shop
        .refund(&id, json!(1), &shop.send_refund(&token, SOMEONE_ELSE, 1_000_000))
        .await;
    let short = shop
        .refund(&id, json!(1), &shop.send_refund(&token, BUYER, 999_999))
        .await;
    let foreign = shop
        .refund(&id, json!(1), &shop.send_refund(&other_token, BUYER, 1_000_000))
        .await;
    let unchanged = shop.status(&id).await;
    let sent = shop.send_refund(&token, BUYER, 1_000_000);
    let first = shop.refund(&id, json!(1), &sent).await;
    let again = shop.refund(&id, json!(1), &sent).await;

    assert_eq!(
        error_of(&made_up),
        (400, "refund_tx_not_found"),
        "{}",
        made_up.json
    );
    for reply in [&misdirected, &short, &foreign] {
        assert_eq!(error_of(reply), (400, "refund_tx_mismatch"), "{}", reply.json);
    }
    // The payment's depth grows with every block the refunds mined; nothing else may change.
    let without_depth = |mut receipt: serde_json::Value| {
        receipt["payment"]["confirmations"].take();
        receipt
    };
    assert_eq!(without_depth(unchanged), without_depth(before));
    assert_eq!(first.json["status"], "refund_partial", "{}", first.json);
    assert_eq!(error_of(&again), (409, "refund_tx_reused"), "{}", again.json);
    assert_eq!(shop.status(&id).await["refundedUsd"], json!(1));
}

#[tokio::test]
async fn two_concurrent_refunds_with_one_transaction_on_anvil_refund_once() {
    let Some(shop) = shop(0).await else { return };
    let (first, _) = shop.settled_order("mug", 3.0).await;
    let (second, _) = shop.settled_order("cup", 3.0).await;
    let sent = shop.send_refund(&shop.token(), BUYER, 3_000_000);

    let (one, other) = join(
        shop.refund(&first, json!(3), &sent),
        shop.refund(&second, json!(3), &sent),
    )
    .await;

    let mut outcomes = vec![error_of(&one), error_of(&other)];
    outcomes.sort_unstable();
    assert_eq!(outcomes, [(200, ""), (409, "refund_tx_reused")]);
    let refunded = [
        shop.status(&first).await["refundedUsd"].clone(),
        shop.status(&second).await["refundedUsd"].clone(),
    ];
    assert_eq!(
        refunded.iter().filter(|usd| **usd == json!(3)).count(),
        1,
        "{refunded:?}"
    );
}
