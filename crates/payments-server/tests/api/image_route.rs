//! `GET /api/inventory/{id}/images/{n}` and the listing's cap on embedded images (issue 10, item 5).

use payments_server::testing::test_wallet;
use reqwest::Method;
use reqwest::header::HeaderMap;
use reqwest::multipart::{Form, Part};
use serde_json::{Value, json};

use crate::helpers::{Api, PNG, product, send};

/// `sha256sum` of `PNG`.
const PNG_SHA256: &str = "4ffd8bb30991e3a6f28d1d03f1aedcd02ccf8e0cc16bb9e969e7bc2bda1ddf03";
/// The listing's cap on embedded data URLs (docs/inventory.md).
const EMBED_CAP: usize = 4 * 1024 * 1024;

struct Image {
    status: u16,
    headers: HeaderMap,
    bytes: Vec<u8>,
}

impl Image {
    fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .and_then(|value| value.to_str().ok())
            .unwrap_or("")
    }
}

async fn get_image(api: &Api, key: &str, path: &str, if_none_match: Option<&str>) -> Image {
    let mut request = api.dev_as(key, Method::GET, path);
    if let Some(tag) = if_none_match {
        request = request.header("if-none-match", tag);
    }
    let response = request.send().await.unwrap();
    Image {
        status: response.status().as_u16(),
        headers: response.headers().clone(),
        bytes: response.bytes().await.unwrap().to_vec(),
    }
}

async fn upload(api: &Api, sku: &str, bytes: Vec<u8>) {
    let form = Form::new()
        .text("sku", sku.to_owned())
        .part("image", Part::bytes(bytes).file_name("a.png"));
    let reply = send(api.dev(Method::POST, "/api/inventory/images").multipart(form)).await;
    assert_eq!(reply.status, 200, "{}", reply.json);
}

/// A 2 MiB PNG (the largest accepted) whose bytes are told apart by `seed`.
fn large_png(seed: u8) -> Vec<u8> {
    let mut bytes = PNG.to_vec();
    bytes.extend((0..2 * 1024 * 1024 - PNG.len()).map(|at| (at % 251) as u8 ^ seed));
    bytes
}

/// A product with the small test PNG; returns its id.
async fn product_with_png(api: &Api, sku: &str) -> String {
    let item = api.upsert(product(sku)).await;
    upload(api, sku, PNG.to_vec()).await;
    item["id"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn an_image_is_served_from_its_route_with_its_type_content_hash_and_caching_headers() {
    let api = Api::spawn().await;
    let id = product_with_png(&api, "A-1").await;

    let image = get_image(&api, &api.app.key, &format!("/api/inventory/{id}/images/0"), None).await;

    assert_eq!(image.status, 200);
    assert_eq!(image.bytes, PNG);
    assert_eq!(image.header("content-type"), "image/png");
    assert_eq!(image.header("etag"), format!("\"{PNG_SHA256}\""));
    assert_eq!(image.header("cache-control"), "private, max-age=60");
    assert_eq!(image.header("x-content-type-options"), "nosniff");
}

#[tokio::test]
async fn a_matching_if_none_match_is_answered_304_without_a_body() {
    let api = Api::spawn().await;
    let id = product_with_png(&api, "A-1").await;
    let path = format!("/api/inventory/{id}/images/0");
    let etag = format!("\"{PNG_SHA256}\"");

    let unchanged = get_image(
        &api,
        &api.app.key,
        &path,
        Some(&format!("W/\"{}\", {etag}", "0".repeat(64))),
    )
    .await;
    let stale = get_image(
        &api,
        &api.app.key,
        &path,
        Some(&format!("\"{}\"", "0".repeat(64))),
    )
    .await;

    assert_eq!(unchanged.status, 304);
    assert!(unchanged.bytes.is_empty());
    assert_eq!(unchanged.header("etag"), etag);
    assert_eq!((stale.status, stale.bytes.as_slice()), (200, PNG));
}

#[tokio::test]
async fn unknown_products_places_and_methods_are_refused() {
    let api = Api::spawn().await;
    let id = product_with_png(&api, "A-1").await;

    for path in [
        format!("/api/inventory/{id}/images/1"),
        format!("/api/inventory/{id}/images/01"),
        format!("/api/inventory/{id}/images/x"),
        "/api/inventory/prod_00000000000000000000000000000000/images/0".to_owned(),
    ] {
        let reply = send(api.dev(Method::GET, &path)).await;
        assert_eq!(
            (reply.status, reply.json["error"].clone()),
            (404, json!("not_found")),
            "{path}"
        );
    }
    let post = send(api.dev(Method::POST, &format!("/api/inventory/{id}/images/0"))).await;
    assert_eq!((post.status, post.header("allow")), (405, "GET"));
}

#[tokio::test]
async fn another_merchants_image_is_not_found_and_the_route_needs_inventory_read() {
    let api = Api::spawn().await;
    let id = product_with_png(&api, "A-1").await;
    let path = format!("/api/inventory/{id}/images/0");
    let other = api
        .app
        .create_key(test_wallet(0x22), "inventory:read,inventory:write")
        .await;
    let writer_only = api.app.create_key(api.app.wallet, "inventory:write").await;

    let theirs = get_image(&api, &other.key, &path, None).await;
    let unscoped = get_image(&api, &writer_only.key, &path, None).await;
    let anonymous = send(api.anonymous(Method::GET, &path)).await;

    assert_eq!(theirs.status, 404);
    assert_eq!(unscoped.status, 403);
    assert_eq!(anonymous.status, 401);
}

#[tokio::test]
async fn a_listing_embeds_images_up_to_its_cap_and_links_the_rest_to_their_route() {
    let api = Api::spawn().await;
    for (n, sku) in ["A-1", "A-2", "A-3"].into_iter().enumerate() {
        api.upsert(product(sku)).await;
        upload(&api, sku, large_png(n as u8)).await;
    }
    let small = product_with_png(&api, "A-4").await;

    let response = api
        .dev(Method::GET, "/api/inventory?sort=createdAt&order=asc")
        .send()
        .await
        .unwrap();
    let body = response.bytes().await.unwrap();
    let listing: Value = serde_json::from_slice(&body).unwrap();

    let images: Vec<&str> = listing["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["images"][0].as_str().unwrap())
        .collect();
    assert!(
        images[0].starts_with("data:image/png;base64,iVBORw0KGgo"),
        "the first large image fits"
    );
    for (n, linked) in images[1..3].iter().enumerate() {
        let id = listing["items"][n + 1]["id"].as_str().unwrap();
        let (path, version) = linked.split_once("?v=").unwrap();
        assert_eq!(path, format!("/api/inventory/{id}/images/0"));
        let image = get_image(&api, &api.app.key, linked, None).await;
        assert_eq!(image.bytes, large_png(n as u8 + 1));
        assert!(image.header("etag").starts_with(&format!("\"{version}")));
        assert_eq!(
            image.header("cache-control"),
            "private, max-age=31536000, immutable"
        );
    }
    assert_eq!(
        images[3],
        format!(
            "data:image/png;base64,{}",
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ"
        ),
        "a small image after the linked ones still fits ({small})"
    );
    let embedded: usize = images
        .iter()
        .filter(|url| url.starts_with("data:"))
        .map(|url| url.len())
        .sum();
    assert!(embedded <= EMBED_CAP, "{embedded} bytes embedded");
    assert!(
        body.len() < EMBED_CAP + 16 * 1024,
        "answer of {} bytes",
        body.len()
    );
}

#[tokio::test]
async fn a_listed_product_posted_back_keeps_or_reorders_its_linked_images() {
    let api = Api::spawn().await;
    for (n, sku) in ["A-1", "A-2"].into_iter().enumerate() {
        api.upsert(product(sku)).await;
        upload(&api, sku, large_png(n as u8)).await;
        upload(&api, sku, PNG.to_vec()).await;
    }
    let listing = api.list("?sort=createdAt&order=asc").await.json;
    let linked = listing["items"][1].clone();
    assert!(
        linked["images"][0]
            .as_str()
            .unwrap()
            .starts_with("/api/inventory/")
    );

    let mut reordered = linked.clone();
    reordered["images"] = json!([linked["images"][1], linked["images"][0]]);
    let saved = api.upsert(reordered).await;

    let id = linked["id"].as_str().unwrap();
    let first = get_image(&api, &api.app.key, &format!("/api/inventory/{id}/images/0"), None).await;
    let second = get_image(&api, &api.app.key, &format!("/api/inventory/{id}/images/1"), None).await;
    assert_eq!((first.bytes.as_slice(), second.bytes), (PNG, large_png(1)));
    assert_eq!(saved["images"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn an_upsert_naming_an_image_the_product_does_not_have_is_invalid_input() {
    let api = Api::spawn().await;
    let id = product_with_png(&api, "A-1").await;
    let other = product_with_png(&api, "A-2").await;
    let mut body = product("A-1");

    for (images, field) in [
        (
            json!([
                format!("/api/inventory/{id}/images/0"),
                format!("/api/inventory/{id}/images/1")
            ]),
            "images[1]",
        ),
        (
            json!([format!("https://shop.example/api/inventory/{other}/images/0")]),
            "images[0]",
        ),
    ] {
        body["images"] = images;
        let reply = send(api.dev(Method::POST, "/api/inventory").json(&body)).await;
        assert_eq!(
            (
                reply.status,
                reply.json["error"].clone(),
                reply.json["field"].clone()
            ),
            (400, json!("invalid_input"), json!(field))
        );
    }
    let kept = get_image(&api, &api.app.key, &format!("/api/inventory/{id}/images/0"), None).await;
    assert_eq!(kept.bytes, PNG);
}
