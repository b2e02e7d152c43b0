//! Finality and reorganisations after paid, on anvil (issue 26): `anvil_snapshot`/`anvil_revert` deeper
//! than `--confirmations` removes a paid receipt's payment, the receipt fails (`PORTAL_PAYMENT_REORGED`)
//! with a signed webhook and a new payment pays it again; a reorganisation that mines the same transfer in
//! another block keeps it paid with the new block; `finalized` follows anvil's `finalized` tag (64 blocks
//! behind its head) and settlement waits for it. Skips without anvil (fails under CI).

use std::time::Duration;

use payments_server::testing::eventually;
use reqwest::Method;
use serde_json::{Value, json};

use crate::anvil::{Anvil, BUYER, BUYER_KEY};
use crate::chain_anvil::shop_with;
use crate::helpers::send;
use crate::webhook_receiver::Receiver;

const WAIT: Duration = Duration::from_secs(30);
/// How far anvil's `finalized` block trails its head.
const ANVIL_FINALITY_DEPTH: u32 = 64;

/// Sends the signed raw transaction `raw`; returns its hash.
fn publish(anvil: &Anvil, raw: &str) -> String {
    anvil.cast(&["publish", raw]);
    anvil.cast(&["keccak", raw])
}

/// The number and hash of the block that mined `transaction`.
fn block_of(anvil: &Anvil, transaction: &str) -> (u64, String) {
    let receipt: Value = serde_json::from_str(&anvil.cast(&["receipt", "--json", transaction])).unwrap();
    let number = receipt["blockNumber"].as_str().unwrap().trim_start_matches("0x");
    (
        u64::from_str_radix(number, 16).unwrap(),
        receipt["blockHash"].as_str().unwrap().to_lowercase(),
    )
}

#[tokio::test]
async fn a_reorganisation_deeper_than_the_confirmations_fails_the_paid_receipt_and_a_new_payment_pays_it_on_anvil()
 {
    let Some(shop) = shop_with(finalized_shop_options()).await else {
        return;
    };
    let receiver = Receiver::start(&[]).await;
    let (deposit, _) = shop.receipt_with_hook("deep-1", &receiver.url).await;
    let before = shop.anvil.snapshot();
    let first = shop.pay(&deposit, 10_000_000);
    let (first_block, _) = block_of(&shop.anvil, &first);
    shop.anvil.mine(2);
    let paid = shop.wait_for("deep-1", "paid").await;
    let paid_hook = receiver.signed_with_status(&shop.key.key, "paid").await;

    shop.anvil.revert(&before);
    shop.anvil.mine(5);
    let failed = shop.wait_for("deep-1", "failed").await;

    assert_eq!(paid["payment"]["blockNumber"], json!(first_block));
    assert_eq!(paid["payment"]["finalized"], false);
    assert_eq!(paid_hook["payment"]["blockNumber"], json!(first_block));
    assert_eq!(failed["failureCode"], "PORTAL_PAYMENT_REORGED", "{failed}");
    assert_eq!(failed["failureCategory"], "blockchain");
    assert_eq!(failed["amountReceivedBaseUnits"], "0");
    let failed_hook = receiver.signed_with_status(&shop.key.key, "failed").await;
    assert_eq!(failed_hook["previousStatus"], "paid");
    assert_eq!(failed_hook["failureCode"], "PORTAL_PAYMENT_REORGED");
    let path = "/api/receipts/deep-1/transfers";
    let listed = send(shop.api.dev_as(&shop.key.key, Method::GET, path)).await;
    assert_eq!(
        listed.json["transfers"],
        json!([]),
        "the removed transfer no longer counts"
    );
    assert_eq!(shop.anvil.balance(&shop.token(), &deposit), 0);

    let second = shop.pay(&deposit, 10_000_000);
    shop.anvil.mine(2);
    let paid_again = shop.wait_for("deep-1", "paid").await;
    assert_eq!(
        paid_again["transactionHash"].as_str().map(str::to_lowercase),
        Some(second.to_lowercase())
    );
    assert_eq!(
        paid_again["buyerWallet"]
            .as_str()
            .map(str::to_lowercase)
            .as_deref(),
        Some(BUYER)
    );
    assert_eq!(
        shop.anvil.balance(&shop.token(), &deposit),
        10_000_000,
        "settlement waits for finality"
    );

    shop.anvil.mine(ANVIL_FINALITY_DEPTH);
    let completed = shop.wait_for("deep-1", "completed").await;
    assert_eq!(completed["payment"]["finalized"], true, "{completed}");
    assert_eq!(
        shop.anvil.balance(&shop.token(), &deposit),
        0,
        "forwarded once final"
    );
}

#[tokio::test]
async fn a_reorganisation_that_mines_the_same_transfer_in_another_block_keeps_the_receipt_paid_on_anvil() {
    let Some(shop) = shop_with(finalized_shop_options()).await else {
        return;
    };
    let receiver = Receiver::start(&[]).await;
    let (deposit, _) = shop.receipt_with_hook("moved-1", &receiver.url).await;
    let token = shop.token();
    shop.anvil
        .send(BUYER_KEY, &token, "mint(address,uint256)", &[BUYER, "10000000"]);
    let raw = shop.anvil.cast(&[
        "mktx",
        "--private-key",
        BUYER_KEY,
        &token,
        "transfer(address,uint256)",
        &deposit,
        "10000000",
    ]);
    let before = shop.anvil.snapshot();
    let transfer = publish(&shop.anvil, &raw);
    let (first_block, first_hash) = block_of(&shop.anvil, &transfer);
    shop.anvil.mine(2);
    let paid = shop.wait_for("moved-1", "paid").await;

    shop.anvil.revert(&before);
    shop.anvil.mine(1);
    publish(&shop.anvil, &raw);
    let (moved_block, moved_hash) = block_of(&shop.anvil, &transfer);
    shop.anvil.mine(3);
    let moved = eventually("the receipt to show the transfer's new block", WAIT, || async {
        let receipt = shop.read("moved-1").await;
        (receipt["payment"]["blockHash"] == moved_hash.as_str()).then_some(receipt)
    })
    .await;

    assert_eq!(paid["payment"]["blockNumber"], json!(first_block));
    assert_eq!(paid["payment"]["blockHash"], first_hash.as_str());
    assert_eq!(moved_block, first_block + 1);
    assert_eq!(moved["status"], "paid");
    assert_eq!(moved["payment"]["blockNumber"], json!(moved_block));
    assert!(
        receiver
            .received()
            .iter()
            .all(|request| request.json()["status"] != "failed"),
        "the receipt never failed"
    );

    shop.anvil.mine(ANVIL_FINALITY_DEPTH);
    let finalized = eventually("the payment to be final", WAIT, || async {
        let receipt = shop.read("moved-1").await;
        (receipt["payment"]["finalized"] == true).then_some(receipt)
    })
    .await;
    assert!(finalized["payment"]["confirmations"].as_u64() >= Some(u64::from(ANVIL_FINALITY_DEPTH)));
}

/// Two confirmations, and settlement waiting for finality (a node's default).
fn finalized_shop_options() -> payments_server::testing::TestOptions {
    payments_server::testing::TestOptions {
        confirmations: Some(2),
        settle_only_finalized: true,
        ..payments_server::testing::TestOptions::default()
    }
}
