use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{Api, PNG, product_with, send};

/// Posts `product_with("A-1", changes)` and returns (status, field, error code).
async fn refused_field(api: &Api, changes: Value) -> (u16, String, String) {
    let reply = send(
        api.dev(Method::POST, "/api/inventory")
            .json(&product_with("A-1", changes)),
    )
    .await;
    (
        reply.status,
        reply.json["field"].as_str().unwrap_or("").to_owned(),
        reply.json["error"].as_str().unwrap_or("").to_owned(),
    )
}

async fn assert_each_refused(cases: Vec<(Value, &str)>) {
    let api = Api::spawn().await;
    for (changes, field) in cases {
        let refused = refused_field(&api, changes.clone()).await;

        assert_eq!(
            refused,
            (400, field.to_owned(), "invalid_input".to_owned()),
            "changes {changes}"
        );
    }
}

#[tokio::test]
async fn each_missing_required_field_is_refused_by_name() {
    assert_each_refused(vec![
        (json!({"sku": null}), "sku"),
        (json!({"name": null}), "name"),
        (json!({"priceUsd": null}), "priceUsd"),
        (json!({"stockQty": null}), "stockQty"),
    ])
    .await;
}

#[tokio::test]
async fn text_fields_outside_their_limits_are_refused_by_name() {
    assert_each_refused(vec![
        (json!({"sku": "   "}), "sku"),
        (json!({"sku": "x".repeat(65)}), "sku"),
        (json!({"sku": "A\u{7}1"}), "sku"),
        (json!({"name": ""}), "name"),
        (json!({"name": "n".repeat(201)}), "name"),
        (json!({"category": "c".repeat(101)}), "category"),
        (json!({"description": "d".repeat(5001)}), "description"),
        (json!({"currency": "EUR"}), "currency"),
        (json!({"jurisdictionCode": "us-ca"}), "jurisdictionCode"),
        (json!({"jurisdictionCode": "USA"}), "jurisdictionCode"),
        (json!({"industryPack": "not a slug"}), "industryPack"),
        (json!({"id": ""}), "id"),
    ])
    .await;
}

#[tokio::test]
async fn numbers_outside_their_limits_are_refused_by_name() {
    assert_each_refused(vec![
        (json!({"priceUsd": -1}), "priceUsd"),
        (json!({"priceUsd": 1.234}), "priceUsd"),
        (json!({"priceUsd": "1.00"}), "priceUsd"),
        (json!({"stockQty": -2}), "stockQty"),
        (json!({"stockQty": 1.5}), "stockQty"),
        (json!({"costUsd": -0.01}), "costUsd"),
        (json!({"costUsd": 0.001}), "costUsd"),
        (json!({"taxable": "yes"}), "taxable"),
        (json!({"shippingEnabled": 1}), "shippingEnabled"),
    ])
    .await;
}

#[tokio::test]
async fn tags_images_and_attributes_outside_their_limits_are_refused_by_name() {
    let too_many_tags: Vec<String> = (0..25).map(|n| format!("tag{n}")).collect();
    let too_many_attributes: serde_json::Map<String, Value> =
        (0..51).map(|n| (format!("k{n}"), json!(n))).collect();
    let png = format!("data:image/png;base64,{}", base64_of(PNG));
    assert_each_refused(vec![
        (json!({"tags": too_many_tags}), "tags"),
        (json!({"tags": ["ok", ""]}), "tags[1]"),
        (json!({"tags": ["t".repeat(41)]}), "tags[0]"),
        (json!({"tags": "a,b"}), "tags"),
        (json!({"images": [png, png, png, png]}), "images"),
        (json!({"images": ["https://example.com/a.png"]}), "images[0]"),
        (json!({"images": ["data:image/png;base64,aGVsbG8="]}), "images[0]"),
        (
            json!({"images": [format!("data:image/jpeg;base64,{}", base64_of(PNG))]}),
            "images[0]",
        ),
        (json!({"attributes": too_many_attributes}), "attributes"),
        (json!({"attributes": {"nested": {"a": 1}}}), "attributes.nested"),
        (json!({"attributes": {"nothing": null}}), "attributes.nothing"),
        (json!({"attributes": []}), "attributes"),
    ])
    .await;
}

#[tokio::test]
async fn shipping_config_rules_are_enforced_by_name() {
    assert_each_refused(vec![
        (json!({"shippingConfig": {"weightLbs": 1}}), "shippingConfig.enabled"),
        (json!({"shippingConfig": {"enabled": true, "weightLbs": -1}}), "shippingConfig.weightLbs"),
        (json!({"shippingConfig": {"enabled": true, "colour": "red"}}), "shippingConfig.colour"),
        (json!({"shippingConfig": {"enabled": true, "shippingClass": "teleport"}}), "shippingConfig.shippingClass"),
        (json!({"shippingConfig": {"enabled": true, "allowedMethods": ["drone"]}}), "shippingConfig.allowedMethods[0]"),
        (
            json!({"shippingConfig": {"enabled": true, "allowedMethods": ["standard"], "methodPricing": {"express": 5}}}),
            "shippingConfig.methodPricing.express",
        ),
        (
            json!({"shippingConfig": {"enabled": true, "allowedMethods": ["standard"], "methodPricing": {"standard": -5}}}),
            "shippingConfig.methodPricing.standard",
        ),
        (json!({"shippingConfig": {"enabled": true, "handlingDays": 31}}), "shippingConfig.handlingDays"),
        (json!({"shippingConfig": {"enabled": true, "handlingDays": -1}}), "shippingConfig.handlingDays"),
        (json!({"shippingConfig": {"enabled": true, "originCountry": "usa"}}), "shippingConfig.originCountry"),
        (
            json!({"shippingConfig": {"enabled": true, "dimensions": {"length": 1, "width": 1, "height": 0, "unit": "in"}}}),
            "shippingConfig.dimensions.height",
        ),
        (
            json!({"shippingConfig": {"enabled": true, "dimensions": {"length": 1, "width": 1, "height": 1, "unit": "ft"}}}),
            "shippingConfig.dimensions.unit",
        ),
        (json!({"shippingConfig": {"enabled": true, "freeShippingThresholdUsd": 1.001}}), "shippingConfig.freeShippingThresholdUsd"),
        (json!({"shippingConfig": {"enabled": true, "domesticOnly": "yes"}}), "shippingConfig.domesticOnly"),
    ])
    .await;
}

#[tokio::test]
async fn boundary_values_are_accepted() {
    let api = Api::spawn().await;
    let tags: Vec<String> = (0..24).map(|n| format!("tag{n}")).collect();
    let body = product_with(
        &"s".repeat(64),
        json!({
            "name": "n".repeat(200), "priceUsd": 0, "stockQty": -1, "costUsd": 0, "tags": tags,
            "jurisdictionCode": "US", "industryPack": "craft-beer",
            "shippingConfig": {"enabled": true, "handlingDays": 30, "originCountry": "CA", "domesticOnly": false,
                               "signatureRequired": true, "insuredOnly": true, "freeShippingThresholdUsd": 50,
                               "dimensions": {"length": 10, "width": 5.5, "height": 1, "unit": "cm"},
                               "shippingClass": "oversized", "allowedMethods": ["pickup", "overnight", "express"]}
        }),
    );

    let reply = send(api.dev(Method::POST, "/api/inventory").json(&body)).await;

    assert_eq!(reply.status, 200, "{}", reply.json);
    assert_eq!(
        reply.json["item"]["shippingConfig"]["allowedMethods"],
        json!(["express", "overnight", "pickup"])
    );
}

#[tokio::test]
async fn duplicate_tags_are_merged_ignoring_case() {
    let api = Api::spawn().await;

    let item = api
        .upsert(product_with("A-1", json!({"tags": ["Red", " red ", "Blue"]})))
        .await;

    assert_eq!(item["tags"], json!(["Red", "Blue"]));
}

#[tokio::test]
async fn unknown_top_level_properties_are_ignored() {
    let api = Api::spawn().await;

    let reply = send(api.dev(Method::POST, "/api/inventory").json(&product_with(
        "A-1",
        json!({"createdAt": 5, "somethingElse": true}),
    )))
    .await;

    assert_eq!(reply.status, 200);
    assert_eq!(reply.json["item"]["createdAt"], 1_700_000_000_000_i64);
}

fn base64_of(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}
