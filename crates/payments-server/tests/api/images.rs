use reqwest::Method;
use reqwest::multipart::{Form, Part};
use serde_json::json;

use crate::helpers::{Api, JPEG, PNG, Reply, WEBP, product, send};

async fn upload(api: &Api, sku: &str, bytes: &[u8], declared: &str) -> Reply {
    let part = Part::bytes(bytes.to_vec())
        .file_name("upload")
        .mime_str(declared)
        .unwrap();
    let form = Form::new().text("sku", sku.to_owned()).part("image", part);
    send(api.dev(Method::POST, "/api/inventory/images").multipart(form)).await
}

#[tokio::test]
async fn png_jpeg_and_webp_uploads_become_data_urls_attached_to_the_product() {
    let api = Api::spawn().await;
    api.upsert(product("A-1")).await;

    let png = upload(&api, "A-1", PNG, "image/png").await;
    let jpeg = upload(&api, "A-1", JPEG, "application/octet-stream").await;
    let webp = upload(&api, "A-1", WEBP, "image/png").await;

    assert_eq!(png.status, 200);
    assert_eq!(
        png.json,
        json!({"ok": true, "imageUrl": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ"})
    );
    assert!(
        jpeg.json["imageUrl"]
            .as_str()
            .unwrap()
            .starts_with("data:image/jpeg;base64,/9j/4AAQSkZJRg")
    );
    assert!(
        webp.json["imageUrl"]
            .as_str()
            .unwrap()
            .starts_with("data:image/webp;base64,UklGR")
    );
    let images = api.list("").await.json["items"][0]["images"].clone();
    assert_eq!(images.as_array().unwrap().len(), 3);
    assert_eq!(images[0], png.json["imageUrl"]);
}

#[tokio::test]
async fn a_text_file_declared_as_png_is_refused() {
    let api = Api::spawn().await;
    api.upsert(product("A-1")).await;

    let reply = upload(&api, "A-1", b"just some text", "image/png").await;

    assert_eq!(reply.status, 400);
    assert_eq!(
        reply.json,
        json!({"error": "invalid_input", "field": "image", "message": "image: must be a JPEG, PNG or WebP image"})
    );
}

#[tokio::test]
async fn a_fourth_image_is_refused() {
    let api = Api::spawn().await;
    api.upsert(product("A-1")).await;
    for _ in 0..3 {
        assert_eq!(upload(&api, "A-1", PNG, "image/png").await.status, 200);
    }

    let reply = upload(&api, "A-1", PNG, "image/png").await;

    assert_eq!(reply.status, 400);
    assert_eq!(reply.json["message"], "a product has at most 3 images");
}

#[tokio::test]
async fn an_unknown_sku_is_not_found() {
    let api = Api::spawn().await;

    let reply = upload(&api, "NOPE", PNG, "image/png").await;

    assert_eq!(reply.status, 404);
    assert_eq!(
        reply.json,
        json!({"error": "not_found", "message": "no product with sku NOPE"})
    );
}

#[tokio::test]
async fn an_upload_without_sku_or_image_is_invalid_input() {
    let api = Api::spawn().await;
    let without_sku = Form::new().part("image", Part::bytes(PNG.to_vec()).file_name("a.png"));
    let without_image = Form::new().text("sku", "A-1");

    let no_sku = send(
        api.dev(Method::POST, "/api/inventory/images")
            .multipart(without_sku),
    )
    .await;
    let no_image = send(
        api.dev(Method::POST, "/api/inventory/images")
            .multipart(without_image),
    )
    .await;
    let not_multipart = send(api.dev(Method::POST, "/api/inventory/images").body("{}")).await;

    assert_eq!((no_sku.status, no_sku.json["field"].clone()), (400, json!("sku")));
    assert_eq!(
        (no_image.status, no_image.json["field"].clone()),
        (400, json!("image"))
    );
    assert_eq!(not_multipart.status, 400);
}

#[tokio::test]
async fn an_image_over_2_mib_is_413() {
    let api = Api::spawn().await;
    api.upsert(product("A-1")).await;
    let mut big = PNG.to_vec();
    big.resize(2 * 1024 * 1024 + 1, 0);

    let reply = upload(&api, "A-1", &big, "image/png").await;

    assert_eq!(reply.status, 413);
    assert_eq!(
        reply.json,
        json!({"error": "payload_too_large", "message": "the image is larger than 2097152 bytes"})
    );
}

#[tokio::test]
async fn uploading_needs_the_inventory_write_scope() {
    let api = Api::spawn().await;
    let reader = api.app.create_key(api.app.wallet, "inventory:read").await;
    let form = Form::new()
        .text("sku", "A-1")
        .part("image", Part::bytes(PNG.to_vec()));

    let reply = send(
        api.dev_as(&reader.key, Method::POST, "/api/inventory/images")
            .multipart(form),
    )
    .await;

    assert_eq!(reply.status, 403);
}
