//! `GET /api/split/transactions`, `/api/reserve/balances` and `/api/reserve/recommend` on the test-mode chain:
//! a receipt paid with the payment page's "Simulate payment" button is detected, forwarded to the merchant's
//! split and distributed; the routes then read that history and those balances back from the chain.

use std::time::Duration;

use payments_server::testing::{AdminClient, TEST_PLATFORM_RECIPIENT, TestKey, eventually};
use reqwest::Method;
use serde_json::{Value, json};

use crate::admin_helpers::admin;
use crate::helpers::{Api, Reply, send};

const SETTLED_IN: Duration = Duration::from_secs(20);

/// Signs in the merchant admin, configures its split (99.50 % merchant, 0.50 % platform), creates receipt
/// `id` of 7.75 USD, pays it through the payment page's simulate button and waits for `completed`.
async fn settled_receipt(api: &Api, id: &str) -> (AdminClient, TestKey) {
    let (session, key) = api.app.merchant_admin().await;
    let recipients = json!([
        {"address": session.wallet, "sharesBps": 9950},
        {"address": TEST_PLATFORM_RECIPIENT, "sharesBps": 50},
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
    let button = format!("/portal/{id}/simulate?merchant={}", key.wallet);
    // The button answers with the page (HTML), not JSON.
    let pressed = api.anonymous(Method::POST, &button).send().await.unwrap();
    assert!(
        pressed.status().is_success(),
        "simulate answered {}",
        pressed.status()
    );
    eventually("the receipt to be completed", SETTLED_IN, || async {
        let reply = send(api.dev_as(&key.key, Method::GET, &format!("/api/receipts/{id}"))).await;
        (reply.json["status"] == "completed").then_some(())
    })
    .await;
    (session, key)
}

async fn get(api: &Api, key: &TestKey, path: &str) -> Reply {
    send(api.dev_as(&key.key, Method::GET, path)).await
}

fn records(reply: &Reply) -> &Vec<Value> {
    assert_eq!(reply.status, 200, "{}", reply.json);
    reply.json.as_array().expect("an array of SplitTransaction")
}

#[tokio::test]
async fn a_settled_receipt_lists_its_inflow_and_distribution_newest_first_with_the_platform_part_as_fees() {
    let api = Api::spawn().await;
    let (_, key) = settled_receipt(&api, "coffee-1").await;

    let reply = get(&api, &key, "/api/split/transactions").await;

    let listed = records(&reply);
    assert_eq!(listed.len(), 2, "{}", reply.json);
    let (payout, inflow) = (&listed[0], &listed[1]);
    assert_eq!(payout["status"], "distributed");
    assert_eq!(payout["amount"], json!(7.75));
    assert_eq!(payout["fees"], json!(0.03875));
    assert_eq!(payout["receiptId"], "");
    assert_eq!(inflow["status"], "received");
    assert_eq!(inflow["amount"], json!(7.75));
    assert_eq!(inflow["fees"], json!(0.03875));
    assert_eq!(inflow["receiptId"], "coffee-1");
    for record in listed {
        assert_eq!(record["currency"], "USDC");
        let hash = record["transactionHash"].as_str().unwrap();
        assert_eq!((hash.len(), &hash[..2]), (66, "0x"));
        assert!(record["id"].as_str().unwrap().starts_with(hash));
        // The test clock stands at 2023-11-14T22:13:20Z and dates the simulated blocks.
        assert_eq!(record["timestamp"], "2023-11-14T22:13:20Z");
    }
    assert_ne!(payout["transactionHash"], inflow["transactionHash"]);
    assert_eq!(
        reply.header("x-next-cursor"),
        "",
        "the whole history fits one page"
    );
}

#[tokio::test]
async fn pages_follow_the_cursor_until_the_history_ends() {
    let api = Api::spawn().await;
    let (_, key) = settled_receipt(&api, "coffee-1").await;

    let first = get(&api, &key, "/api/split/transactions?limit=1").await;
    let cursor = first.header("x-next-cursor").to_owned();
    let second = get(
        &api,
        &key,
        &format!("/api/split/transactions?limit=1&cursor={cursor}"),
    )
    .await;
    let last_cursor = second.header("x-next-cursor").to_owned();
    let rest = get(
        &api,
        &key,
        &format!("/api/split/transactions?limit=1&cursor={last_cursor}"),
    )
    .await;

    assert_eq!(records(&first).len(), 1);
    assert_eq!(records(&first)[0]["status"], "distributed");
    assert!(!cursor.is_empty());
    assert_eq!(records(&second).len(), 1);
    assert_eq!(records(&second)[0]["status"], "received");
    assert!(records(&rest).is_empty());
    assert_eq!(rest.header("x-next-cursor"), "");
}

#[tokio::test]
async fn a_recipients_view_lists_only_the_payouts_with_its_own_part() {
    let api = Api::spawn().await;
    let (_, key) = settled_receipt(&api, "coffee-1").await;

    let mine = get(
        &api,
        &key,
        &format!("/api/split/transactions?address={}", key.wallet),
    )
    .await;
    let foreign = get(
        &api,
        &key,
        "/api/split/transactions?address=0x9999999999999999999999999999999999999999",
    )
    .await;

    let listed = records(&mine);
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["status"], "distributed");
    assert_eq!(listed[0]["amount"], json!(7.71125));
    assert_eq!(listed[0]["fees"], json!(0.03875));
    assert_eq!(foreign.status, 403, "{}", foreign.json);
    assert_eq!(foreign.json["error"], "forbidden");
}

#[tokio::test]
async fn balances_are_the_tokens_the_chain_holds_for_the_split_and_the_merchant() {
    let api = Api::spawn().await;
    let (_, key) = settled_receipt(&api, "coffee-1").await;

    let reply = get(&api, &key, "/api/reserve/balances").await;

    assert_eq!(reply.status, 200, "{}", reply.json);
    assert_eq!(reply.json["currency"], "USDC");
    // Everything was distributed: the split is empty and the merchant holds its 99.50 %.
    assert_eq!(reply.json["split"]["balance"], "0");
    assert_eq!(reply.json["split"]["balanceUsd"], json!(0));
    assert_eq!(reply.json["wallet"]["address"], json!(key.wallet));
    assert_eq!(reply.json["wallet"]["balance"], "7711250");
    assert_eq!(reply.json["wallet"]["balanceUsd"], json!(7.71125));
}

#[tokio::test]
async fn the_recommendation_is_the_paid_floor_then_the_refunds_with_their_margin() {
    let api = Api::spawn().await;
    let (session, key) = settled_receipt(&api, "coffee-1").await;

    let buyer = "0x4444444444444444444444444444444444444444";
    let sent = crate::paid_receipt::refund_sent(&api, buyer, 350).await;

    let before = get(&api, &key, "/api/reserve/recommend").await;
    let refund = json!({"receiptId": "coffee-1", "wallet": key.wallet, "buyer": buyer,
                        "usd": 3.5, "items": [{"label": "Coffee", "priceUsd": 3.5, "qty": 1}], "txHash": sent});
    let refunded = send(admin(&api, &session, Method::POST, "/api/receipts/refund").json(&refund)).await;
    assert_eq!(refunded.status, 200, "{}", refunded.json);
    let after = get(&api, &key, "/api/reserve/recommend").await;

    assert_eq!(before.status, 200, "{}", before.json);
    // 5 % of 7.75 is 0.3875, rounded up to 0.39.
    assert_eq!(before.json["paidUsd"], json!(7.75));
    assert_eq!(before.json["refundedUsd"], json!(0));
    assert_eq!(before.json["recommendedUsd"], json!(0.39));
    assert_eq!(before.json["recommendedAmount"], "390000");
    assert_eq!(before.json["basis"], "paid_floor");
    assert_eq!(before.json["windowDays"], 30);
    // 150 % of 3.50 is 5.25.
    assert_eq!(after.json["refundedUsd"], json!(3.5));
    assert_eq!(after.json["recommendedUsd"], json!(5.25));
    assert_eq!(after.json["basis"], "refunds");
}

#[tokio::test]
async fn a_merchant_without_a_split_has_no_split_transactions_and_no_split_balance() {
    let api = Api::spawn().await;

    let listed = send(api.dev(Method::GET, "/api/split/transactions")).await;
    let balances = send(api.dev(Method::GET, "/api/reserve/balances")).await;
    let advice = send(api.dev(Method::GET, "/api/reserve/recommend")).await;

    assert!(records(&listed).is_empty());
    assert_eq!(balances.status, 200, "{}", balances.json);
    assert_eq!(balances.json["split"], Value::Null);
    assert_eq!(balances.json["wallet"]["balance"], "0");
    assert_eq!(advice.json["recommendedUsd"], json!(0));
    assert_eq!(advice.json["basis"], "no_volume");
}

#[tokio::test]
async fn the_three_routes_need_the_split_read_scope() {
    let api = Api::spawn().await;
    let reader = api.app.create_key(api.app.wallet, "receipts:read").await;

    for path in [
        "/api/split/transactions",
        "/api/reserve/balances",
        "/api/reserve/recommend",
    ] {
        let reply = send(api.dev_as(&reader.key, Method::GET, path)).await;
        let anonymous = send(api.anonymous(Method::GET, path)).await;

        assert_eq!(reply.status, 403, "{path}: {}", reply.json);
        assert_eq!(reply.json["error"], "forbidden", "{path}");
        assert_eq!(anonymous.status, 401, "{path}");
    }
}

#[tokio::test]
async fn malformed_cursors_addresses_and_limits_are_invalid_input() {
    let api = Api::spawn().await;

    for (query, field) in [
        ("cursor=abc", "cursor"),
        ("cursor=12", "cursor"),
        ("cursor=1-2-3", "cursor"),
        ("address=0x12", "address"),
        ("limit=ten", "limit"),
    ] {
        let reply = send(api.dev(Method::GET, &format!("/api/split/transactions?{query}"))).await;

        assert_eq!(reply.status, 400, "{query}: {}", reply.json);
        assert_eq!(reply.json["error"], "invalid_input", "{query}");
        assert_eq!(reply.json["field"], field, "{query}");
    }
}

#[tokio::test]
async fn other_methods_on_the_new_routes_are_not_allowed() {
    let api = Api::spawn().await;

    for path in [
        "/api/split/transactions",
        "/api/reserve/balances",
        "/api/reserve/recommend",
    ] {
        let reply = send(api.dev(Method::POST, path)).await;

        assert_eq!(reply.status, 405, "{path}");
        assert_eq!(reply.header("allow"), "GET", "{path}");
    }
}
