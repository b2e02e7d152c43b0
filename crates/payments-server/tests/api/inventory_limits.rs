//! GET /api/inventory resource limits: the tag filter and query string are capped, and each listing has a
//! time budget.

use std::time::Duration;

use payments_server::testing::TestOptions;
use serde_json::json;

use crate::helpers::{Api, product_with};

fn tags(count: usize) -> String {
    (0..count).map(|n| format!("t{n}")).collect::<Vec<_>>().join(",")
}

#[tokio::test]
async fn a_tag_filter_naming_more_than_50_tags_is_refused_and_changes_nothing() {
    let api = Api::spawn().await;
    let saved = api.upsert(product_with("mug", json!({"tags": ["t1"]}))).await;

    let reply = api.list(&format!("?tagsMode=any&tags={}", tags(51))).await;

    assert_eq!(reply.status, 400, "{}", reply.json);
    assert_eq!(reply.json["error"], "invalid_input");
    assert_eq!(reply.json["field"], "tags");
    let after = api.list("").await;
    assert_eq!(after.json["items"], json!([saved]));
}

#[tokio::test]
async fn a_filter_tag_over_64_bytes_is_refused() {
    let api = Api::spawn().await;

    let reply = api.list(&format!("?tags={}", "x".repeat(65))).await;

    assert_eq!(reply.status, 400, "{}", reply.json);
    assert_eq!(reply.json["field"], "tags");
}

#[tokio::test]
async fn a_query_string_over_4_kib_is_refused() {
    let api = Api::spawn().await;

    let reply = api.list(&format!("?q={}", "a".repeat(4100))).await;

    assert_eq!(reply.status, 400, "{}", reply.json);
    assert_eq!(reply.json["error"], "invalid_input");
    assert_eq!(reply.json["field"], "query");
}

#[tokio::test]
async fn fifty_filter_tags_over_many_products_list_exactly_the_matching_ones() {
    let api = Api::spawn().await;
    for n in 0..60 {
        let tag = format!("T{}", n % 60);
        api.upsert(product_with(&format!("p{n:02}"), json!({"tags": [tag, "all"]})))
            .await;
    }

    let any = api
        .skus(&format!(
            "?tagsMode=any&tags={}&sort=name&order=asc&pageSize=200",
            tags(50)
        ))
        .await;
    let all = api.list(&format!("?tagsMode=all&tags={}", tags(50))).await;
    let pair = api.skus("?tags=ALL,t7").await;

    let expected: Vec<String> = (0..50).map(|n| format!("p{n:02}")).collect();
    assert_eq!(any, expected);
    assert_eq!(all.json["total"], 0);
    assert_eq!(pair, vec!["p07".to_owned()]);
}

#[tokio::test]
async fn a_listing_over_its_time_budget_is_answered_200_in_degraded_mode_not_503() {
    let api = Api::spawn_with(TestOptions {
        inventory_list_budget: Some(Duration::ZERO),
        ..TestOptions::default()
    })
    .await;
    api.upsert(product_with("mug", json!({"tags": ["t1"]}))).await;

    let reply = api.list("?tags=t1").await;

    assert_eq!(reply.status, 200, "{}", reply.json);
    assert_eq!(
        reply.json,
        json!({"items": [], "total": 0, "page": 0, "pageSize": 100, "nextCursor": null,
               "degraded": true, "reason": "datastore_unavailable"})
    );
}
