use payments_server::testing::TestOptions;
use reqwest::Method;
use serde_json::json;

use crate::helpers::{Api, send};

#[tokio::test]
async fn an_unknown_route_is_not_found() {
    let api = Api::spawn().await;

    let reply = send(api.dev(Method::GET, "/api/nothing-here")).await;

    assert_eq!(reply.status, 404);
    assert_eq!(
        reply.json,
        json!({"error": "not_found", "message": "no route for /api/nothing-here"})
    );
}

#[tokio::test]
async fn a_known_route_with_a_wrong_method_is_405_with_an_allow_header() {
    let api = Api::spawn().await;

    let reply = send(api.dev(Method::PUT, "/api/inventory")).await;

    assert_eq!(reply.status, 405);
    assert_eq!(reply.header("allow"), "GET, POST, DELETE");
    assert_eq!(reply.json["error"], "method_not_allowed");
}

#[tokio::test]
async fn malformed_json_is_invalid_input() {
    let api = Api::spawn().await;

    let reply = send(api.dev(Method::POST, "/api/inventory").body("{\"sku\": ")).await;

    assert_eq!(reply.status, 400);
    assert_eq!(reply.json["error"], "invalid_input");
}

#[tokio::test]
async fn a_body_that_is_not_json_says_where_it_stops_being_json_and_names_no_field() {
    let api = Api::spawn().await;

    let reply = send(api.dev(Method::POST, "/api/inventory").body("sku=A-1&name=Mug")).await;

    assert_eq!(reply.status, 400);
    assert_eq!(reply.json["error"], "invalid_input");
    assert_eq!(
        reply.json["message"],
        "the request body is not valid JSON: expected value at line 1 column 1"
    );
    assert!(
        reply.json.get("field").is_none_or(|field| field.is_null()),
        "{}",
        reply.json
    );
}

#[tokio::test]
async fn an_empty_body_is_invalid_input() {
    let api = Api::spawn().await;

    let reply = send(api.dev(Method::POST, "/api/inventory")).await;

    assert_eq!(reply.status, 400);
    assert_eq!(reply.json["message"], "the request body must be a JSON object");
}

#[tokio::test]
async fn a_wrong_type_is_invalid_input_naming_the_field() {
    let api = Api::spawn().await;
    let body = json!({"sku": "A-1", "name": "Mug", "priceUsd": "ten", "stockQty": 1});

    let reply = send(api.dev(Method::POST, "/api/inventory").json(&body)).await;

    assert_eq!(reply.status, 400);
    assert_eq!(reply.json["error"], "invalid_input");
    assert_eq!(reply.json["field"], "priceUsd");
    assert!(
        reply.json["message"]
            .as_str()
            .unwrap()
            .starts_with("priceUsd: invalid type: string \"ten\"")
    );
}

#[tokio::test]
async fn a_missing_required_field_is_named() {
    let api = Api::spawn().await;
    let body = json!({"sku": "A-1", "priceUsd": 1, "stockQty": 1});

    let reply = send(api.dev(Method::POST, "/api/inventory").json(&body)).await;

    assert_eq!(reply.status, 400);
    assert_eq!(reply.json["field"], "name");
    assert!(
        reply.json["message"]
            .as_str()
            .unwrap()
            .starts_with("missing field `name`")
    );
}

#[tokio::test]
async fn hostile_bodies_are_refused_without_crashing_the_server() {
    let api = Api::spawn().await;
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let bodies = [
        deep.as_str(),
        r#"{"sku":"A","name":"B","priceUsd":1e400,"stockQty":1}"#,
        r#"{"sku":"A","name":"B","priceUsd":1,"stockQty":99999999999999999999}"#,
        r#"{"sku":"A","name":"B","priceUsd":1,"stockQty":1.5}"#,
        r#"{"sku":"A","name":"B","priceUsd":1,"stockQty":1} trailing"#,
        "\u{0}\u{1}\u{2}",
        "null",
        "[]",
    ];

    for body in bodies {
        let reply = send(api.dev(Method::POST, "/api/inventory").body(body.to_owned())).await;

        assert_eq!(reply.status, 400, "body {body:.40}");
        assert_eq!(reply.json["error"], "invalid_input");
    }
    let health = send(api.anonymous(Method::GET, "/healthz")).await;
    assert_eq!(health.status, 200);
}

#[tokio::test]
async fn a_body_over_the_limit_is_413_with_the_error_envelope() {
    let api = Api::spawn_with(TestOptions {
        max_body_bytes: Some(1024),
        ..TestOptions::default()
    })
    .await;

    let reply = send(api.dev(Method::POST, "/api/inventory").body(vec![b' '; 2048])).await;

    assert_eq!(reply.status, 413);
    assert_eq!(
        reply.json,
        json!({"error": "payload_too_large", "message": "the request body is larger than 1024 bytes"})
    );
}

#[tokio::test]
async fn a_well_formed_correlation_id_is_echoed() {
    let api = Api::spawn().await;

    let reply = send(
        api.anonymous(Method::GET, "/healthz")
            .header("x-correlation-id", "req-42.a_b"),
    )
    .await;

    assert_eq!(reply.header("x-correlation-id"), "req-42.a_b");
}

#[tokio::test]
async fn a_malformed_correlation_id_is_replaced_by_a_new_uuid() {
    let api = Api::spawn().await;

    let reply = send(
        api.anonymous(Method::GET, "/healthz")
            .header("x-correlation-id", "bad id with spaces"),
    )
    .await;

    let id = reply.header("x-correlation-id");
    assert_eq!(id.len(), 36);
    assert_eq!(id.matches('-').count(), 4);
}

#[tokio::test]
async fn every_response_gets_a_correlation_id_even_errors() {
    let api = Api::spawn().await;

    let reply = send(api.anonymous(Method::GET, "/nope")).await;

    assert_eq!(reply.status, 404);
    assert_eq!(reply.header("x-correlation-id").len(), 36);
}
