//! The document is current (docs/openapi.json) and complete (every routed path has its operations).

use std::collections::BTreeSet;

use serde_json::Value;

use super::document_json;
use crate::api::routes::{ROUTES, pattern};

const COMMITTED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/openapi.json");
const UPDATE_COMMAND: &str = "UPDATE_OPENAPI=1 cargo test -p payments-server --lib openapi";

fn document() -> Value {
    serde_json::from_str(document_json().unwrap()).unwrap()
}

/// The operations (lowercase method names) the document has for a path.
fn operations(document: &Value, path: &str) -> BTreeSet<String> {
    document["paths"][path]
        .as_object()
        .map(|item| item.keys().cloned().collect())
        .unwrap_or_default()
}

#[test]
fn the_committed_document_is_the_generated_one() {
    let generated = document_json().unwrap();
    if std::env::var_os("UPDATE_OPENAPI").is_some() {
        std::fs::write(COMMITTED, generated).unwrap();
    }
    let committed = std::fs::read_to_string(COMMITTED).unwrap_or_default();
    assert!(
        committed == generated,
        "docs/openapi.json is not the document the code generates; regenerate it with: {UPDATE_COMMAND}"
    );
}

#[test]
fn the_document_is_openapi_3_1() {
    assert_eq!(document()["openapi"], "3.1.0");
}

/// A route of the table whose handler documents another path or other methods fails here.
#[test]
fn every_route_of_the_table_has_its_operations_in_the_document() {
    let document = document();
    for route in ROUTES {
        let documented = operations(&document, route.pattern);
        assert!(
            !documented.is_empty(),
            "{} is routed but not in the OpenAPI document",
            route.pattern
        );
        for method in route.methods {
            assert!(
                documented.contains(&method.as_str().to_lowercase()),
                "{method} {} is routed but has no operation in the OpenAPI document",
                route.pattern
            );
        }
    }
}

/// An operation in the document that no route answers (a handler documenting a method it is not routed for)
/// fails here.
#[test]
fn every_operation_of_the_document_is_a_route_of_the_table() {
    let document = document();
    for (path, item) in document["paths"].as_object().unwrap() {
        let concrete: Vec<&str> = path
            .split('/')
            .map(|segment| if segment.starts_with('{') { "x1" } else { segment })
            .collect();
        assert_eq!(pattern(&concrete.join("/")), Some(path.as_str()), "{path}");
        for method in item.as_object().unwrap().keys() {
            let routed = ROUTES.iter().any(|route| {
                route.pattern == path
                    && (route.methods.is_empty()
                        || route
                            .methods
                            .iter()
                            .any(|routed| routed.as_str().eq_ignore_ascii_case(method)))
            });
            assert!(routed, "{method} {path} is documented but no route answers it");
        }
    }
}

#[test]
fn every_operation_has_a_unique_id_and_a_summary() {
    let document = document();
    let mut ids = BTreeSet::new();
    for (path, item) in document["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let id = operation["operationId"].as_str().unwrap_or_default();
            assert!(
                ids.insert(id.to_owned()),
                "{method} {path}: operationId {id:?} is not unique"
            );
            assert!(operation["summary"].is_string(), "{method} {path} has no summary");
        }
    }
}

#[test]
fn key_routes_name_the_key_header_and_share_the_error_answers() {
    let document = document();
    let scheme = &document["components"]["securitySchemes"]["subscription_key"];
    assert_eq!(scheme["in"], "header");
    assert_eq!(scheme["name"], "X-Gateway-Subscription-Key");
    let list = &document["paths"]["/api/receipts"]["get"];
    assert_eq!(list["security"][0]["subscription_key"], serde_json::json!([]));
    for status in ["401", "403", "429", "503"] {
        assert!(
            list["responses"][status]["$ref"].is_string(),
            "GET /api/receipts lacks {status}"
        );
    }
    assert!(
        document["paths"]["/healthz"]["get"]["responses"]["401"].is_null(),
        "an open route cannot answer 401"
    );
}
