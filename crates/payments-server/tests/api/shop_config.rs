use payments_server::testing::{TEST_ADMIN_WALLET, TestOptions};
use reqwest::Method;
use serde_json::{Value, json};

use crate::admin_helpers::{admin, admin_without_csrf};
use crate::helpers::{Api, KEY_HEADER, send};

fn full_settings() -> Value {
    json!({
        "brandName": "Corner Bakery",
        "processingFeePct": 1.5,
        "brandKey": "corner-bakery",
        "supportEmail": "help@corner.example",
        "logoUrl": "https://corner.example/logo.png",
        "redirectUrl": "https://corner.example/thanks",
        "jurisdictions": [{"code": "US-CA", "name": "San Francisco", "components": [
            {"code": "state", "name": "State", "rate": 0.0725},
            {"code": "city", "name": "City", "rate": 0.01375}]}],
        "defaultJurisdiction": "US-CA",
    })
}

async fn read(api: &Api, key: &str, path: &str) -> Value {
    let reply = send(api.anonymous(Method::GET, path).header(KEY_HEADER, key)).await;
    assert_eq!(reply.status, 200, "{}", reply.json);
    reply.json
}

#[tokio::test]
async fn shop_settings_round_trip_through_the_dev_read() {
    let api = Api::spawn().await;
    let (client, key) = api.app.merchant_admin().await;

    let saved = send(admin(&api, &client, Method::POST, "/api/shop/config").json(&full_settings())).await;

    let mut expected = full_settings();
    expected["wallet"] = json!(TEST_ADMIN_WALLET);
    expected["platformFeePct"] = json!(0.5);
    assert_eq!(saved.status, 200, "{}", saved.json);
    assert_eq!(saved.json, json!({"ok": true, "config": expected}));
    assert_eq!(read(&api, &key.key, "/api/shop/config").await, expected);
}

#[tokio::test]
async fn absent_fields_keep_their_value_and_empty_strings_clear_them() {
    let api = Api::spawn().await;
    let (client, key) = api.app.merchant_admin().await;
    send(admin(&api, &client, Method::POST, "/api/shop/config").json(&full_settings())).await;

    let reply = send(
        admin(&api, &client, Method::POST, "/api/shop/config")
            .json(&json!({"brandName": "Renamed", "supportEmail": ""})),
    )
    .await;

    assert_eq!(reply.status, 200, "{}", reply.json);
    let config = read(&api, &key.key, "/api/shop/config").await;
    assert_eq!(config["brandName"], "Renamed");
    assert_eq!(config["supportEmail"], Value::Null);
    assert_eq!(config["brandKey"], "corner-bakery");
    assert_eq!(config["processingFeePct"], 1.5);
}

#[tokio::test]
async fn invalid_shop_settings_are_refused_naming_the_field() {
    let api = Api::spawn().await;
    let (client, _) = api.app.merchant_admin().await;
    let cases = [
        (json!({"brandName": ""}), "brandName"),
        (json!({"brandName": "x".repeat(81)}), "brandName"),
        (json!({"processingFeePct": 10.5}), "processingFeePct"),
        (json!({"processingFeePct": -1}), "processingFeePct"),
        (json!({"brandKey": "Corner Bakery"}), "brandKey"),
        (json!({"supportEmail": "not-an-email"}), "supportEmail"),
        (json!({"logoUrl": "http://corner.example/logo.png"}), "logoUrl"),
        (json!({"redirectUrl": "javascript:alert(1)"}), "redirectUrl"),
        (
            json!({"defaultJurisdiction": "XX-NOWHERE"}),
            "defaultJurisdiction",
        ),
        (json!({"colour": "red"}), "colour"),
        (
            json!({"jurisdictions": [{"code": "A", "name": "A", "components": []},
                                     {"code": "a", "name": "B", "components": []}]}),
            "jurisdictions[1].code",
        ),
        (
            json!({"jurisdictions": [{"code": "A", "name": "A", "components": [
                {"code": "x", "name": "X", "rate": 0.6}, {"code": "y", "name": "Y", "rate": 0.5}]}]}),
            "jurisdictions[0].components",
        ),
    ];

    for (body, field) in cases {
        let reply = send(admin(&api, &client, Method::POST, "/api/shop/config").json(&body)).await;

        assert_eq!(reply.status, 400, "{body}: {}", reply.json);
        assert_eq!(reply.json["error"], "invalid_input", "{body}");
        assert_eq!(reply.json["field"], field, "{body}: {}", reply.json);
    }
}

#[tokio::test]
async fn a_shop_settings_write_needs_a_session_and_the_csrf_header() {
    let api = Api::spawn().await;
    let (client, key) = api.app.merchant_admin().await;

    let with_key = send(
        api.anonymous(Method::POST, "/api/shop/config")
            .header(KEY_HEADER, &key.key)
            .json(&json!({"brandName": "Keyed"})),
    )
    .await;
    let without_csrf = send(
        admin_without_csrf(&api, &client, Method::POST, "/api/shop/config")
            .json(&json!({"brandName": "Forged"})),
    )
    .await;

    assert_eq!(with_key.status, 401);
    assert_eq!(without_csrf.status, 403);
    assert_eq!(read(&api, &key.key, "/api/shop/config").await["brandName"], "");
}

#[tokio::test]
async fn a_merchant_cannot_change_another_merchants_shop() {
    let api = Api::spawn().await;
    let (client, _) = api.app.merchant_admin().await;

    let reply = send(
        admin(&api, &client, Method::POST, "/api/shop/config")
            .json(&json!({"wallet": "0x1111111111111111111111111111111111111111", "brandName": "Hijacked"})),
    )
    .await;

    assert_eq!(reply.status, 403);
    assert_eq!(
        read(&api, &api.app.key, "/api/shop/config").await["brandName"],
        ""
    );
}

#[tokio::test]
async fn pricing_config_reports_and_updates_the_fee_schedule() {
    let api = Api::spawn().await;
    let (client, key) = api.app.merchant_admin().await;
    let before = read(&api, &key.key, "/api/pricing/config").await;

    let updated = send(
        admin(&api, &client, Method::POST, "/api/pricing/config").json(&json!({"processingFeePct": 1.5})),
    )
    .await;

    assert_eq!(
        before,
        json!({"platformFeePct": 0.5, "merchantAddOnPct": 0.0, "effectiveFeePct": 0.5, "subscriptionFeePct": 0.5})
    );
    assert_eq!(updated.status, 200, "{}", updated.json);
    assert_eq!(
        updated.json,
        json!({"ok": true, "platformFeePct": 0.5, "merchantAddOnPct": 1.5, "effectiveFeePct": 2.0,
               "subscriptionFeePct": 0.5})
    );
    assert_eq!(
        read(&api, &key.key, "/api/pricing/config").await["effectiveFeePct"],
        2.0
    );
    assert_eq!(
        read(&api, &key.key, "/api/shop/config").await["processingFeePct"],
        1.5
    );
}

#[tokio::test]
async fn a_pricing_update_out_of_range_or_without_csrf_is_refused() {
    let api = Api::spawn().await;
    let (client, key) = api.app.merchant_admin().await;

    let too_high = send(
        admin(&api, &client, Method::POST, "/api/pricing/config").json(&json!({"processingFeePct": 11})),
    )
    .await;
    let forged = send(
        admin_without_csrf(&api, &client, Method::POST, "/api/pricing/config")
            .json(&json!({"processingFeePct": 2})),
    )
    .await;

    assert_eq!(too_high.status, 400);
    assert_eq!(too_high.json["field"], "processingFeePct");
    assert_eq!(forged.status, 403);
    assert_eq!(
        read(&api, &key.key, "/api/pricing/config").await["merchantAddOnPct"],
        0.0
    );
}

#[tokio::test]
async fn reading_pricing_and_the_tax_catalog_needs_the_shop_read_scope() {
    let api = Api::spawn().await;
    let reader = api.app.create_key(api.app.wallet, "split:read").await;

    for path in ["/api/pricing/config", "/api/tax/catalog"] {
        let reply = send(api.dev_as(&reader.key, Method::GET, path)).await;
        assert_eq!(reply.status, 403, "{path}");
    }
}

#[tokio::test]
async fn the_tax_catalog_lists_the_merchants_jurisdictions_first_overriding_the_catalog() {
    let api = Api::spawn().await;
    let (client, key) = api.app.merchant_admin().await;
    let before = read(&api, &key.key, "/api/tax/catalog").await;
    send(admin(&api, &client, Method::POST, "/api/shop/config").json(&full_settings())).await;

    let after = read(&api, &key.key, "/api/tax/catalog").await;

    assert_eq!(before["jurisdictions"].as_array().unwrap().len(), 51);
    assert_eq!(before["defaultJurisdiction"], Value::Null);
    let entries = after["jurisdictions"].as_array().unwrap();
    assert_eq!(entries.len(), 51);
    assert_eq!(entries[0]["code"], "US-CA");
    assert_eq!(entries[0]["source"], "merchant");
    assert_eq!(entries[0]["components"][1]["rate"], 0.01375);
    assert_eq!(entries.iter().filter(|entry| entry["code"] == "US-CA").count(), 1);
    let texas = entries.iter().find(|entry| entry["code"] == "US-TX").unwrap();
    assert_eq!(
        texas,
        &json!({"code": "US-TX", "name": "Texas", "source": "catalog",
                "components": [{"code": "state", "name": "Texas state sales tax", "rate": 0.0625}]})
    );
    assert_eq!(after["defaultJurisdiction"], "US-CA");
}

#[tokio::test]
async fn site_config_is_public_and_reflects_the_server_config() {
    let api = Api::spawn().await;

    let reply = send(api.anonymous(Method::GET, "/api/site/config")).await;

    assert_eq!(reply.status, 200);
    assert_eq!(
        reply.json,
        json!({"platformFeePct": 0.5, "subscriptionFeePct": 0.5,
               "token": {"symbol": "USDC", "decimals": 6, "address": "0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0"},
               "chainId": 31337, "splitPlatformShareBps": 50,
               "platformRecipient": "0x5050505050505050505050505050505050505050"})
    );
}

#[tokio::test]
async fn site_config_shows_a_null_platform_recipient_when_none_is_configured() {
    let api = Api::spawn_with(TestOptions {
        without_platform_recipient: true,
        ..TestOptions::default()
    })
    .await;

    let reply = send(api.anonymous(Method::GET, "/api/site/config")).await;

    assert_eq!(reply.json["platformRecipient"], Value::Null);
}
