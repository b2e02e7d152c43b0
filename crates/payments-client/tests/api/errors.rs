//! The typed error mapping: status, spec code, message, field, resetAt, correlation id.

use std::num::NonZeroU32;

use payments_client::{ApiError, Client, Error, ErrorCode, InventoryQuery, UpsertInventoryItem};
use payments_core::Cents;
use payments_server::testing::{TEST_START_MS, TestOptions, spawn_app, spawn_app_with, test_wallet};

use crate::helpers::{TINY_PNG, client, client_with_key};

fn api_error(result: Result<impl std::fmt::Debug, Error>) -> ApiError {
    match result {
        Err(Error::Api(api)) => *api,
        other => panic!("expected an API error, got {other:?}"),
    }
}

#[tokio::test]
async fn a_missing_key_is_401_unauthorized() {
    let app = spawn_app().await;
    let anonymous = Client::builder(&app.base_url).build().unwrap();

    let error = api_error(anonymous.list_inventory(&InventoryQuery::new()).await);

    assert_eq!(error.status, 401);
    assert_eq!(error.code, ErrorCode::Unauthorized);
    assert_eq!(error.message, "missing or invalid subscription key");
    assert!(error.correlation_id.is_some());
}

#[tokio::test]
async fn a_revoked_key_is_401_unauthorized() {
    let app = spawn_app().await;
    let other = app.create_key(test_wallet(0x22), "inventory:read").await;
    app.revoke_key(&other.subscription_id).await;

    let error = api_error(
        client_with_key(&app, &other.key)
            .list_inventory(&InventoryQuery::new())
            .await,
    );

    assert_eq!(
        (error.status, error.code.known()),
        (401, Some(ErrorCode::Unauthorized))
    );
}

#[tokio::test]
async fn a_key_without_the_write_scope_is_403_forbidden() {
    let app = spawn_app().await;
    let reader = app.create_key(app.wallet, "inventory:read").await;
    let client = client_with_key(&app, &reader.key);
    let body = UpsertInventoryItem::new("S", "N", Cents::new(100), 1);

    let upsert = api_error(client.upsert_inventory_item(&body).await);
    let upload = api_error(
        client
            .upload_inventory_image("S", "p.png", TINY_PNG.to_vec(), "image/png")
            .await,
    );

    assert_eq!(
        (upsert.status, upsert.code.known()),
        (403, Some(ErrorCode::Forbidden))
    );
    assert_eq!(
        (upload.status, upload.code.known()),
        (403, Some(ErrorCode::Forbidden))
    );
    assert!(client.list_inventory(&InventoryQuery::new()).await.is_ok());
}

#[tokio::test]
async fn stock_below_minus_one_is_400_invalid_input_naming_the_field() {
    let app = spawn_app().await;
    let body = UpsertInventoryItem::new("S", "N", Cents::new(100), -2);

    let error = api_error(client(&app).upsert_inventory_item(&body).await);

    assert_eq!(
        (error.status, error.code.known()),
        (400, Some(ErrorCode::InvalidInput))
    );
    assert_eq!(error.field.as_deref(), Some("stockQty"));
    assert!(!error.message.is_empty());
}

#[tokio::test]
async fn a_page_size_above_200_is_400_invalid_input() {
    let app = spawn_app().await;

    let error = api_error(
        client(&app)
            .list_inventory(&InventoryQuery::new().page_size(201))
            .await,
    );

    assert_eq!(
        (error.status, error.code.known()),
        (400, Some(ErrorCode::InvalidInput))
    );
}

#[tokio::test]
async fn a_file_that_is_not_an_image_is_400_invalid_input() {
    let app = spawn_app().await;
    let client = client(&app);
    client
        .upsert_inventory_item(&UpsertInventoryItem::new("S", "N", Cents::new(100), 1))
        .await
        .unwrap();

    let error = api_error(
        client
            .upload_inventory_image("S", "notes.png", b"hello".to_vec(), "image/png")
            .await,
    );

    assert_eq!(
        (error.status, error.code.known()),
        (400, Some(ErrorCode::InvalidInput))
    );
}

#[tokio::test]
async fn deleting_an_unknown_id_is_404_not_found() {
    let app = spawn_app().await;

    let error = api_error(client(&app).delete_inventory_item("prod_does_not_exist").await);

    assert_eq!(
        (error.status, error.code.known()),
        (404, Some(ErrorCode::NotFound))
    );
}

#[tokio::test]
async fn another_merchants_product_cannot_be_deleted() {
    let app = spawn_app().await;
    let mine = client(&app)
        .upsert_inventory_item(&UpsertInventoryItem::new("S", "N", Cents::new(1), 1))
        .await;
    let stranger = app
        .create_key(test_wallet(0x33), "inventory:read,inventory:write")
        .await;

    let error = api_error(
        client_with_key(&app, &stranger.key)
            .delete_inventory_item(&mine.unwrap().item.id)
            .await,
    );

    assert_eq!(
        (error.status, error.code.known()),
        (404, Some(ErrorCode::NotFound))
    );
}

#[tokio::test]
async fn an_exhausted_quota_is_429_rate_limited_with_reset_at() {
    let options = TestOptions {
        rate_limit_per_minute: NonZeroU32::new(1),
        ..TestOptions::default()
    };
    let app = spawn_app_with(options).await;
    let client = client(&app);
    client.list_inventory(&InventoryQuery::new()).await.unwrap();

    let error = api_error(client.list_inventory(&InventoryQuery::new()).await);

    assert_eq!(
        (error.status, error.code.known()),
        (429, Some(ErrorCode::RateLimited))
    );
    assert_eq!(error.reset_at, Some(TEST_START_MS as u64 + 60_000));
}
