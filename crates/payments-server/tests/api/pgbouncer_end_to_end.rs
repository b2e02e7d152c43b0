//! The whole server on PostgreSQL through PgBouncer in transaction pooling mode (`pooler=transaction`,
//! started by the test on its own port with one server connection): a receipt is created, paid on the
//! test-mode chain, detected, settled, and its status changes reach the merchant's webhook receiver.

use payments_server::testing::{PgBouncer, PgTestDatabase, TestOptions};
use reqwest::Method;
use serde_json::{Value, json};

use crate::chain_payments::wait_for_status;
use crate::helpers::{Api, send};
use crate::orders::merchant_with_split;
use crate::webhook_receiver::Receiver;

/// Every transaction of the server (requests, chain watcher, dispatcher, leases) takes turns on it.
const ONE_SERVER_CONNECTION: u32 = 1;

#[tokio::test]
async fn behind_pgbouncer_a_receipt_is_created_paid_settled_and_its_webhooks_delivered() {
    let Some(database) = PgTestDatabase::create().await else {
        return;
    };
    let Some(bouncer) = PgBouncer::start(database.url(), ONE_SERVER_CONNECTION) else {
        return;
    };
    let api = Api::spawn_with(TestOptions {
        postgres_url: Some(bouncer.url_for(database.url())),
        ..TestOptions::default()
    })
    .await;
    let merchant = merchant_with_split(&api).await;
    let receiver = Receiver::start(&[]).await;
    let body = json!({"id": "pooled-1", "lineItems": [{"label": "Tea", "priceUsd": 4.5}], "totalUsd": 4.5,
        "webhook_url": receiver.url});
    let created = send(
        api.dev_as(&merchant.key.key, Method::POST, "/api/receipts")
            .json(&body),
    )
    .await;
    assert_eq!(created.status, 201, "{}", created.json);
    let read = send(api.dev_as(&merchant.key.key, Method::GET, "/api/receipts/pooled-1")).await;
    let payment = &read.json["payment"];
    let deposit = payments_core::Wallet::parse(payment["to"].as_str().unwrap()).unwrap();
    let amount: u128 = payment["amount"].as_str().unwrap().parse().unwrap();

    api.app.chain().pay(deposit, amount).await;

    wait_for_status(&api, &merchant.key, "pooled-1", "completed").await;
    let statuses: Vec<Value> = receiver
        .wait_for_distinct(2)
        .await
        .iter()
        .map(|request| serde_json::from_slice::<Value>(&request.body).unwrap()["status"].clone())
        .collect();
    assert_eq!(statuses, [json!("paid"), json!("completed")]);
    drop(api);
    drop(bouncer);
    database.drop_database().await;
}
