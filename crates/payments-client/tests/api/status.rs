//! `health()` and `ping()`.

use payments_client::{
    Client, DatastoreState, ErrorCode, HealthStatus, InventoryQuery, OrUnknown, UpsertInventoryItem,
};
use payments_core::Cents;
use payments_server::testing::{TEST_START_MS, spawn_app};

use crate::helpers::{client, client_with_key};

#[tokio::test]
async fn health_reports_ok_without_a_key() {
    let app = spawn_app().await;
    let anonymous = Client::builder(&app.base_url).build().unwrap();

    let health = anonymous.health().await.unwrap();

    assert!(health.is_ok());
    assert_eq!(health.datastore, Some(OrUnknown::Known(DatastoreState::Ok)));
}

#[tokio::test]
async fn health_reports_degraded_when_the_datastore_is_down() {
    let app = spawn_app().await;
    app.set_datastore_available(false);

    let health = client(&app).health().await.unwrap();

    assert!(!health.is_ok());
    assert_eq!(health.status, HealthStatus::Degraded);
    assert_eq!(
        health.datastore,
        Some(OrUnknown::Known(DatastoreState::Unavailable))
    );
}

#[tokio::test]
async fn ping_shows_the_merchant_subscription_and_scopes_of_the_key() {
    let app = spawn_app().await;

    let ping = client(&app).ping().await.unwrap();

    assert!(ping.ok);
    assert_eq!(ping.merchant, app.wallet);
    assert_eq!(ping.subscription_id, app.subscription_id);
    assert!(
        ping.scopes.iter().any(|scope| scope == "inventory:write"),
        "{:?}",
        ping.scopes
    );
    assert_eq!(ping.server_time, TEST_START_MS as u64);
    assert!(!ping.version.is_empty());
}

#[tokio::test]
async fn ping_with_an_unknown_key_is_unauthorized() {
    let app = spawn_app().await;

    let error = client_with_key(&app, "not-a-key").ping().await.unwrap_err();

    let payments_client::Error::Api(api) = error else {
        panic!("expected an API error, got {error:?}")
    };
    assert_eq!(api.status, 401);
    assert_eq!(api.code, ErrorCode::Unauthorized);
}

#[tokio::test]
async fn during_an_outage_reads_are_degraded_and_writes_are_a_typed_error() {
    let app = spawn_app().await;
    let client = client(&app);
    let listed = client.list_inventory(&InventoryQuery::default()).await.unwrap();
    assert!(listed.degraded.is_none());
    app.set_datastore_available(false);

    let degraded = client.list_inventory(&InventoryQuery::default()).await.unwrap();
    let write = client
        .upsert_inventory_item(&UpsertInventoryItem::new("CUP-1", "Cup", Cents::new(500), 1))
        .await;

    assert_eq!(
        degraded.degraded.map(|d| d.reason).as_deref(),
        Some("datastore_unavailable")
    );
    assert!(degraded.items.is_empty());
    match write {
        Err(payments_client::Error::Api(error)) => {
            assert_eq!(error.status, 503);
            assert_eq!(error.code, ErrorCode::DatastoreUnavailable);
        }
        other => panic!("expected a 503 datastore_unavailable, got {other:?}"),
    }
}
