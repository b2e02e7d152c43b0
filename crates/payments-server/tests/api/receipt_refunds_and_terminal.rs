//! Admin receipt routes: refunds bounded by the paid amount, and terminal sales.

use payments_server::testing::{AdminClient, TestKey};
use reqwest::Method;
use serde_json::{Value, json};

use crate::admin_helpers::{admin, admin_without_csrf};
use crate::helpers::{Api, Reply, send, send_raw};
use crate::idempotency::lose_kept_answer;
use crate::paid_receipt::{paid_receipt, refund_sent};

const BUYER: &str = "0x3333333333333333333333333333333333333333";

/// A hash no transaction has: good enough where the body is refused before the chain is asked.
fn unused_tx() -> String {
    format!("0x{}", "cd".repeat(32))
}

async fn refund(api: &Api, session: &AdminClient, body: Value) -> Reply {
    send(admin(api, session, Method::POST, "/api/receipts/refund").json(&body)).await
}

fn refund_body(key: &TestKey, usd: Value, tx_hash: &str) -> Value {
    json!({"receiptId": "sold", "wallet": key.wallet, "buyer": BUYER, "usd": usd,
           "items": [{"label": "Coffee", "priceUsd": 3.5, "qty": 1}], "txHash": tx_hash})
}

#[tokio::test]
async fn refunds_are_partial_then_full_and_never_exceed_what_was_paid() {
    let api = Api::spawn().await;
    let (session, key) = paid_receipt(&api, "sold").await;

    let (first, second, third) = (
        refund_sent(&api, BUYER, 350).await,
        refund_sent(&api, BUYER, 426).await,
        refund_sent(&api, BUYER, 425).await,
    );

    let partial = refund(&api, &session, refund_body(&key, json!(3.5), &first)).await;
    let too_much = refund(&api, &session, refund_body(&key, json!(4.26), &second)).await;
    let rest = refund(&api, &session, refund_body(&key, json!(4.25), &third)).await;

    assert_eq!(
        partial.json,
        json!({"ok": true, "status": "refund_partial", "previousStatus": "paid"})
    );
    assert_eq!(too_much.status, 400);
    assert_eq!(too_much.json["error"], "invalid_usd");
    assert!(
        too_much.json["message"].as_str().unwrap().contains("4.25"),
        "{}",
        too_much.json
    );
    assert_eq!(
        rest.json,
        json!({"ok": true, "status": "refunded", "previousStatus": "refund_partial"})
    );
    assert!(!rest.header("x-correlation-id").is_empty());
}

#[tokio::test]
async fn a_refund_whose_kept_answer_was_lost_answers_the_same_bytes_after_the_receipt_moved_on() {
    let api = Api::spawn().await;
    let (session, key) = paid_receipt(&api, "sold").await;
    let (first_tx, rest_tx) = (
        refund_sent(&api, BUYER, 350).await,
        refund_sent(&api, BUYER, 425).await,
    );
    let keyed = || {
        admin(&api, &session, Method::POST, "/api/receipts/refund")
            .header("Idempotency-Key", "refund-lost")
            .json(&refund_body(&key, json!(3.5), &first_tx))
    };
    let first = send_raw(keyed()).await;
    lose_kept_answer(&api, "refund-lost");
    let rest = refund(&api, &session, refund_body(&key, json!(4.25), &rest_tx)).await;
    assert_eq!(rest.json["status"], "refunded", "{}", rest.json);

    let recovered = send_raw(keyed()).await;
    let again = send_raw(keyed()).await;

    assert_eq!(
        serde_json::from_slice::<Value>(&first.body).unwrap(),
        json!({"ok": true, "status": "refund_partial", "previousStatus": "paid"})
    );
    assert_eq!((recovered.status, recovered.replayed), (200, true));
    assert_eq!(recovered.body, first.body);
    assert_eq!((again.status, again.body), (200, first.body));
    let read = send(api.dev_as(&key.key, Method::GET, "/api/receipts/sold")).await;
    assert_eq!(read.json["refundedUsd"], json!(7.75), "refunded once each");
}

#[tokio::test]
async fn a_receipt_read_between_refunds_shows_each_new_status_and_refunded_amount() {
    let api = Api::spawn().await;
    let (session, key) = paid_receipt(&api, "sold").await;
    let read = || async {
        send(api.dev_as(&key.key, Method::GET, "/api/receipts/sold"))
            .await
            .json
    };

    let (first, second) = (
        refund_sent(&api, BUYER, 350).await,
        refund_sent(&api, BUYER, 425).await,
    );

    let paid = read().await;
    let paid_again = read().await;
    refund(&api, &session, refund_body(&key, json!(3.5), &first)).await;
    let partial = read().await;
    refund(&api, &session, refund_body(&key, json!(4.25), &second)).await;
    let refunded = read().await;

    assert_eq!(paid, paid_again);
    assert_eq!(
        (paid["status"].clone(), paid.get("refundedUsd")),
        (json!("paid"), None)
    );
    assert_eq!(
        (&partial["status"], &partial["refundedUsd"]),
        (&json!("refund_partial"), &json!(3.5))
    );
    assert_eq!(
        (&refunded["status"], &refunded["refundedUsd"]),
        (&json!("refunded"), &json!(7.75))
    );
}

#[tokio::test]
async fn refund_bodies_are_checked_in_the_spec_codes() {
    let api = Api::spawn().await;
    let (session, key) = paid_receipt(&api, "sold").await;
    let with = |field: &str, value: Value| {
        let mut body = refund_body(&key, json!(1), &unused_tx());
        body[field] = value;
        body
    };
    let cases = [
        (with("receiptId", Value::Null), "missing_receipt_id"),
        (with("wallet", json!("0x1")), "invalid_wallet"),
        (with("buyer", Value::Null), "invalid_buyer"),
        (with("usd", json!(0)), "invalid_usd"),
        (with("usd", json!(1.005)), "invalid_usd"),
        (with("usd", json!(-2)), "invalid_usd"),
        (with("txHash", json!("0x12")), "invalid_input"),
    ];
    for (body, code) in cases {
        let reply = refund(&api, &session, body.clone()).await;

        assert_eq!(
            (reply.status, reply.json["error"].as_str().unwrap()),
            (400, code),
            "{body}"
        );
    }
}

#[tokio::test]
async fn refunds_of_an_unpaid_receipt_or_without_a_session_are_refused() {
    let api = Api::spawn().await;
    let (session, key) = api.app.merchant_admin().await;
    let body = json!({"id": "unpaid", "lineItems": [{"label": "A", "priceUsd": 1}], "totalUsd": 1});
    send(api.dev_as(&key.key, Method::POST, "/api/receipts").json(&body)).await;
    let sent = refund_sent(&api, BUYER, 100).await;
    let mut refund_unpaid = refund_body(&key, json!(1), &sent);
    refund_unpaid["receiptId"] = json!("unpaid");

    let unpaid = refund(&api, &session, refund_unpaid.clone()).await;
    let no_csrf =
        send(admin_without_csrf(&api, &session, Method::POST, "/api/receipts/refund").json(&refund_unpaid))
            .await;
    let with_key = send(
        api.dev_as(&key.key, Method::POST, "/api/receipts/refund")
            .json(&refund_unpaid),
    )
    .await;

    assert_eq!(
        (unpaid.status, unpaid.json["error"].clone()),
        (409, json!("invalid_transition"))
    );
    assert_eq!(no_csrf.status, 403);
    assert_eq!(with_key.status, 401);
}

#[tokio::test]
async fn a_terminal_sale_is_a_generated_receipt_priced_like_one_taxable_line() {
    let api = Api::spawn().await;
    let (session, _) = paid_receipt(&api, "setup").await;

    let reply = send(
        admin(&api, &session, Method::POST, "/api/receipts/terminal").json(&json!({
            "amountUsd": 100, "label": "Haircut", "currency": "USD", "taxRate": 0.095
        })),
    )
    .await;

    assert_eq!(reply.status, 200, "{}", reply.json);
    let receipt = &reply.json["receipt"];
    assert_eq!(receipt["status"], "generated");
    assert_eq!(receipt["totalUsd"], json!(110.05));
    assert_eq!(receipt["lineItems"][0]["label"], "Haircut");
}

#[tokio::test]
async fn terminal_sales_refuse_bad_amounts_and_missing_splits() {
    let api = Api::spawn().await;
    let (session, _) = api.app.merchant_admin().await;
    let post = |body: Value| send(admin(&api, &session, Method::POST, "/api/receipts/terminal").json(&body));

    let no_split = post(json!({"amountUsd": 5, "label": "x"})).await;
    let zero = post(json!({"amountUsd": 0, "label": "x"})).await;
    let fraction = post(json!({"amountUsd": 1.001, "label": "x"})).await;
    let negative = post(json!({"amountUsd": -1, "label": "x"})).await;

    assert_eq!(
        (no_split.status, no_split.json["error"].clone()),
        (403, json!("split_required"))
    );
    for reply in [zero, fraction, negative] {
        assert_eq!(
            (reply.status, reply.json["error"].clone()),
            (400, json!("invalid_amount"))
        );
    }
}

#[tokio::test]
async fn a_platform_admin_must_name_the_merchant_of_a_terminal_sale() {
    let platform_admin = payments_core::Wallet::parse(payments_server::testing::TEST_ADMIN_WALLET).unwrap();
    let api = Api::spawn_with(payments_server::testing::TestOptions {
        platform_admins: vec![platform_admin],
        ..Default::default()
    })
    .await;
    let (session, _) = api.app.merchant_admin().await;

    let reply = send(
        admin(&api, &session, Method::POST, "/api/receipts/terminal")
            .json(&json!({"amountUsd": 5, "label": "x"})),
    )
    .await;

    assert_eq!(
        (reply.status, reply.json["error"].clone()),
        (400, json!("wallet_required"))
    );
}
