//! Cursor pages of GET /api/receipts and GET /api/inventory: `cursor` in, `nextCursor` out. Walking every
//! page returns every row once, also while rows are created between pages; a bad cursor is a 400.

use std::collections::HashSet;
use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{Api, product, send};

async fn create_receipt(api: &Api, id: &str) {
    let body = json!({"id": id, "lineItems": [{"label": "Tea", "priceUsd": 3.5}], "totalUsd": 3.5});
    let reply = send(api.dev(Method::POST, "/api/receipts").json(&body)).await;
    assert_eq!(reply.status, 201, "{}", reply.json);
}

/// Follows `nextCursor` from `first` (a path with its query), calling `between` after each page; the ids
/// met under `list_field` / `id_field`, and the number of pages.
async fn walk(
    api: &Api,
    first: &str,
    list_field: &str,
    id_field: &str,
    between: impl AsyncFn(usize),
) -> (Vec<String>, usize) {
    let mut seen = Vec::new();
    let mut path = first.to_owned();
    for page in 1..=50 {
        let reply = send(api.dev(Method::GET, &path)).await;
        assert_eq!(reply.status, 200, "{}", reply.json);
        seen.extend(
            reply.json[list_field]
                .as_array()
                .unwrap()
                .iter()
                .map(|row| row[id_field].as_str().unwrap().to_owned()),
        );
        between(page).await;
        match &reply.json["nextCursor"] {
            Value::String(cursor) => {
                let separator = if first.contains('?') { '&' } else { '?' };
                path = format!("{first}{separator}cursor={cursor}");
            }
            Value::Null => return (seen, page),
            other => panic!("nextCursor is {other}"),
        }
    }
    panic!("more than 50 pages: {seen:?}")
}

#[tokio::test]
async fn walking_receipt_pages_returns_every_receipt_once_while_new_ones_are_created() {
    let api = Api::spawn().await;
    for n in 1..=7 {
        create_receipt(&api, &format!("r-{n}")).await;
        api.app
            .clock
            .advance(Duration::from_millis(u64::try_from(n % 2).unwrap()));
    }

    let (seen, pages) = walk(
        &api,
        "/api/receipts?limit=3",
        "receipts",
        "receiptId",
        async |page| {
            create_receipt(&api, &format!("new-{page}")).await;
        },
    )
    .await;

    assert_eq!(seen, ["r-7", "r-6", "r-5", "r-4", "r-3", "r-2", "r-1"]);
    assert_eq!(pages, 3);
    let everything = send(api.dev(Method::GET, "/api/receipts?limit=200")).await;
    assert_eq!(everything.json["receipts"].as_array().unwrap().len(), 10);
    assert_eq!(everything.json["nextCursor"], Value::Null);
}

#[tokio::test]
async fn walking_inventory_pages_returns_every_product_once_while_new_ones_are_created() {
    let api = Api::spawn().await;
    let originals: Vec<String> = (1..=9).map(|n| format!("P-{n}")).collect();
    for sku in &originals {
        api.upsert(product(sku)).await;
        api.app.clock.advance(Duration::from_secs(1));
    }

    let listings = [
        "/api/inventory?pageSize=2",
        "/api/inventory?pageSize=4&sort=createdAt&order=asc",
    ];
    for (round, listing) in listings.into_iter().enumerate() {
        let (seen, _) = walk(&api, listing, "items", "sku", async |page| {
            api.upsert(product(&format!("NEW-{round}-{page}"))).await;
        })
        .await;

        let mut seen_originals: Vec<&String> = seen.iter().filter(|sku| sku.starts_with("P-")).collect();
        seen_originals.sort();
        let mut expected: Vec<&String> = originals.iter().collect();
        expected.sort();
        assert_eq!(seen_originals, expected, "{listing}");
        assert_eq!(
            seen.iter().collect::<HashSet<_>>().len(),
            seen.len(),
            "no product twice: {seen:?}"
        );
    }
    let first = api.list("?pageSize=3").await;
    assert!(first.json["nextCursor"].is_string());
    let last = api.list("?pageSize=200").await;
    assert_eq!(last.json["nextCursor"], Value::Null);
}

#[tokio::test]
async fn a_cursor_that_is_not_this_lists_is_400_invalid_input_on_the_cursor() {
    let api = Api::spawn().await;
    for sku in ["A", "B", "C"] {
        api.upsert(product(sku)).await;
    }
    create_receipt(&api, "r-1").await;
    create_receipt(&api, "r-2").await;
    let by_name = api.list("?pageSize=1&sort=name&order=asc").await;
    let name_cursor = by_name.json["nextCursor"].as_str().unwrap().to_owned();
    let receipts = send(api.dev(Method::GET, "/api/receipts?limit=1")).await;
    let receipt_cursor = receipts.json["nextCursor"].as_str().unwrap().to_owned();

    let refusals = [
        send(api.dev(Method::GET, "/api/receipts?cursor=not-a-cursor")).await,
        send(api.dev(Method::GET, &format!("/api/receipts?cursor={name_cursor}"))).await,
        api.list("?cursor=bm9wZQ").await,
        api.list(&format!("?cursor={receipt_cursor}")).await,
        api.list(&format!("?sort=name&order=desc&cursor={name_cursor}"))
            .await,
    ];
    let with_page = api
        .list(&format!("?sort=name&order=asc&page=1&cursor={name_cursor}"))
        .await;
    let followed = api
        .list(&format!("?pageSize=1&sort=name&order=asc&cursor={name_cursor}"))
        .await;

    for refusal in &refusals {
        assert_eq!(refusal.status, 400, "{}", refusal.json);
        assert_eq!(refusal.json["error"], "invalid_input");
        assert_eq!(refusal.json["field"], "cursor", "{}", refusal.json);
    }
    assert_eq!(with_page.status, 400);
    assert_eq!(with_page.json["field"], "page");
    assert_eq!(followed.status, 200);
    assert_eq!(followed.json["items"][0]["sku"], "B");
}
