//! Every route of the server's own OpenAPI document, with generated bodies (bytes, JSON biased to the
//! document's field names, deep nesting, multipart-looking text), content types, query strings and path
//! values: never a 5xx, every refusal under `/api/` in the error envelope.

use proptest::prelude::*;
use reqwest::Method;
use serde_json::{Value, json};

use super::{
    RawReply, envelope_problem, json_value, runner, send_raw, server, still_answers, unpooled_client,
};
use crate::helpers::{Api, send};

/// One operation of the document: its method and path template (`/api/receipts/{id}`).
#[derive(Debug, Clone)]
struct Operation {
    method: Method,
    path: String,
}

/// One generated request.
#[derive(Debug, Clone)]
struct Request {
    operation: Operation,
    path_value: String,
    query: Vec<(String, String)>,
    content_type: Option<&'static str>,
    body: Vec<u8>,
    with_key: bool,
}

const RECEIPT_ID: &str = "fuzz-receipt-1";

const CONTENT_TYPES: &[Option<&str>] = &[
    Some("application/json"),
    Some("application/json; charset=utf-8"),
    None,
    Some("text/plain"),
    Some("application/x-www-form-urlencoded"),
    Some("multipart/form-data; boundary=XyZ"),
    Some("multipart/form-data"),
];

fn operations(document: &Value) -> Vec<Operation> {
    let mut operations = Vec::new();
    for (path, methods) in document["paths"].as_object().unwrap() {
        for method in methods.as_object().unwrap().keys() {
            if let Ok(method) = method.to_ascii_uppercase().parse::<Method>() {
                operations.push(Operation {
                    method,
                    path: path.clone(),
                });
            }
        }
    }
    operations
}

/// Every property and parameter name the document mentions, to bias generated objects and queries.
fn field_names(value: &Value, names: &mut Vec<String>) {
    match value {
        Value::Object(object) => {
            if let Some(properties) = object.get("properties").and_then(Value::as_object) {
                names.extend(properties.keys().cloned());
            }
            if let (Some(Value::String(name)), Some(_)) = (object.get("name"), object.get("in")) {
                names.push(name.clone());
            }
            object.values().for_each(|child| field_names(child, names));
        }
        Value::Array(items) => items.iter().for_each(|child| field_names(child, names)),
        _ => {}
    }
}

fn percent_encoded(text: &str) -> String {
    text.bytes()
        .map(|byte| {
            if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
                char::from(byte).to_string()
            } else {
                format!("%{byte:02X}")
            }
        })
        .collect()
}

fn body(keys: Vec<String>) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        3 => json_value(keys).prop_map(|value| value.to_string().into_bytes()),
        1 => proptest::collection::vec(any::<u8>(), 0..1024),
        1 => (1..20_000_usize, any::<bool>()).prop_map(|(depth, objects)| {
            let (open, close) = if objects { ("{\"a\":", "}") } else { ("[", "]") };
            format!("{}1{}", open.repeat(depth), close.repeat(depth)).into_bytes()
        }),
        1 => (".{0,40}", ".{0,80}").prop_map(|(name, content)| {
            format!(
                "--XyZ\r\nContent-Disposition: form-data; name=\"{name}\"; filename=\"a.png\"\r\nContent-Type: image/png\r\n\r\n{content}\r\n--XyZ--\r\n"
            )
            .into_bytes()
        }),
        1 => "[0-9eE.+-]{1,400}".prop_map(String::into_bytes),
    ]
}

fn request(operations: Vec<Operation>, keys: Vec<String>) -> impl Strategy<Value = Request> {
    let query = proptest::collection::vec(
        (
            prop_oneof![proptest::sample::select(keys.clone()), ".{0,8}"],
            prop_oneof![".{0,16}", "-?[0-9]{1,25}", Just(RECEIPT_ID.to_owned())],
        ),
        0..4,
    );
    (
        proptest::sample::select(operations),
        prop_oneof![
            Just(RECEIPT_ID.to_owned()),
            ".{0,24}",
            "0x[0-9a-f]{40}",
            "[0-9]{1,30}"
        ],
        query,
        proptest::sample::select(CONTENT_TYPES),
        body(keys),
        any::<bool>(),
    )
        .prop_map(
            |(operation, path_value, query, content_type, body, with_key)| Request {
                operation,
                path_value,
                query,
                content_type,
                body,
                with_key,
            },
        )
}

/// The path with every `{param}` replaced by the generated value, and the generated query.
fn url_path(request: &Request) -> String {
    let mut path = String::new();
    for segment in request.operation.path.split('/').skip(1) {
        path.push('/');
        if segment.starts_with('{') && segment.ends_with('}') {
            path.push_str(&percent_encoded(&request.path_value));
        } else {
            path.push_str(segment);
        }
    }
    let query: Vec<String> = request
        .query
        .iter()
        .map(|(name, value)| format!("{}={}", percent_encoded(name), percent_encoded(value)))
        .collect();
    if !query.is_empty() {
        path.push('?');
        path.push_str(&query.join("&"));
    }
    path
}

async fn send_request(client: &reqwest::Client, api: &Api, request: &Request) -> Option<RawReply> {
    let path = url_path(request);
    let mut builder = super::request(
        client,
        api,
        request.operation.method.clone(),
        &path,
        request.with_key,
    );
    if let Some(content_type) = request.content_type {
        builder = builder.header(reqwest::header::CONTENT_TYPE, content_type);
    }
    send_raw(builder.body(request.body.clone())).await
}

/// Routes whose refusals are pages or GraphQL answers rather than the JSON envelope.
fn answers_in_the_envelope(path: &str) -> bool {
    path.starts_with("/api/") && path != "/api/graphql"
}

#[test]
fn any_request_to_any_documented_route_is_answered_without_a_5xx_and_refusals_use_the_envelope() {
    let (runtime, api) = server();
    let document = runtime.block_on(async {
        let receipt =
            json!({"id": RECEIPT_ID, "lineItems": [{"label": "Mug", "priceUsd": 12.5}], "totalUsd": 12.5});
        let created = send(api.dev(Method::POST, "/api/receipts").json(&receipt)).await;
        assert_eq!(created.status, 201, "{}", created.json);
        send(api.anonymous(Method::GET, "/api/openapi.json")).await.json
    });
    let operations = operations(&document);
    assert!(
        operations.len() > 50,
        "the document lists {} operations",
        operations.len()
    );
    let mut keys = Vec::new();
    field_names(&document, &mut keys);
    keys.sort();
    keys.dedup();

    let client = unpooled_client();
    let outcome = runner().run(&request(operations, keys), |request| {
        let Some(reply) = runtime.block_on(send_request(&client, &api, &request)) else {
            prop_assert!(
                !request.body.is_empty(),
                "{} {}: the connection closed",
                request.operation.method,
                url_path(&request)
            );
            prop_assert!(
                runtime.block_on(still_answers(&api)),
                "the server stopped answering"
            );
            return Ok(());
        };
        let shown = String::from_utf8_lossy(&reply.body)
            .chars()
            .take(300)
            .collect::<String>();
        prop_assert!(
            reply.status < 500,
            "{} {} answered {} ({}): {}",
            request.operation.method,
            url_path(&request),
            reply.status,
            reply.content_type,
            shown
        );
        if answers_in_the_envelope(&request.operation.path)
            && let Some(problem) = envelope_problem(&reply)
        {
            prop_assert!(
                false,
                "{} {}: {}",
                request.operation.method,
                url_path(&request),
                problem
            );
        }
        Ok(())
    });
    if let Err(failure) = outcome {
        panic!("{failure}");
    }

    assert!(runtime.block_on(still_answers(&api)));
}
