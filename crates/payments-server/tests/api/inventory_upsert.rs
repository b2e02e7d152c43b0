use std::time::Duration;

use payments_server::testing::test_wallet;
use reqwest::Method;
use serde_json::json;

use crate::helpers::{Api, PNG, product, product_with, send};

#[tokio::test]
async fn posting_a_new_sku_creates_a_product_with_the_documented_defaults() {
    let api = Api::spawn().await;

    let reply = send(api.dev(Method::POST, "/api/inventory").json(&product("A-1"))).await;

    assert_eq!(reply.status, 200);
    assert_eq!(reply.json["ok"], true);
    let mut item = reply.json["item"].clone();
    assert!(item["id"].as_str().unwrap().starts_with("prod_"));
    item.as_object_mut().unwrap().remove("id");
    assert_eq!(
        item,
        json!({
            "wallet": "0x1111111111111111111111111111111111111111", "sku": "A-1", "name": "Product A-1",
            "priceUsd": 10, "currency": "USD", "stockQty": 5, "category": "", "description": "", "tags": [],
            "images": [], "attributes": {}, "costUsd": 0, "taxable": false, "jurisdictionCode": null,
            "industryPack": "general", "shippingEnabled": false, "shippingConfig": {"enabled": false},
            "createdAt": 1_700_000_000_000_i64, "updatedAt": 1_700_000_000_000_i64
        })
    );
}

#[tokio::test]
async fn every_writable_field_is_stored_and_returned() {
    let api = Api::spawn().await;
    let body = json!({
        "sku": "TEE-1", "name": "T-shirt", "priceUsd": 19.99, "stockQty": -1, "currency": "usd",
        "category": "Apparel", "description": "Soft\ncotton", "tags": ["cotton", "summer"],
        "attributes": {"color": "red", "size": 42, "organic": true}, "costUsd": 7.5, "taxable": true,
        "jurisdictionCode": "US-CA", "industryPack": "apparel", "shippingEnabled": true,
        "shippingConfig": {"enabled": true, "weightLbs": 0.5, "shippingClass": "standard",
                           "allowedMethods": ["standard"], "methodPricing": {"standard": 4.99}}
    });

    let item = api.upsert(body).await;

    assert_eq!(item["priceUsd"], 19.99);
    assert_eq!(item["currency"], "USD");
    assert_eq!(item["stockQty"], -1);
    assert_eq!(item["description"], "Soft\ncotton");
    assert_eq!(item["tags"], json!(["cotton", "summer"]));
    assert_eq!(
        item["attributes"],
        json!({"color": "red", "size": 42, "organic": true})
    );
    assert_eq!(item["costUsd"], 7.5);
    assert_eq!(item["taxable"], true);
    assert_eq!(item["jurisdictionCode"], "US-CA");
    assert_eq!(item["industryPack"], "apparel");
    assert_eq!(
        item["shippingConfig"],
        json!({"enabled": true, "weightLbs": 0.5, "shippingClass": "standard",
               "allowedMethods": ["standard"], "methodPricing": {"standard": 4.99}})
    );
}

#[tokio::test]
async fn posting_the_same_sku_again_updates_the_product_keeping_id_and_created_at() {
    let api = Api::spawn().await;
    let first = api.upsert(product("A-1")).await;
    api.app.clock.advance(Duration::from_secs(60));

    let second = api
        .upsert(product_with("A-1", json!({"name": "Renamed", "priceUsd": 12.5})))
        .await;

    assert_eq!(second["id"], first["id"]);
    assert_eq!(second["name"], "Renamed");
    assert_eq!(second["priceUsd"], 12.5);
    assert_eq!(second["createdAt"], 1_700_000_000_000_i64);
    assert_eq!(second["updatedAt"], 1_700_000_060_000_i64);
    assert_eq!(api.list("").await.json["total"], 1);
}

#[tokio::test]
async fn posting_with_an_id_updates_that_product_even_when_its_sku_changes() {
    let api = Api::spawn().await;
    let first = api.upsert(product("A-1")).await;

    let moved = api.upsert(product_with("A-2", json!({"id": first["id"]}))).await;

    assert_eq!(moved["id"], first["id"]);
    assert_eq!(moved["sku"], "A-2");
    assert_eq!(api.skus("").await, vec!["A-2"]);
}

#[tokio::test]
async fn posting_an_unknown_id_is_not_found() {
    let api = Api::spawn().await;

    let reply = send(
        api.dev(Method::POST, "/api/inventory")
            .json(&product_with("A-1", json!({"id": "prod_missing"}))),
    )
    .await;

    assert_eq!(reply.status, 404);
    assert_eq!(
        reply.json,
        json!({"error": "not_found", "message": "no product with id prod_missing"})
    );
}

#[tokio::test]
async fn moving_a_product_onto_another_products_sku_is_a_conflict() {
    let api = Api::spawn().await;
    let first = api.upsert(product("A-1")).await;
    api.upsert(product("B-1")).await;

    let reply = send(
        api.dev(Method::POST, "/api/inventory")
            .json(&product_with("B-1", json!({"id": first["id"]}))),
    )
    .await;

    assert_eq!(reply.status, 409);
    assert_eq!(
        reply.json,
        json!({"error": "conflict", "message": "sku B-1 already belongs to another product"})
    );
}

#[tokio::test]
async fn omitting_images_keeps_uploaded_images_and_an_empty_list_clears_them() {
    let api = Api::spawn().await;
    api.upsert(product("A-1")).await;
    let form = reqwest::multipart::Form::new()
        .text("sku", "A-1")
        .part("image", reqwest::multipart::Part::bytes(PNG).file_name("a.png"));
    assert_eq!(
        send(api.dev(Method::POST, "/api/inventory/images").multipart(form))
            .await
            .status,
        200
    );

    let kept = api
        .upsert(product_with("A-1", json!({"name": "Still has image"})))
        .await;
    let cleared = api.upsert(product_with("A-1", json!({"images": []}))).await;

    assert_eq!(kept["images"].as_array().unwrap().len(), 1);
    assert_eq!(cleared["images"], json!([]));
}

#[tokio::test]
async fn the_same_sku_at_two_merchants_is_two_products() {
    let api = Api::spawn().await;
    let other = api
        .app
        .create_key(test_wallet(0x22), "inventory:read,inventory:write")
        .await;
    let mine = api.upsert(product("A-1")).await;

    let reply = send(
        api.dev_as(&other.key, Method::POST, "/api/inventory")
            .json(&product("A-1")),
    )
    .await;

    assert_eq!(reply.status, 200);
    assert_ne!(reply.json["item"]["id"], mine["id"]);
    assert_eq!(
        reply.json["item"]["wallet"],
        "0x2222222222222222222222222222222222222222"
    );
}

#[tokio::test]
async fn another_merchant_cannot_see_update_or_delete_my_products() {
    let api = Api::spawn().await;
    let other = api
        .app
        .create_key(test_wallet(0x22), "inventory:read,inventory:write")
        .await;
    let mine = api.upsert(product("A-1")).await;
    let id = mine["id"].as_str().unwrap();

    let listed = send(api.dev_as(&other.key, Method::GET, "/api/inventory?q=A-1")).await;
    let updated = send(
        api.dev_as(&other.key, Method::POST, "/api/inventory")
            .json(&product_with("A-1", json!({"id": id}))),
    )
    .await;
    let deleted = send(api.dev_as(&other.key, Method::DELETE, &format!("/api/inventory?id={id}"))).await;

    assert_eq!(listed.json["total"], 0);
    assert_eq!(updated.status, 404);
    assert_eq!(deleted.status, 404);
    assert_eq!(api.skus("").await, vec!["A-1"]);
}

#[tokio::test]
async fn deleting_a_product_removes_it() {
    let api = Api::spawn().await;
    let item = api.upsert(product("A-1")).await;

    let reply = send(api.dev(
        Method::DELETE,
        &format!("/api/inventory?id={}", item["id"].as_str().unwrap()),
    ))
    .await;

    assert_eq!(reply.status, 200);
    assert_eq!(reply.json, json!({"ok": true}));
    assert_eq!(api.list("").await.json["total"], 0);
}

#[tokio::test]
async fn deleting_without_an_id_is_invalid_input() {
    let api = Api::spawn().await;

    let reply = send(api.dev(Method::DELETE, "/api/inventory")).await;

    assert_eq!(reply.status, 400);
    assert_eq!(
        reply.json,
        json!({"error": "invalid_input", "message": "id: is required", "field": "id"})
    );
}

#[tokio::test]
async fn deleting_an_unknown_id_is_not_found() {
    let api = Api::spawn().await;

    let reply = send(api.dev(Method::DELETE, "/api/inventory?id=prod_missing")).await;

    assert_eq!(reply.status, 404);
    assert_eq!(reply.json["error"], "not_found");
}
