//! Amounts and rates are never rounded: JSON numbers with more digits than a float carries are refused.

use reqwest::Method;
use reqwest::header::CONTENT_TYPE;
use serde_json::json;

use crate::helpers::{Api, send};
use crate::orders::{merchant_with_split, product};

#[tokio::test]
async fn a_price_with_digits_beyond_the_cent_is_refused_and_nothing_is_stored() {
    let api = Api::spawn().await;
    // Raw text: a JSON library would round the number to 19.99 before sending it.
    let body = r#"{"sku": "mug", "name": "Mug", "priceUsd": 19.9900000000000000001, "stockQty": 5}"#;

    let reply = send(
        api.dev(Method::POST, "/api/inventory")
            .header(CONTENT_TYPE, "application/json")
            .body(body),
    )
    .await;

    assert_eq!(reply.status, 400, "{}", reply.json);
    assert_eq!(reply.json["error"], "invalid_input");
    assert!(
        reply.json["message"]
            .as_str()
            .unwrap()
            .contains("19.9900000000000000001"),
        "{}",
        reply.json
    );
    assert_eq!(api.list("").await.json["total"], 0);
}

#[tokio::test]
async fn a_receipt_total_with_digits_beyond_the_cent_is_refused() {
    let api = Api::spawn().await;
    let body = r#"{"id": "order-1", "lineItems": [{"label": "Tea", "priceUsd": 19.99}],
                   "totalUsd": 19.9900000000000000001}"#;

    let reply = send(
        api.dev(Method::POST, "/api/receipts")
            .header(CONTENT_TYPE, "application/json")
            .body(body),
    )
    .await;

    assert_eq!(reply.status, 400, "{}", reply.json);
    assert_eq!(reply.json["error"], "invalid_input");
    assert_eq!(
        send(api.dev(Method::GET, "/api/receipts/order-1")).await.status,
        404
    );
}

#[tokio::test]
async fn a_tax_rate_a_float_would_round_to_one_is_refused_and_no_order_is_made() {
    let api = Api::spawn().await;
    let merchant = merchant_with_split(&api).await;
    let id = product(&api, &merchant.key, "mug", &json!(10), true, 5).await;
    let body = format!(r#"{{"items": [{{"id": "{id}", "qty": 1}}], "taxRate": 0.99999999999999999999}}"#);

    let reply = send(
        api.dev_as(&merchant.key.key, Method::POST, "/api/orders")
            .header(CONTENT_TYPE, "application/json")
            .body(body),
    )
    .await;

    assert_eq!(reply.status, 400, "{}", reply.json);
    assert_eq!(reply.json["error"], "invalid_input");
    let receipts = send(api.dev_as(&merchant.key.key, Method::GET, "/api/receipts")).await;
    assert_eq!(receipts.json["receipts"], json!([]), "{}", receipts.json);
}

#[tokio::test]
async fn a_tax_rate_with_exact_digits_still_prices_the_order() {
    let api = Api::spawn().await;
    let merchant = merchant_with_split(&api).await;
    let id = product(&api, &merchant.key, "mug", &json!(10), true, 5).await;
    let body = format!(r#"{{"items": [{{"id": "{id}", "qty": 1}}], "taxRate": 0.0825}}"#);

    let reply = send(
        api.dev_as(&merchant.key.key, Method::POST, "/api/orders")
            .header(CONTENT_TYPE, "application/json")
            .body(body),
    )
    .await;

    assert_eq!(reply.status, 200, "{}", reply.json);
    assert_eq!(reply.json["receipt"]["taxRate"], json!(0.0825));
}
