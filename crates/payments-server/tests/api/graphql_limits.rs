//! /api/graphql against hostile documents: a document is costed before anything expands or runs it, and
//! introspection answers only where the operator allows it.

use payments_server::testing::TestOptions;
use reqwest::Method;
use serde_json::json;

use crate::helpers::{Api, Reply, send};

async fn post(api: &Api, query: &str) -> Reply {
    send(
        api.dev(Method::POST, "/api/graphql")
            .json(&json!({"query": query})),
    )
    .await
}

/// The attack of issue 23: fragment `Fn` spreads `F(n-1)` twice, so the document is about 100 bytes per
/// level but expands to 5 * 2^n fields.
fn fragment_doubling(levels: usize) -> String {
    let mut text =
        format!("query {{ leaderboard(first: 1) {{ ...F{levels} }} }}\nfragment F0 on User {{ wallet }}\n");
    for level in 1..=levels {
        let previous = level - 1;
        text.push_str(&format!(
            "fragment F{level} on User {{ a: follows(first: 1) {{ nodes {{ ...F{previous} }} }} b: follows(first: 1) {{ nodes {{ ...F{previous} }} }} }}\n"
        ));
    }
    text
}

fn only_error(reply: &Reply) -> (&str, &str) {
    assert_eq!(reply.status, 200, "{}", reply.json);
    assert!(reply.json["data"].is_null(), "{}", reply.json);
    let errors = reply.json["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1, "{}", reply.json);
    (
        errors[0]["extensions"]["code"].as_str().unwrap_or_default(),
        errors[0]["message"].as_str().unwrap_or_default(),
    )
}

#[tokio::test]
async fn the_fragment_doubling_query_at_depth_thirty_is_refused_as_too_large_before_it_runs() {
    let api = Api::spawn().await;

    let reply = post(&api, &fragment_doubling(30)).await;

    assert_eq!(
        only_error(&reply),
        (
            "invalid_input",
            "Query is too large: it expands to 5368709117 fields (at most 2000)."
        )
    );
}

#[tokio::test]
async fn the_fragment_doubling_query_at_depth_sixty_is_refused_and_the_server_still_answers() {
    let api = Api::spawn().await;

    let reply = post(&api, &fragment_doubling(60)).await;
    let after = post(&api, "{ leaderboard(first: 1) { wallet } }").await;

    assert_eq!(only_error(&reply).0, "invalid_input");
    assert_eq!(after.json, json!({"data": {"leaderboard": []}}));
}

#[tokio::test]
async fn a_fragment_spreading_itself_is_refused_as_a_cycle() {
    let api = Api::spawn().await;

    let reply = post(
        &api,
        "{ leaderboard { ...A } } fragment A on User { follows { nodes { ...B } } } fragment B on User { ...A }",
    )
    .await;

    assert_eq!(
        only_error(&reply),
        ("invalid_input", "Fragment \"A\" spreads itself.")
    );
}

#[tokio::test]
async fn a_document_that_does_not_parse_is_an_invalid_input_error() {
    let api = Api::spawn().await;

    let reply = post(&api, "{ leaderboard { wallet ").await;

    assert_eq!(only_error(&reply).0, "invalid_input");
}

const INTROSPECTION: &str = "{ __schema { queryType { name } } }";

#[tokio::test]
async fn introspection_is_refused_in_production_without_the_flag() {
    let api = Api::spawn_with(TestOptions {
        production_mode: true,
        ..TestOptions::default()
    })
    .await;

    let reply = post(&api, INTROSPECTION).await;

    assert_eq!(
        only_error(&reply),
        (
            "forbidden",
            "introspection is off on this server (start it with --graphql-introspection to allow it)"
        )
    );
}

#[tokio::test]
async fn introspection_is_answered_in_production_with_the_graphql_introspection_flag() {
    let api = Api::spawn_with(TestOptions {
        production_mode: true,
        graphql_introspection: true,
        ..TestOptions::default()
    })
    .await;

    let reply = post(&api, INTROSPECTION).await;

    assert_eq!(
        reply.json,
        json!({"data": {"__schema": {"queryType": {"name": "Query"}}}})
    );
}
