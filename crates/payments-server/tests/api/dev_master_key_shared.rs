//! Development instances on one PostgreSQL database share the development master key through the database,
//! so whichever instance's dispatcher claims a webhook can open the creating key and sign it.

use std::time::{Duration, UNIX_EPOCH};

use payments_server::testing::{PgTestDatabase, TEST_START_MS, TestOptions};
use reqwest::Method;
use serde_json::json;
use webhook_verify::{ApiKey, Verifier};

use crate::helpers::{Api, send};
use crate::receipts_create::{create_receipt, receipt_body};
use crate::webhook_receiver::Receiver;

async fn dev_instance(database: &PgTestDatabase) -> Api {
    Api::spawn_with(TestOptions {
        postgres_url: Some(database.url().to_owned()),
        dev_master_key_from_database: true,
        ..TestOptions::default()
    })
    .await
}

#[tokio::test]
async fn two_dev_instances_on_one_postgresql_deliver_every_webhook_signed_by_the_creating_key() {
    let Some(database) = PgTestDatabase::create().await else {
        return;
    };
    let first = dev_instance(&database).await;
    let second = dev_instance(&database).await;
    let receiver = Receiver::start(&[]).await;
    let receipts = 20;

    for index in 0..receipts {
        let mut body = receipt_body(&format!("shared-{index}"));
        body["webhook_url"] = json!(receiver.url);
        assert_eq!(create_receipt(&first, body).await.status, 201);
        // The status change comes in through the other instance; either dispatcher may deliver it.
        let changed = send(second.dev(Method::POST, "/api/receipts/status").json(&json!({
            "receiptId": format!("shared-{index}"), "wallet": first.app.wallet, "status": "link_opened"
        })))
        .await;
        assert_eq!(changed.status, 200, "{}", changed.json);
    }

    let delivered = receiver.wait_for(receipts).await;
    let verifier = Verifier::new(ApiKey::new(&first.app.key).unwrap());
    // Both instances' clocks start at the harness's start time, which the webhooks carry.
    let sent_at = UNIX_EPOCH + Duration::from_millis(u64::try_from(TEST_START_MS).unwrap());
    for request in &delivered {
        verifier
            .verify_at(&request.headers, &request.body, sent_at)
            .unwrap();
    }
    assert_eq!(delivered.len(), receipts);
}
