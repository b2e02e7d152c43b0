//! Who may change a receipt (docs/receipts.md "Authority"): a status an admin set cannot be undone with a
//! subscription key, a key never sets chain fields, and an admin's UI may post tracking statuses itself.

use payments_server::testing::AdminClient;
use reqwest::{Method, RequestBuilder};
use serde_json::{Value, json};

use crate::admin_helpers::{admin, admin_without_csrf};
use crate::helpers::{Api, Reply, send};
use crate::receipts_create::receipt_body;

struct Merchant {
    api: Api,
    session: AdminClient,
    key: String,
    wallet: String,
}

impl Merchant {
    async fn with_receipt(id: &str) -> Merchant {
        let api = Api::spawn().await;
        let (session, issued) = api.app.merchant_admin().await;
        let merchant = Merchant {
            key: issued.key.clone(),
            wallet: issued.wallet.to_string(),
            api,
            session,
        };
        let created = send(
            merchant
                .by_key(Method::POST, "/api/receipts")
                .json(&receipt_body(id)),
        )
        .await;
        assert_eq!(created.status, 201, "{}", created.json);
        merchant
    }

    fn by_key(&self, method: Method, path: &str) -> RequestBuilder {
        self.api.dev_as(&self.key, method, path)
    }

    fn body(&self, id: &str, status: &str) -> Value {
        let mut body = json!({"receiptId": id, "wallet": self.wallet, "status": status});
        if status == "failed" {
            body["failureCode"] = json!("PORTAL_SESSION_EXPIRED");
            body["failureCategory"] = json!("session");
            body["failureReason"] = json!("Expired");
            body["failureAction"] = json!("Start again");
        }
        body
    }

    async fn post_by_key(&self, body: &Value) -> Reply {
        send(self.by_key(Method::POST, "/api/receipts/status").json(body)).await
    }

    async fn post_by_admin(&self, body: &Value) -> Reply {
        send(admin(&self.api, &self.session, Method::POST, "/api/receipts/status").json(body)).await
    }

    async fn status(&self, id: &str) -> Value {
        let path = format!("/api/receipts/status?receiptId={id}");
        send(self.by_key(Method::GET, &path)).await.json
    }
}

#[tokio::test]
async fn a_key_cannot_fail_reopen_or_clear_a_status_an_admin_set() {
    let merchant = Merchant::with_receipt("auth-1").await;
    let validated = merchant
        .post_by_admin(&merchant.body("auth-1", "recipient_validated"))
        .await;
    assert_eq!(validated.status, 200, "{}", validated.json);

    let mut attempts = Vec::new();
    for status in ["failed", "pending", "link_opened"] {
        attempts.push(merchant.post_by_key(&merchant.body("auth-1", status)).await);
    }
    let mismatch = merchant
        .post_by_admin(&merchant.body("auth-1", "tx_mismatch"))
        .await;
    let clear = merchant.post_by_key(&merchant.body("auth-1", "pending")).await;

    // `failed` would move the receipt: refused. `pending`/`link_opened` are late progress: acknowledged.
    assert_eq!(
        (attempts[0].status, attempts[0].json["error"].as_str()),
        (403, Some("forbidden"))
    );
    assert_eq!(
        attempts[0].json["message"],
        "recipient_validated was set by an admin; a subscription key cannot change it"
    );
    assert_eq!(
        attempts[1].json,
        json!({"ok": true, "ignored": true, "status": "recipient_validated"})
    );
    assert_eq!(
        attempts[2].json,
        json!({"ok": true, "ignored": true, "status": "recipient_validated"})
    );
    assert_eq!(mismatch.status, 200, "{}", mismatch.json);
    assert_eq!(
        (clear.status, clear.json["error"].as_str()),
        (403, Some("forbidden"))
    );
    assert_eq!(merchant.status("auth-1").await["status"], "tx_mismatch");
}

#[tokio::test]
async fn a_key_never_sets_a_transaction_hash() {
    let merchant = Merchant::with_receipt("auth-2").await;
    let mut body = merchant.body("auth-2", "link_opened");
    body["transactionHash"] = json!(format!("0x{}", "ee".repeat(32)));

    let reply = merchant.post_by_key(&body).await;

    assert_eq!(
        (reply.status, reply.json["error"].as_str()),
        (403, Some("forbidden"))
    );
    assert_eq!(
        reply.json["message"],
        "a subscription key may not set transactionHash or other chain fields"
    );
    let read = merchant.status("auth-2").await;
    assert_eq!(
        (read["status"].as_str(), &read["transactionHash"]),
        (Some("pending"), &Value::Null)
    );
}

#[tokio::test]
async fn a_key_may_retry_after_its_own_failure_but_not_after_an_admins() {
    let merchant = Merchant::with_receipt("auth-3").await;
    let failed_by_key = merchant.post_by_key(&merchant.body("auth-3", "failed")).await;
    let retried = merchant.post_by_key(&merchant.body("auth-3", "pending")).await;
    let failed_by_admin = merchant.post_by_admin(&merchant.body("auth-3", "failed")).await;
    let refused = merchant
        .post_by_key(&merchant.body("auth-3", "link_opened"))
        .await;
    let by_admin = merchant
        .post_by_admin(&merchant.body("auth-3", "link_opened"))
        .await;

    assert_eq!(failed_by_key.status, 200, "{}", failed_by_key.json);
    assert_eq!(
        retried.json,
        json!({"ok": true, "status": "pending", "previousStatus": "failed"})
    );
    assert_eq!(failed_by_admin.status, 200, "{}", failed_by_admin.json);
    assert_eq!(
        refused.json["message"],
        "failed was set by an admin; a subscription key cannot change it"
    );
    assert_eq!(
        by_admin.json,
        json!({"ok": true, "status": "link_opened", "previousStatus": "failed"})
    );
}

#[tokio::test]
async fn an_admin_session_posts_a_tracking_status_with_its_csrf_token_and_no_key() {
    let merchant = Merchant::with_receipt("auth-4").await;
    let body = merchant.body("auth-4", "link_opened");
    let path = "/api/receipts/status";

    let without_csrf =
        send(admin_without_csrf(&merchant.api, &merchant.session, Method::POST, path).json(&body)).await;
    let with_csrf = merchant.post_by_admin(&body).await;
    let anonymous = send(merchant.api.anonymous(Method::POST, path).json(&body)).await;

    assert_eq!(without_csrf.status, 403, "{}", without_csrf.json);
    assert_eq!(
        with_csrf.json,
        json!({"ok": true, "status": "link_opened", "previousStatus": "pending"})
    );
    assert_eq!(anonymous.status, 401);
    assert_eq!(anonymous.json["message"], "missing or invalid subscription key");
}

#[tokio::test]
async fn an_admin_posting_a_refund_result_is_told_it_is_not_postable() {
    let merchant = Merchant::with_receipt("auth-5").await;

    for status in ["refund_partial", "refunded", "generated"] {
        let reply = merchant.post_by_admin(&merchant.body("auth-5", status)).await;

        assert_eq!(
            (
                reply.status,
                reply.json["error"].as_str(),
                reply.json["field"].as_str()
            ),
            (400, Some("invalid_input"), Some("status")),
            "{status}: {}",
            reply.json
        );
    }
}
