//! The document is current (docs/openapi.json) and complete (every routed path has its operations).

use std::collections::BTreeSet;

use serde_json::Value;

use super::document_json;
use crate::api::route_shapes::routed_shapes;
use crate::api::routes::pattern;

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

/// A route added to the table without `#[utoipa::path]` on its handler (or without naming the handler in
/// `paths(...)`) fails here.
#[test]
fn every_routed_method_and_path_has_an_operation() {
    let document = document();
    for shape in routed_shapes() {
        let Some(path) = pattern(&shape.path) else {
            panic!("{} is routed but has no route pattern", shape.path);
        };
        let documented = operations(&document, path);
        assert!(
            !documented.is_empty(),
            "{path} is routed but not in the OpenAPI document"
        );
        for method in shape.methods.iter().flatten() {
            assert!(
                documented.contains(&method.to_lowercase()),
                "{method} {path} is routed but has no operation in the OpenAPI document"
            );
        }
    }
}

#[test]
fn every_documented_path_is_routed_under_the_same_pattern() {
    let document = document();
    let paths = document["paths"].as_object().unwrap();
    for path in paths.keys() {
        let concrete: Vec<&str> = path
            .split('/')
            .map(|segment| if segment.starts_with('{') { "x1" } else { segment })
            .collect();
        assert_eq!(pattern(&concrete.join("/")), Some(path.as_str()), "{path}");
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
