//! Which failures are retried, how often, and which never are.

use std::time::Duration;

use payments_client::{Error, ErrorCode, RetryPolicy, UpsertInventoryItem};
use payments_core::Cents;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer};

use crate::support::{
    client, client_of, datastore_busy, dropping_first_connection, fast_retries, healthy, rate_limited_for,
    received, refusal,
};

#[tokio::test]
async fn a_rate_limited_get_is_not_retried_by_default() {
    let server = MockServer::start().await;
    Mock::given(path("/healthz"))
        .respond_with(rate_limited_for(Duration::from_millis(10)))
        .mount(&server)
        .await;

    let error = client(&server, RetryPolicy::OFF).health().await.unwrap_err();

    assert_eq!(error.code(), Some(ErrorCode::RateLimited));
    assert_eq!(received(&server).await.len(), 1);
}

#[tokio::test]
async fn a_rate_limited_get_is_retried_once_the_quota_resets() {
    let server = MockServer::start().await;
    Mock::given(path("/healthz"))
        .respond_with(rate_limited_for(Duration::from_millis(50)))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(path("/healthz"))
        .respond_with(healthy())
        .mount(&server)
        .await;

    let health = client(&server, fast_retries(2)).health().await.unwrap();

    assert!(health.is_ok());
    assert_eq!(received(&server).await.len(), 2);
}

#[tokio::test]
async fn a_reset_further_away_than_max_wait_returns_the_429_at_once() {
    let server = MockServer::start().await;
    Mock::given(path("/healthz"))
        .respond_with(rate_limited_for(Duration::from_secs(600)))
        .mount(&server)
        .await;
    let policy = fast_retries(3).max_wait(Duration::from_secs(1));

    let error = client(&server, policy).health().await.unwrap_err();

    let Error::Api(api) = error else {
        panic!("expected an API error, got {error:?}")
    };
    assert_eq!(api.status, 429);
    assert!(api.reset_at.is_some());
    assert_eq!(received(&server).await.len(), 1);
}

#[tokio::test]
async fn a_get_answered_503_with_retry_after_is_retried_until_it_succeeds() {
    let server = MockServer::start().await;
    Mock::given(path("/healthz"))
        .respond_with(datastore_busy())
        .up_to_n_times(2)
        .mount(&server)
        .await;
    Mock::given(path("/healthz"))
        .respond_with(healthy())
        .mount(&server)
        .await;

    let health = client(&server, fast_retries(3)).health().await.unwrap();

    assert!(health.is_ok());
    assert_eq!(received(&server).await.len(), 3);
}

#[tokio::test]
async fn retries_stop_at_max_retries_with_the_last_error() {
    let server = MockServer::start().await;
    Mock::given(path("/healthz"))
        .respond_with(datastore_busy())
        .mount(&server)
        .await;

    let error = client(&server, fast_retries(2)).health().await.unwrap_err();

    assert_eq!(error.code(), Some(ErrorCode::DatastoreUnavailable));
    assert_eq!(received(&server).await.len(), 3);
}

#[tokio::test]
async fn refusals_that_a_retry_cannot_fix_are_returned_at_once() {
    let server = MockServer::start().await;
    Mock::given(path("/api/receipts/r-1"))
        .respond_with(refusal(500, "failed"))
        .mount(&server)
        .await;
    Mock::given(path("/api/receipts/r-2"))
        .respond_with(refusal(404, "not_found"))
        .mount(&server)
        .await;
    let client = client(&server, fast_retries(3));

    let failed = client.get_receipt("r-1").await.unwrap_err();
    let missing = client.get_receipt("r-2").await.unwrap_err();

    assert_eq!(failed.code(), Some(ErrorCode::Failed));
    assert_eq!(missing.code(), Some(ErrorCode::NotFound));
    assert_eq!(received(&server).await.len(), 2);
}

#[tokio::test]
async fn a_get_whose_connection_dropped_is_retried() {
    let (uri, server) =
        dropping_first_connection(vec![Mock::given(path("/healthz")).respond_with(healthy())]).await;

    let health = client_of(&uri, fast_retries(2)).health().await.unwrap();

    assert!(health.is_ok());
    assert_eq!(received(&server.await.unwrap()).await.len(), 1);
}

#[tokio::test]
async fn a_write_without_an_idempotency_key_is_never_retried() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/api/inventory"))
        .respond_with(datastore_busy())
        .mount(&server)
        .await;

    let error = client(&server, fast_retries(3))
        .upsert_inventory_item(&UpsertInventoryItem::new("S", "N", Cents::new(100), 1))
        .await
        .unwrap_err();

    assert_eq!(error.code(), Some(ErrorCode::DatastoreUnavailable));
    assert_eq!(received(&server).await.len(), 1);
}
