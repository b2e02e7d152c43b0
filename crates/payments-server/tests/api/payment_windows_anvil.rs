//! Payment windows on anvil (issue 26), the chain a merchant runs on: an unpaid order expires when its window
//! ends (failed, `PORTAL_SESSION_EXPIRED`, its stock given back, its webhook sent), and a real transfer after
//! that is still credited as `paidLate`, taking the stock again, with its webhook. Skips without anvil (fails
//! under CI).

use std::time::Duration;

use payments_server::testing::{TestOptions, eventually};
use reqwest::Method;
use serde_json::json;

use crate::chain_anvil::shop_with;
use crate::helpers::send;
use crate::orders::product;
use crate::payment_windows::stock_of;
use crate::webhook_receiver::Receiver;

const WAIT: Duration = Duration::from_secs(30);

#[tokio::test]
async fn on_anvil_an_expired_order_gives_back_its_stock_and_a_payment_after_it_is_paid_late() {
    let Some(shop) = shop_with(TestOptions {
        confirmations: Some(1),
        // The test clock moves only when told, so the rate limit's minute would never end for the polls.
        rate_limit_per_minute: std::num::NonZeroU32::new(1_000_000),
        ..TestOptions::default()
    })
    .await
    else {
        return;
    };
    let mug = product(&shop.api, &shop.key, "MUG-LATE", &json!(6.25), false, 5).await;
    let hooks = Receiver::start(&[]).await;
    let created = send(
        shop.api
            .dev_as(&shop.key.key, Method::POST, "/api/orders")
            .json(&json!({"items": [{"id": mug, "qty": 2}], "expiresInMins": 5, "webhook_url": hooks.url})),
    )
    .await;
    assert_eq!(created.status, 200, "{}", created.json);
    let id = created.json["receipt"]["receiptId"].as_str().unwrap().to_owned();
    let path = format!("/api/receipts/{id}");
    let unpaid = send(shop.api.dev_as(&shop.key.key, Method::GET, &path))
        .await
        .json;
    let deposit = unpaid["payment"]["to"].as_str().unwrap().to_owned();
    let amount: u128 = unpaid["payment"]["amount"].as_str().unwrap().parse().unwrap();
    assert_eq!(stock_of(&shop.api, &shop.key, &mug).await, 3, "the order holds 2");

    shop.api.app.clock.advance(Duration::from_secs(5 * 60));
    let expired = shop.wait_for(&id, "failed").await;

    assert_eq!(expired["failureCode"], "PORTAL_SESSION_EXPIRED");
    assert_eq!(expired["failureCategory"], "session");
    assert_eq!(stock_of(&shop.api, &shop.key, &mug).await, 5, "given back");
    let expiry_hook = hooks.wait_for(1).await[0].json();
    assert_eq!(
        (expiry_hook["status"].clone(), expiry_hook["failureCode"].clone()),
        (json!("failed"), json!("PORTAL_SESSION_EXPIRED"))
    );

    let transaction = shop.pay(&deposit, amount);
    shop.anvil.mine(1);
    let late = eventually("the late payment to be credited", WAIT, || async {
        let receipt = send(shop.api.dev_as(&shop.key.key, Method::GET, &path))
            .await
            .json;
        (receipt["paidLate"] == true).then_some(receipt)
    })
    .await;

    assert!(
        ["paid", "completed"].contains(&late["status"].as_str().unwrap()),
        "{late}"
    );
    assert_eq!(late["transactionHash"], transaction.as_str());
    assert_eq!(late["stockShort"], false);
    assert_eq!(stock_of(&shop.api, &shop.key, &mug).await, 3, "taken again");
    let paid_hook = eventually("the late payment's webhook", WAIT, || async {
        hooks
            .received()
            .iter()
            .map(|hook| hook.json())
            .find(|body| body["status"] == "paid")
    })
    .await;
    assert_eq!(paid_hook["paidLate"], true);
    assert_eq!(paid_hook["previousStatus"], "failed");
}
