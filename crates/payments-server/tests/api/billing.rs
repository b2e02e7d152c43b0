//! GET /api/billing/balance: the platform's split share of paid receipts, what was settled on chain and
//! what remains.

use reqwest::Method;
use serde_json::json;

use crate::helpers::{Api, send};
use crate::user_helpers::Shop;

#[tokio::test]
async fn the_balance_counts_paid_receipts_and_what_their_splits_settled() {
    let api = Api::spawn().await;
    let shop = Shop::open(&api).await;
    let buyer = "0x1111111111111111111111111111111111111111";
    shop.sell(&api, "b-1", 7.75, buyer).await;
    shop.sell(&api, "b-2", 10.0, buyer).await;
    let unpaid = json!({"id": "b-3", "lineItems": [{"label": "Ticket", "priceUsd": 99}], "totalUsd": 99});
    assert_eq!(
        send(
            api.dev_as(&shop.key.key, Method::POST, "/api/receipts")
                .json(&unpaid)
        )
        .await
        .status,
        201
    );
    shop.post_status(&api, "b-1", json!({"status": "completed"}))
        .await;

    let reply = send(api.dev_as(&shop.key.key, Method::GET, "/api/billing/balance")).await;

    assert_eq!(reply.status, 200, "{}", reply.json);
    // 0.50% of 17.75 = 0.08875 -> 0.09 accrued; of 7.75 = 0.03875 -> 0.04 settled; 0.05 remains.
    assert_eq!(
        reply.json,
        json!({
            "wallet": shop.key.wallet, "currency": "USD", "platformShareBps": 50,
            "accruedUsd": 0.09, "settledUsd": 0.04, "remainingUsd": 0.05,
            "receipts": {"paidCount": 2, "paidUsd": 17.75, "settledCount": 1, "settledPaidUsd": 7.75,
                         "accruedUsd": 0.09, "settledUsd": 0.04, "remainingUsd": 0.05},
            "subscriptions": {"chargeCount": 0, "chargedUsd": 0, "accruedUsd": 0, "settledUsd": 0, "remainingUsd": 0,
                              "feeBaseUnits": "0"},
            "asOf": payments_server::testing::TEST_START_MS,
        })
    );
}

#[tokio::test]
async fn a_merchant_without_sales_owes_nothing_and_sees_only_its_own_receipts() {
    let api = Api::spawn().await;
    let shop = Shop::open(&api).await;
    shop.sell(&api, "b-1", 100.0, "0x1111111111111111111111111111111111111111")
        .await;

    let reply = send(api.dev(Method::GET, "/api/billing/balance")).await;

    assert_eq!(reply.status, 200);
    assert_eq!(reply.json["wallet"], json!(api.app.wallet));
    assert_eq!(
        (&reply.json["accruedUsd"], &reply.json["receipts"]["paidCount"]),
        (&json!(0), &json!(0))
    );
}

#[tokio::test]
async fn the_balance_needs_receipts_read() {
    let api = Api::spawn().await;
    let key = api.app.create_key(api.app.wallet, "shop:read").await;

    let reply = send(api.dev_as(&key.key, Method::GET, "/api/billing/balance")).await;

    assert_eq!(
        (reply.status, reply.json["error"].as_str()),
        (403, Some("forbidden"))
    );
}
