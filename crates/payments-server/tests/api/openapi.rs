use reqwest::Method;

use crate::helpers::{Api, send};

/// The committed document, which the server's unit tests keep equal to the generated one.
const COMMITTED: &str = include_str!("../../../../docs/openapi.json");

#[tokio::test]
async fn the_openapi_document_is_served_without_a_key_and_is_the_committed_one() {
    let api = Api::spawn().await;

    let reply = send(api.anonymous(Method::GET, "/api/openapi.json")).await;

    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("content-type"), "application/json");
    assert_eq!(reply.json["openapi"], "3.1.0");
    assert_eq!(
        reply.json,
        serde_json::from_str::<serde_json::Value>(COMMITTED).unwrap()
    );
}

#[tokio::test]
async fn the_openapi_document_documents_the_key_header_of_a_dev_route() {
    let api = Api::spawn().await;

    let reply = send(api.anonymous(Method::GET, "/api/openapi.json")).await;

    let operation = &reply.json["paths"]["/api/orders"]["post"];
    assert_eq!(operation["operationId"], "createOrder");
    assert!(operation["security"][0]["subscription_key"].is_array());
    assert_eq!(
        reply.json["components"]["securitySchemes"]["subscription_key"]["name"],
        "X-Gateway-Subscription-Key"
    );
    assert_eq!(
        reply.json["components"]["securitySchemes"]["session_cookie"]["name"],
        "cb_auth_token"
    );
}

#[tokio::test]
async fn writing_to_the_openapi_document_is_405_with_an_allow_header() {
    let api = Api::spawn().await;

    let reply = send(api.anonymous(Method::POST, "/api/openapi.json")).await;

    assert_eq!(reply.status, 405);
    assert_eq!(reply.header("allow"), "GET");
    assert_eq!(reply.json["error"], "method_not_allowed");
}
