//! Every unit of money accounted for, on anvil (issue 26): a receipt paid in parts is `underpaid` with what
//! arrived and what is missing, its page and QR ask for exactly the remainder, and the last part pays it; money
//! sent after paid is `overpaidUsd` on the receipt and in a webhook. Skips without anvil (fails under CI).

use reqwest::Method;
use serde_json::{Value, json};

use crate::chain_anvil::{Shop, shop};
use crate::helpers::send;
use crate::webhook_receiver::Receiver;

impl Shop {
    /// A receipt of 10.00 USD with a webhook to `hook`; returns its deposit address and payment URL.
    pub(crate) async fn receipt_with_hook(&self, id: &str, hook: &str) -> (String, String) {
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
        let receipt = self.receipt(id).await;
        assert_eq!(receipt["payment"]["amount"], "10000000");
        (
            receipt["payment"]["to"].as_str().unwrap().to_owned(),
            created.json["paymentUrl"].as_str().unwrap().to_owned(),
        )
    }

    async fn receipt(&self, id: &str) -> Value {
        let path = format!("/api/receipts/{id}");
        let reply = send(self.api.dev_as(&self.key.key, Method::GET, &path)).await;
        assert_eq!(reply.status, 200, "{}", reply.json);
        reply.json
    }

    /// Waits until the receipt records `received` base units; returns it.
    async fn received(&self, id: &str, received: &str) -> Value {
        payments_server::testing::eventually(
            &format!("{id} to record {received} base units"),
            std::time::Duration::from_secs(30),
            || async {
                let receipt = self.receipt(id).await;
                (receipt["amountReceivedBaseUnits"] == received).then_some(receipt)
            },
        )
        .await
    }
}

/// The bodies `receiver` got, in order of arrival.
fn bodies(receiver: &Receiver) -> Vec<Value> {
    receiver.received().iter().map(|request| request.json()).collect()
}

#[tokio::test]
async fn two_underpayments_leave_the_receipt_underpaid_the_page_asks_the_remainder_and_the_last_part_pays_it()
{
    let Some(shop) = shop(1).await else { return };
    let receiver = Receiver::start(&[]).await;
    let (deposit, page_url) = shop.receipt_with_hook("parts-1", &receiver.url).await;

    shop.pay(&deposit, 3_000_000);
    shop.anvil.mine(1);
    let first = shop.received("parts-1", "3000000").await;
    shop.pay(&deposit, 2_500_000);
    shop.anvil.mine(1);
    let second = shop.received("parts-1", "5500000").await;

    assert_eq!(first["status"], "underpaid", "{first}");
    assert_eq!(first["amountDueBaseUnits"], "7000000");
    assert_eq!(second["status"], "underpaid");
    assert_eq!(second["amountDueBaseUnits"], "4500000");
    assert_eq!(second["amountDueUsd"], json!(4.5));
    assert_eq!(second["amountReceivedUsd"], json!(5.5));
    assert_eq!(second["overpaidBaseUnits"], "0");
    let page = reqwest::get(&page_url).await.unwrap().text().await.unwrap();
    assert!(
        page.contains("&amp;uint256=4500000\""),
        "the link and QR ask for the remainder: {page}"
    );
    assert!(page.contains("Received so far: 5.50 USDC of $10.00"), "{page}");
    let underpaid = receiver.wait_for(2).await;
    let underpaid: Vec<Value> = underpaid.iter().map(|request| request.json()).collect();
    assert_eq!(underpaid[0]["status"], "underpaid");
    assert_eq!(underpaid[0]["amountReceivedBaseUnits"], "3000000");
    assert_eq!(underpaid[1]["previousStatus"], "underpaid");
    assert_eq!(underpaid[1]["amountDueBaseUnits"], "4500000");

    shop.pay(&deposit, 4_500_000);
    shop.anvil.mine(1);
    let paid = shop.wait_for("parts-1", "completed").await;

    assert_eq!(paid["amountReceivedBaseUnits"], "10000000");
    assert_eq!(paid["amountDueBaseUnits"], "0");
    assert_eq!(
        shop.anvil.balance(&shop.token(), &deposit),
        0,
        "all three parts forwarded"
    );
}

#[tokio::test]
async fn money_sent_after_paid_is_overpaid_on_the_receipt_and_in_a_webhook() {
    let Some(shop) = shop(1).await else { return };
    let receiver = Receiver::start(&[]).await;
    let (deposit, _) = shop.receipt_with_hook("over-1", &receiver.url).await;
    shop.pay(&deposit, 10_000_000);
    shop.anvil.mine(1);
    shop.wait_for("over-1", "completed").await;

    shop.pay(&deposit, 2_000_001);
    shop.anvil.mine(1);
    let overpaid = shop.received("over-1", "12000001").await;

    assert_eq!(overpaid["status"], "completed", "the status stays");
    assert_eq!(overpaid["overpaidBaseUnits"], "2000001");
    assert_eq!(overpaid["overpaidUsd"], json!(2.000001));
    assert_eq!(overpaid["amountDueBaseUnits"], "0");
    let sent = payments_server::testing::eventually(
        "the overpayment's webhook",
        std::time::Duration::from_secs(30),
        || async {
            bodies(&receiver)
                .into_iter()
                .find(|body| body["overpaidBaseUnits"] == "2000001")
        },
    )
    .await;
    assert_eq!(sent["status"], "completed");
    assert_eq!(sent["previousStatus"], "completed");
    assert_eq!(sent["amountReceivedUsd"], json!(12.000001));
}
