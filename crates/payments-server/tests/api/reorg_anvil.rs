//! Finality and reorganisations after paid, on anvil (issue 26): `anvil_snapshot`/`anvil_revert` deeper
//! than `--confirmations` removes a paid receipt's payment, the receipt fails (`PORTAL_PAYMENT_REORGED`)
//! with a signed webhook and a new payment pays it again; a reorganisation that mines the same transfer in
//! another block keeps it paid with the new block; `finalized` follows anvil's `finalized` tag (64 blocks
//! behind its head) and settlement waits for it. Skips without anvil (fails under CI).

use std::time::{Duration, UNIX_EPOCH};

use payments_server::testing::{TEST_START_MS, eventually};
use reqwest::Method;
use serde_json::{Value, json};
use webhook_verify::{ApiKey, Verifier};

use crate::anvil::{Anvil, BUYER, BUYER_KEY};
use crate::chain_anvil::{Shop, shop_with};
use crate::helpers::send;
use crate::webhook_receiver::Receiver;

const WAIT: Duration = Duration::from_secs(30);
/// How far anvil's `finalized` block trails its head.
const ANVIL_FINALITY_DEPTH: u32 = 64;

impl Shop {
    /// A 10.00 USD receipt whose webhooks go to `hook`; returns its deposit address.
    async fn receipt_hooked(&self, id: &str, hook: &str) -> String {
        let body = json!({
            "id": id, "lineItems": [{"label": "Tea", "priceUsd": 10.0}], "totalUsd": 10.0, "webhook_url": hook
        });
        let created = send(
            self.api
                .dev_as(&self.key.key, Method::POST, "/api/receipts")
                .json(&body),
        )
        .await;
        assert_eq!(created.status, 201, "{}", created.json);
        self.read(id).await["payment"]["to"].as_str().unwrap().to_owned()
    }

    /// The first webhook `receiver` got with `status`, its signature checked against the creating key.
    async fn signed_webhook(&self, receiver: &Receiver, status: &str) -> Value {
        let verifier = Verifier::new(ApiKey::new(&self.key.key).unwrap());
        let at = UNIX_EPOCH + Duration::from_millis(u64::try_from(TEST_START_MS).unwrap());
        let request = eventually(&format!("a {status} webhook"), WAIT, || async {
            receiver
                .received()
                .into_iter()
                .find(|request| request.json()["status"] == status)
        })
        .await;
        verifier.verify_at(&request.headers, &request.body, at).unwrap();
        request.json()
    }
}

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
    let Some(shop) = shop_with(2, true).await else {
        return;
    };
    let receiver = Receiver::start(&[]).await;
    let deposit = shop.receipt_hooked("deep-1", &receiver.url).await;
    let before = shop.anvil.snapshot();
    let first = shop.pay(&deposit, 10_000_000);
    let (first_block, _) = block_of(&shop.anvil, &first);
    shop.anvil.mine(2);
    let paid = shop.wait_for("deep-1", "paid").await;
    let paid_hook = shop.signed_webhook(&receiver, "paid").await;

    shop.anvil.revert(&before);
    shop.anvil.mine(5);
    let failed = shop.wait_for("deep-1", "failed").await;

    assert_eq!(paid["payment"]["blockNumber"], json!(first_block));
    assert_eq!(paid["payment"]["finalized"], false);
    assert_eq!(paid_hook["payment"]["blockNumber"], json!(first_block));
    assert_eq!(failed["failureCode"], "PORTAL_PAYMENT_REORGED", "{failed}");
    assert_eq!(failed["failureCategory"], "blockchain");
    assert_eq!(failed["amountReceivedBaseUnits"], "0");
    let failed_hook = shop.signed_webhook(&receiver, "failed").await;
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
    let Some(shop) = shop_with(2, true).await else {
        return;
    };
    let receiver = Receiver::start(&[]).await;
    let deposit = shop.receipt_hooked("moved-1", &receiver.url).await;
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
