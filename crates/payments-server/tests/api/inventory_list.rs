use std::time::Duration;

use reqwest::Method;
use serde_json::json;

use crate::helpers::{Api, product_with, send};

/// Four products created one minute apart (so createdAt/updatedAt order is A, B, C, D).
async fn catalog() -> Api {
    let api = Api::spawn().await;
    let products = [
        json!({"sku": "A", "name": "apple mug", "priceUsd": 5, "stockQty": 0, "category": "Kitchen",
               "tags": ["Red", "ceramic"], "taxable": true}),
        json!({"sku": "B", "name": "Blue shirt", "priceUsd": 25.5, "stockQty": -1, "category": "apparel",
               "tags": ["blue", "cotton"], "industryPack": "apparel", "description": "A soft TEE"}),
        json!({"sku": "C", "name": "Cotton socks", "priceUsd": 8, "stockQty": 12, "category": "Apparel",
               "tags": ["red", "cotton"], "industryPack": "apparel", "taxable": true}),
        json!({"sku": "D", "name": "desk lamp", "priceUsd": 40, "stockQty": 3, "category": "Home"}),
    ];
    for body in products {
        api.upsert(body).await;
        api.app.clock.advance(Duration::from_secs(60));
    }
    api
}

#[tokio::test]
async fn a_listing_reports_items_total_page_and_page_size() {
    let api = catalog().await;

    let reply = api.list("").await;

    assert_eq!(reply.status, 200);
    assert_eq!(reply.json["total"], 4);
    assert_eq!(reply.json["page"], 0);
    assert_eq!(reply.json["pageSize"], 100);
    assert_eq!(reply.json["items"].as_array().unwrap().len(), 4);
}

#[tokio::test]
async fn the_default_order_is_most_recently_updated_first() {
    let api = catalog().await;
    api.upsert(product_with("B", json!({"name": "Blue shirt v2"})))
        .await;

    assert_eq!(api.skus("").await, vec!["B", "D", "C", "A"]);
}

#[tokio::test]
async fn q_searches_name_sku_description_category_and_tags_ignoring_case() {
    let api = catalog().await;

    assert_eq!(api.skus("?q=MUG").await, vec!["A"]);
    assert_eq!(api.skus("?q=tee").await, vec!["B"]);
    assert_eq!(api.skus("?q=home").await, vec!["D"]);
    assert_eq!(api.skus("?q=ceramic").await, vec!["A"]);
    assert_eq!(api.skus("?q=LAMP").await, vec!["D"]);
    assert_eq!(api.skus("?q=red&sort=name&order=asc").await, vec!["A", "C"]);
    assert_eq!(api.skus("?q=%25").await, Vec::<String>::new());
}

#[tokio::test]
async fn category_matches_exactly_ignoring_case() {
    let api = catalog().await;

    assert_eq!(
        api.skus("?category=APPAREL&sort=name&order=asc").await,
        vec!["B", "C"]
    );
    assert_eq!(api.skus("?category=app").await, Vec::<String>::new());
}

#[tokio::test]
async fn price_bounds_are_inclusive() {
    let api = catalog().await;

    assert_eq!(
        api.skus("?priceMin=8&priceMax=25.50&sort=priceUsd&order=asc")
            .await,
        vec!["C", "B"]
    );
}

#[tokio::test]
async fn tags_need_all_listed_tags_by_default_or_any_with_tags_mode_any() {
    let api = catalog().await;

    assert_eq!(api.skus("?tags=red,cotton").await, vec!["C"]);
    assert_eq!(api.skus("?tags=RED,cotton&tagsMode=all").await, vec!["C"]);
    assert_eq!(
        api.skus("?tags=ceramic,blue&tagsMode=any&sort=name&order=asc")
            .await,
        vec!["A", "B"]
    );
}

#[tokio::test]
async fn industry_pack_taxable_and_stock_filters_narrow_the_listing() {
    let api = catalog().await;

    assert_eq!(
        api.skus("?industryPack=apparel&sort=name&order=asc").await,
        vec!["B", "C"]
    );
    assert_eq!(
        api.skus("?taxable=true&sort=name&order=asc").await,
        vec!["A", "C"]
    );
    assert_eq!(
        api.skus("?taxable=false&sort=name&order=asc").await,
        vec!["B", "D"]
    );
    assert_eq!(api.skus("?stock=out").await, vec!["A"]);
    assert_eq!(
        api.skus("?stock=in&sort=name&order=asc").await,
        vec!["B", "C", "D"]
    );
    assert_eq!(api.skus("?stock=all").await.len(), 4);
}

#[tokio::test]
async fn every_sort_field_sorts_both_ways() {
    let api = catalog().await;

    assert_eq!(api.skus("?sort=name&order=asc").await, vec!["A", "B", "C", "D"]);
    assert_eq!(api.skus("?sort=name").await, vec!["D", "C", "B", "A"]);
    assert_eq!(
        api.skus("?sort=priceUsd&order=asc").await,
        vec!["A", "C", "B", "D"]
    );
    assert_eq!(
        api.skus("?sort=stockQty&order=desc").await,
        vec!["C", "D", "A", "B"]
    );
    assert_eq!(
        api.skus("?sort=createdAt&order=asc").await,
        vec!["A", "B", "C", "D"]
    );
    assert_eq!(
        api.skus("?sort=updatedAt&order=asc").await,
        vec!["A", "B", "C", "D"]
    );
}

#[tokio::test]
async fn pages_are_zero_indexed_slices_of_page_size() {
    let api = catalog().await;

    let second = api.list("?sort=name&order=asc&pageSize=3&page=1").await;
    let beyond = api.list("?pageSize=3&page=5").await;

    assert_eq!(second.json["page"], 1);
    assert_eq!(second.json["pageSize"], 3);
    assert_eq!(second.json["total"], 4);
    assert_eq!(second.json["items"][0]["sku"], "D");
    assert_eq!(beyond.json["items"], json!([]));
    assert_eq!(beyond.json["total"], 4);
}

#[tokio::test]
async fn invalid_filter_values_are_refused_naming_the_parameter() {
    let api = Api::spawn().await;
    let cases = [
        ("?pageSize=201", "pageSize"),
        ("?pageSize=0", "pageSize"),
        ("?pageSize=ten", "pageSize"),
        ("?page=-1", "page"),
        ("?priceMin=abc", "priceMin"),
        ("?priceMax=1.001", "priceMax"),
        ("?priceMin=5&priceMax=1", "priceMin"),
        ("?tagsMode=some", "tagsMode"),
        ("?taxable=yes", "taxable"),
        ("?stock=low", "stock"),
        ("?sort=color", "sort"),
        ("?order=up", "order"),
    ];

    for (query, field) in cases {
        let reply = send(api.dev(Method::GET, &format!("/api/inventory{query}"))).await;

        assert_eq!(reply.status, 400, "{query}");
        assert_eq!(reply.json["error"], "invalid_input", "{query}");
        assert_eq!(reply.json["field"], field, "{query}");
    }
}
