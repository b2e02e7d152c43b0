//! Caller-assigned receipt ids are scoped per merchant: two merchants may both use `order-1001`, each sees
//! only its own, and neither learns which ids the other has.

use payments_server::testing::test_wallet;
use reqwest::Method;
use serde_json::json;

use crate::helpers::{Api, send};
use crate::portal::open_page;

fn body(total: f64) -> serde_json::Value {
    json!({"id": "order-1001", "lineItems": [{"label": "Tea", "priceUsd": total}], "totalUsd": total})
}

#[tokio::test]
async fn two_merchants_create_the_same_receipt_id_and_each_sees_only_its_own() {
    let api = Api::spawn().await;
    let other = api
        .app
        .create_key(test_wallet(0x22), "receipts:read,receipts:write")
        .await;
    let mine = send(api.dev(Method::POST, "/api/receipts").json(&body(5.0))).await;
    assert_eq!(mine.status, 201, "{}", mine.json);

    let theirs = send(
        api.dev_as(&other.key, Method::POST, "/api/receipts")
            .json(&body(9.0)),
    )
    .await;

    assert_eq!(theirs.status, 201, "{}", theirs.json);
    assert_eq!(theirs.json["id"], "order-1001");
    let read_mine = send(api.dev(Method::GET, "/api/receipts/order-1001")).await;
    let read_theirs = send(api.dev_as(&other.key, Method::GET, "/api/receipts/order-1001")).await;
    assert_eq!(read_mine.json["totalUsd"], json!(5));
    assert_eq!(read_theirs.json["totalUsd"], json!(9));
    let their_list = send(api.dev_as(&other.key, Method::GET, "/api/receipts")).await;
    let totals: Vec<_> = their_list.json["receipts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|receipt| receipt["totalUsd"].clone())
        .collect();
    assert_eq!(totals, vec![json!(9)]);
    // The same merchant reusing its own id is still a conflict.
    let again = send(
        api.dev_as(&other.key, Method::POST, "/api/receipts")
            .json(&body(1.0)),
    )
    .await;
    assert_eq!(again.status, 409, "{}", again.json);
}

#[tokio::test]
async fn each_payment_link_opens_its_own_merchants_receipt_and_the_bare_shared_id_opens_none() {
    let api = Api::spawn().await;
    let other = api
        .app
        .create_key(test_wallet(0x22), "receipts:read,receipts:write")
        .await;
    let mine = send(api.dev(Method::POST, "/api/receipts").json(&body(5.0))).await;
    let theirs = send(
        api.dev_as(&other.key, Method::POST, "/api/receipts")
            .json(&body(9.0)),
    )
    .await;
    let path = |reply: &crate::helpers::Reply| {
        let url = reply.json["paymentUrl"].as_str().unwrap().to_owned();
        url.strip_prefix(&api.app.base_url).unwrap().to_owned()
    };

    let (my_status, _, my_page) = open_page(&api, &path(&mine)).await;
    let (their_status, _, their_page) = open_page(&api, &path(&theirs)).await;
    let (bare_status, _, _) = open_page(&api, "/portal/order-1001").await;
    // Each buyer presses the page's "Continue to payment" button (only that records link_opened).
    let pressed = [
        crate::portal::press_continue(&api, &path(&mine)).await.0,
        crate::portal::press_continue(&api, &path(&theirs)).await.0,
        crate::portal::press_continue(&api, "/portal/order-1001").await.0,
    ];

    assert_eq!((my_status, their_status), (200, 200));
    assert!(my_page.contains("5.00") && !my_page.contains("9.00"), "{my_page}");
    assert!(
        their_page.contains("9.00") && !their_page.contains("5.00"),
        "{their_page}"
    );
    assert_eq!(bare_status, 404);
    assert_eq!(pressed, [303, 303, 404]);
    let statuses = [
        send(api.dev(Method::GET, "/api/receipts/status?receiptId=order-1001")).await,
        send(api.dev_as(
            &other.key,
            Method::GET,
            "/api/receipts/status?receiptId=order-1001",
        ))
        .await,
    ];
    assert_eq!(
        statuses.map(|reply| reply.json["status"].clone()),
        [json!("link_opened"), json!("link_opened")]
    );
}
