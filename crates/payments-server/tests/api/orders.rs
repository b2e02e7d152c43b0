//! POST /api/orders: pricing from inventory by the core rules, every order-pricing vector end to end.

use payments_server::testing::{AdminClient, TestKey};
use reqwest::Method;
use serde_json::{Value, json};

use crate::admin_helpers::admin;
use crate::helpers::{Api, Reply, send};

const VECTORS: &str = include_str!("../../../payments-core/tests/vectors/order-pricing.json");

pub(crate) struct Merchant {
    pub(crate) admin: AdminClient,
    pub(crate) key: TestKey,
}

/// A signed-in merchant with a split configured.
pub(crate) async fn merchant_with_split(api: &Api) -> Merchant {
    let (session, key) = api.app.merchant_admin().await;
    let recipients = json!([
        {"address": session.wallet, "sharesBps": 9950},
        {"address": "0x5050505050505050505050505050505050505050", "sharesBps": 50},
    ]);
    let reply = send(
        admin(api, &session, Method::POST, "/api/split/deploy").json(&json!({"recipients": recipients})),
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.json);
    Merchant { admin: session, key }
}

async fn set_add_on(api: &Api, merchant: &Merchant, pct: &Value) {
    let reply = send(
        admin(api, &merchant.admin, Method::POST, "/api/shop/config").json(&json!({"processingFeePct": pct})),
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.json);
}

pub(crate) async fn product(
    api: &Api,
    key: &TestKey,
    sku: &str,
    price: &Value,
    taxable: bool,
    stock: i64,
) -> String {
    let body = json!({"sku": sku, "name": format!("Item {sku}"), "priceUsd": price, "stockQty": stock, "taxable": taxable});
    let reply = send(api.dev_as(&key.key, Method::POST, "/api/inventory").json(&body)).await;
    assert_eq!(reply.status, 200, "{}", reply.json);
    reply.json["item"]["id"].as_str().unwrap().to_owned()
}

async fn order(api: &Api, key: &TestKey, body: Value) -> Reply {
    send(api.dev_as(&key.key, Method::POST, "/api/orders").json(&body)).await
}

fn cents(value: &Value) -> i64 {
    (value.as_f64().unwrap() * 100.0).round() as i64
}

#[tokio::test]
async fn every_order_pricing_vector_prices_the_same_through_the_api() {
    let api = Api::spawn().await;
    let merchant = merchant_with_split(&api).await;
    let vectors: Value = serde_json::from_str(VECTORS).unwrap();

    for (index, vector) in vectors["vectors"].as_array().unwrap().iter().enumerate() {
        assert_eq!(vector["platformBasePct"], json!(0.5), "vector {index}");
        set_add_on(&api, &merchant, &vector["merchantAddOnPct"]).await;
        let mut items = Vec::new();
        for (line, item) in vector["items"].as_array().unwrap().iter().enumerate() {
            let sku = format!("v{index}-{line}");
            let taxable = item["taxable"].as_bool().unwrap();
            product(&api, &merchant.key, &sku, &item["priceUsd"], taxable, -1).await;
            items.push(json!({"sku": sku, "qty": item["qty"]}));
        }

        let reply = order(
            &api,
            &merchant.key,
            json!({"items": items, "taxRate": vector["taxRate"]}),
        )
        .await;

        assert_eq!(reply.status, 200, "vector {index}: {}", reply.json);
        let receipt = &reply.json["receipt"];
        let expected = &vector["expected"];
        let got = [
            cents(&receipt["subtotalUsd"]),
            cents(&receipt["taxUsd"]),
            cents(&receipt["feeUsd"]),
            cents(&receipt["totalUsd"]),
        ];
        let want = [
            expected["subtotalCents"].as_i64().unwrap(),
            expected["taxCents"].as_i64().unwrap(),
            expected["processingFeeCents"].as_i64().unwrap(),
            expected["totalCents"].as_i64().unwrap(),
        ];
        assert_eq!(got, want, "vector {index}");
    }
}

#[tokio::test]
async fn an_order_is_a_generated_receipt_with_product_tax_and_fee_lines() {
    let api = Api::spawn().await;
    let merchant = merchant_with_split(&api).await;
    set_add_on(&api, &merchant, &json!(1.5)).await;
    let id = product(&api, &merchant.key, "mug", &json!(10), true, 5).await;

    let reply = order(&api, &merchant.key, json!({
        "items": [{"id": id, "qty": 2}], "jurisdictionCode": "US-CA",
        "buyerEmail": "b@example.com", "redirectUrl": "https://shop.example.com/thanks", "transaction_id": "T-1"
    }))
    .await;

    assert_eq!(reply.status, 200, "{}", reply.json);
    assert_eq!(reply.json["ok"], true);
    let receipt = &reply.json["receipt"];
    assert!(receipt["receiptId"].as_str().unwrap().starts_with("rcpt_"));
    assert_eq!(receipt["status"], "generated");
    assert_eq!(receipt["jurisdictionCode"], "US-CA");
    assert_eq!(receipt["taxRate"], json!(0.0725));
    assert_eq!(
        receipt["lineItems"],
        json!([
            {"label": "Item mug", "priceUsd": 20, "qty": 2, "unitPriceUsd": 10, "itemId": id, "sku": "mug"},
            {"label": "Tax", "priceUsd": 1.45},
            {"label": "Processing Fee", "priceUsd": 0.43},
        ])
    );
    assert_eq!(receipt["totalUsd"], json!(21.88));
    assert_eq!(receipt["buyerEmail"], "b@example.com");
    assert_eq!(receipt["transactionId"], "T-1");
    let read = send(api.dev_as(
        &merchant.key.key,
        Method::GET,
        &format!("/api/receipts/{}", receipt["receiptId"].as_str().unwrap()),
    ))
    .await;
    assert_eq!(read.json["totalUsd"], json!(21.88));
}

#[tokio::test]
async fn orders_refuse_missing_splits_empty_items_unknown_products_and_empty_stock() {
    let api = Api::spawn().await;
    let no_split = order(
        &api,
        &TestKey {
            key: api.app.key.clone(),
            subscription_id: String::new(),
            wallet: api.app.wallet,
        },
        json!({"items": [{"sku": "x", "qty": 1}]}),
    )
    .await;
    let merchant = merchant_with_split(&api).await;
    product(&api, &merchant.key, "gone", &json!(5), false, 0).await;
    product(&api, &merchant.key, "two-left", &json!(5), false, 2).await;

    let empty = order(&api, &merchant.key, json!({"items": []})).await;
    let unknown = order(&api, &merchant.key, json!({"items": [{"sku": "nope", "qty": 1}]})).await;
    let out = order(&api, &merchant.key, json!({"items": [{"sku": "gone", "qty": 1}]})).await;
    let short = order(
        &api,
        &merchant.key,
        json!({"items": [{"sku": "two-left", "qty": 3}]}),
    )
    .await;
    let zero = order(
        &api,
        &merchant.key,
        json!({"items": [{"sku": "two-left", "qty": 0}]}),
    )
    .await;
    let fraction = order(
        &api,
        &merchant.key,
        json!({"items": [{"sku": "two-left", "qty": 1.5}]}),
    )
    .await;
    let bad_jurisdiction = order(
        &api,
        &merchant.key,
        json!({"items": [{"sku": "two-left", "qty": 1}], "jurisdictionCode": "XX-YY"}),
    )
    .await;

    assert_eq!(
        (no_split.status, no_split.json["error"].clone()),
        (403, json!("split_required"))
    );
    assert_eq!(
        (empty.status, empty.json["error"].clone()),
        (400, json!("items_required"))
    );
    assert_eq!(
        (unknown.status, unknown.json["error"].clone()),
        (400, json!("inventory_item_not_found"))
    );
    assert_eq!(
        (out.status, out.json["error"].clone()),
        (400, json!("out_of_stock"))
    );
    assert_eq!(
        (short.status, short.json["error"].clone()),
        (400, json!("out_of_stock"))
    );
    assert_eq!(
        (zero.status, zero.json["field"].clone()),
        (400, json!("items[0].qty"))
    );
    assert_eq!(fraction.status, 400);
    assert_eq!(
        (bad_jurisdiction.status, bad_jurisdiction.json["error"].clone()),
        (400, json!("invalid_input"))
    );
}

#[tokio::test]
async fn an_order_reserves_finite_stock_and_leaves_unlimited_stock_alone() {
    let api = Api::spawn().await;
    let merchant = merchant_with_split(&api).await;
    product(&api, &merchant.key, "few", &json!(5), false, 3).await;
    product(&api, &merchant.key, "many", &json!(5), false, -1).await;
    let reply = order(
        &api,
        &merchant.key,
        json!({"items": [{"sku": "few", "qty": 2}, {"sku": "many", "qty": 4}]}),
    )
    .await;
    let id = reply.json["receipt"]["receiptId"].as_str().unwrap().to_owned();

    let paid = send(
        admin(&api, &merchant.admin, Method::POST, "/api/receipts/status").json(&json!({
            "receiptId": id, "wallet": merchant.key.wallet, "status": "paid"
        })),
    )
    .await;

    assert_eq!(paid.json["status"], "paid", "{}", paid.json);
    let listing = send(api.dev_as(&merchant.key.key, Method::GET, "/api/inventory?q=item")).await;
    let stock: Vec<(String, i64)> = listing.json["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| {
            (
                item["sku"].as_str().unwrap().to_owned(),
                item["stockQty"].as_i64().unwrap(),
            )
        })
        .collect();
    assert!(stock.contains(&("few".to_owned(), 1)), "{stock:?}");
    assert!(stock.contains(&("many".to_owned(), -1)), "{stock:?}");
}

#[tokio::test]
async fn orders_need_the_orders_create_scope() {
    let api = Api::spawn().await;
    let reader = api
        .app
        .create_key(api.app.wallet, "receipts:read,receipts:write")
        .await;

    let reply = send(
        api.dev_as(&reader.key, Method::POST, "/api/orders")
            .json(&json!({"items": []})),
    )
    .await;

    assert_eq!(reply.status, 403);
    assert_eq!(reply.json["error"], "forbidden");
}
