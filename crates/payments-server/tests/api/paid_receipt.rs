//! A merchant admin with a split and a paid receipt, for the admin receipt tests.

use payments_server::testing::{AdminClient, TestKey};
use reqwest::Method;
use serde_json::json;

use crate::admin_helpers::admin;
use crate::helpers::{Api, send};

/// A refund the test-mode chain carries: `cents` of the payment token sent to `buyer`; its transaction hash.
pub(crate) async fn refund_sent(api: &Api, buyer: &str, cents: u128) -> String {
    let buyer = payments_core::Wallet::parse(buyer).unwrap();
    api.app.chain().pay(buyer, cents * 10_000).await
}

/// Signs in the merchant admin, configures its split, creates receipt `id` (7.75 USD) and marks it paid.
pub(crate) async fn paid_receipt(api: &Api, id: &str) -> (AdminClient, TestKey) {
    let (session, key) = api.app.merchant_admin().await;
    let recipients = json!([
        {"address": session.wallet, "sharesBps": 9950},
        {"address": "0x5050505050505050505050505050505050505050", "sharesBps": 50},
    ]);
    let split = send(
        admin(api, &session, Method::POST, "/api/split/deploy").json(&json!({"recipients": recipients})),
    )
    .await;
    assert_eq!(split.status, 200, "{}", split.json);
    let body = json!({"id": id, "lineItems": [{"label": "Coffee", "priceUsd": 3.5}, {"label": "Cake", "priceUsd": 4.25}],
                      "totalUsd": 7.75});
    let created = send(api.dev_as(&key.key, Method::POST, "/api/receipts").json(&body)).await;
    assert_eq!(created.status, 201, "{}", created.json);
    let paid = send(
        admin(api, &session, Method::POST, "/api/receipts/status").json(&json!({
            "receiptId": id, "wallet": key.wallet, "status": "paid"
        })),
    )
    .await;
    assert_eq!(paid.json["status"], "paid", "{}", paid.json);
    (session, key)
}
