//! POST /api/receipts/status: validation, authority per status, and the state machine's answers.

use reqwest::Method;
use serde_json::{Value, json};

use crate::admin_helpers::{admin, admin_without_csrf};
use crate::helpers::{Api, Reply, send};
use crate::receipts_create::receipt_body;

async fn post(api: &Api, body: Value) -> Reply {
    send(api.dev(Method::POST, "/api/receipts/status").json(&body)).await
}

async fn created(api: &Api, id: &str) {
    let reply = send(api.dev(Method::POST, "/api/receipts").json(&receipt_body(id))).await;
    assert_eq!(reply.status, 201, "{}", reply.json);
}

#[tokio::test]
async fn status_posts_name_the_first_missing_or_bad_field() {
    let api = Api::spawn().await;
    created(&api, "v-1").await;
    let wallet = api.app.wallet.to_string();
    let cases = [
        (
            json!({"wallet": wallet, "status": "link_opened"}),
            400,
            "missing_receipt_id",
        ),
        (
            json!({"receiptId": "v-1", "status": "link_opened"}),
            400,
            "invalid_wallet",
        ),
        (
            json!({"receiptId": "v-1", "wallet": "0x12", "status": "link_opened"}),
            400,
            "invalid_wallet",
        ),
        (
            json!({"receiptId": "v-1", "wallet": wallet}),
            400,
            "missing_status",
        ),
        (
            json!({"receiptId": "v-1", "wallet": wallet, "status": "teleported"}),
            400,
            "invalid_input",
        ),
        (
            json!({"receiptId": "v-1", "wallet": wallet, "status": "refunded"}),
            400,
            "invalid_input",
        ),
        (
            json!({"receiptId": "v-1", "wallet": wallet, "status": "generated"}),
            400,
            "invalid_input",
        ),
        (
            json!({"receiptId": "v-1", "wallet": "0x2222222222222222222222222222222222222222", "status": "link_opened"}),
            403,
            "forbidden",
        ),
        (
            json!({"receiptId": "nope", "wallet": wallet, "status": "link_opened"}),
            404,
            "not_found",
        ),
    ];
    for (body, status, code) in cases {
        let reply = post(&api, body.clone()).await;

        assert_eq!(
            (reply.status, reply.json["error"].as_str().unwrap()),
            (status, code),
            "{body}"
        );
    }
    assert!(
        !post(&api, json!({"status": "x"}))
            .await
            .header("x-correlation-id")
            .is_empty()
    );
}

#[tokio::test]
async fn tracking_statuses_move_forward_and_late_ones_are_ignored() {
    let api = Api::spawn().await;
    created(&api, "t-1").await;
    let body = |status: &str| json!({"receiptId": "t-1", "wallet": api.app.wallet, "status": status});

    let initialized = post(&api, body("checkout_initialized")).await;
    let late = post(&api, body("link_opened")).await;

    assert_eq!(
        initialized.json,
        json!({"ok": true, "status": "checkout_initialized", "previousStatus": "pending"})
    );
    assert_eq!(
        late.json,
        json!({"ok": true, "ignored": true, "status": "checkout_initialized"})
    );
}

#[tokio::test]
async fn sensitive_statuses_need_an_admin_session_not_a_key() {
    let api = Api::spawn().await;
    created(&api, "s-1").await;

    for status in ["checkout_success", "completed", "refund_requested", "paid"] {
        let body = json!({"receiptId": "s-1", "wallet": api.app.wallet, "status": status});
        let reply = post(&api, body).await;

        assert_eq!(reply.status, 401, "{status}: {}", reply.json);
    }
}

#[tokio::test]
async fn an_admin_attests_payment_and_a_later_failure_is_an_invalid_transition() {
    let api = Api::spawn().await;
    let (session, key) = api.app.merchant_admin().await;
    let reply = send(
        api.dev_as(&key.key, Method::POST, "/api/receipts")
            .json(&receipt_body("p-1")),
    )
    .await;
    assert_eq!(reply.status, 201);
    let hash = format!("0x{}", "ab".repeat(32));
    let paid = json!({"receiptId": "p-1", "wallet": key.wallet, "status": "paid", "transactionHash": hash});

    let without_csrf =
        send(admin_without_csrf(&api, &session, Method::POST, "/api/receipts/status").json(&paid)).await;
    let attested = send(admin(&api, &session, Method::POST, "/api/receipts/status").json(&paid)).await;
    let failed = send(api.dev_as(&key.key, Method::POST, "/api/receipts/status").json(&json!({
        "receiptId": "p-1", "wallet": key.wallet, "status": "failed", "failureCode": "PORTAL_SESSION_EXPIRED",
        "failureCategory": "session", "failureReason": "Expired", "failureAction": "Start again"
    })))
    .await;

    assert_eq!(without_csrf.status, 403);
    assert_eq!(
        attested.json,
        json!({"ok": true, "status": "paid", "previousStatus": "pending"})
    );
    assert_eq!(failed.status, 409);
    assert_eq!(failed.json["error"], "invalid_transition");
    let read = send(api.dev_as(&key.key, Method::GET, "/api/receipts/status?receiptId=p-1")).await;
    assert_eq!(read.json["status"], "paid");
    assert_eq!(read.json["transactionHash"], json!(hash));
}
