//! `GET /api/receipts/{id}` answers from a body it rendered before only while the receipt's stamp (read
//! from the database on every request) is unchanged. With two instances on one PostgreSQL database, a
//! change made through one instance reads changed at once through the other, whose kept body went stale.

use payments_server::testing::PgTestDatabase;
use reqwest::Method;
use serde_json::{Value, json};

use crate::dev_master_key_shared::dev_instance;
use crate::helpers::{Api, send};
use crate::receipts_create::{create_receipt, receipt_body};

async fn read(api: &Api, key: &str, id: &str) -> Value {
    let reply = send(api.dev_as(key, Method::GET, &format!("/api/receipts/{id}"))).await;
    assert_eq!(reply.status, 200, "{}", reply.json);
    reply.json
}

#[tokio::test]
async fn a_receipt_changed_through_another_instance_never_reads_from_the_first_instances_stale_body() {
    let Some(database) = PgTestDatabase::create().await else {
        return;
    };
    let first = dev_instance(&database).await;
    let second = dev_instance(&database).await;
    let key = first.app.key.clone();
    for index in 0..5 {
        assert_eq!(
            create_receipt(&first, receipt_body(&format!("viewed-{index}")))
                .await
                .status,
            201
        );
    }

    for index in 0..5 {
        let id = format!("viewed-{index}");
        // The first read renders and keeps the body; the second is answered from it.
        let rendered = read(&first, &key, &id).await;
        assert_eq!(read(&first, &key, &id).await, rendered);
        assert_ne!(rendered["status"], json!("link_opened"));

        let changed = send(
            second
                .dev_as(&key, Method::POST, "/api/receipts/status")
                .json(&json!({
                    "receiptId": id, "wallet": first.app.wallet, "status": "link_opened"
                })),
        )
        .await;
        assert_eq!(changed.status, 200, "{}", changed.json);

        let after = read(&first, &key, &id).await;
        assert_eq!(after["status"], json!("link_opened"), "{after}");
        // The same view on both (each names its own base URL in `paymentUrl`).
        let mut theirs = read(&second, &key, &id).await;
        theirs["paymentUrl"] = after["paymentUrl"].clone();
        assert_eq!(after, theirs);
        assert_eq!(read(&first, &key, &id).await, after);
    }
    let missing = send(first.dev_as(&key, Method::GET, "/api/receipts/never-created")).await;
    assert_eq!(missing.status, 404, "{}", missing.json);
    drop((first, second));
    database.drop_database().await;
}
