//! Retry and timeout behaviour of the client, against a scripted server.

#[cfg(test)]
#[path = "support/scripted_server.rs"]
mod scripted_server;

use std::time::{Duration, Instant};

use payments_client::{Client, ErrorCode, RateLimitRetry, UpsertInventoryItem};
use payments_core::Cents;
use scripted_server::{Reply, ScriptedServer, unix_ms_in};

fn rate_limited_for(wait: Duration) -> Reply {
    let body = format!(
        r#"{{"error":"rate_limited","message":"slow down","resetAt":{}}}"#,
        unix_ms_in(wait)
    );
    Reply::Json(429, body)
}

fn healthy() -> Reply {
    Reply::Json(200, r#"{"status":"ok","datastore":"ok"}"#.to_owned())
}

#[tokio::test]
async fn a_rate_limited_get_is_not_retried_by_default() {
    let server = ScriptedServer::start(vec![rate_limited_for(Duration::from_millis(100)), healthy()]).await;
    let client = Client::builder(&server.base_url).build().unwrap();

    let error = client.health().await.unwrap_err();

    assert_eq!(error.code(), Some(&ErrorCode::RateLimited));
    assert_eq!(server.requests(), 1);
}

#[tokio::test]
async fn a_rate_limited_get_waits_for_reset_at_and_retries_when_configured() {
    let server = ScriptedServer::start(vec![rate_limited_for(Duration::from_millis(300)), healthy()]).await;
    let client = Client::builder(&server.base_url)
        .retry_rate_limited_gets(RateLimitRetry::new(2, Duration::from_secs(5)))
        .build()
        .unwrap();
    let started = Instant::now();

    let health = client.health().await.unwrap();

    assert!(health.is_ok());
    assert_eq!(server.requests(), 2);
    assert!(
        started.elapsed() >= Duration::from_millis(250),
        "waited only {:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn a_reset_further_away_than_max_wait_returns_the_429_at_once() {
    let server = ScriptedServer::start(vec![rate_limited_for(Duration::from_secs(60)), healthy()]).await;
    let client = Client::builder(&server.base_url)
        .retry_rate_limited_gets(RateLimitRetry::new(2, Duration::from_secs(1)))
        .build()
        .unwrap();

    let error = client.health().await.unwrap_err();

    let payments_client::Error::Api(api) = error else {
        panic!("expected an API error, got {error:?}")
    };
    assert_eq!(api.status, 429);
    assert!(api.reset_at.is_some());
    assert_eq!(api.correlation_id.as_deref(), Some("scripted-0"));
    assert_eq!(server.requests(), 1);
}

#[tokio::test]
async fn a_rate_limited_post_is_never_retried() {
    let server = ScriptedServer::start(vec![rate_limited_for(Duration::from_millis(50)), healthy()]).await;
    let client = Client::builder(&server.base_url)
        .subscription_key("k")
        .retry_rate_limited_gets(RateLimitRetry::new(3, Duration::from_secs(5)))
        .build()
        .unwrap();

    let error = client
        .upsert_inventory_item(&UpsertInventoryItem::new("S", "N", Cents::new(100), 1))
        .await
        .unwrap_err();

    assert_eq!(error.code(), Some(&ErrorCode::RateLimited));
    assert_eq!(server.requests(), 1);
}

#[tokio::test]
async fn a_server_that_never_answers_is_a_timeout_error() {
    let server = ScriptedServer::start(vec![Reply::Hang]).await;
    let client = Client::builder(&server.base_url)
        .timeout(Duration::from_millis(200))
        .build()
        .unwrap();

    let error = client.health().await.unwrap_err();

    assert!(error.is_timeout(), "expected a timeout, got {error:?}");
}

#[tokio::test]
async fn a_success_body_of_the_wrong_shape_is_a_decode_error_with_the_correlation_id() {
    let server = ScriptedServer::start(vec![Reply::Json(200, r#"{"unexpected":true}"#.to_owned())]).await;
    let client = Client::builder(&server.base_url).build().unwrap();

    let error = client.ping().await.unwrap_err();

    let payments_client::Error::Decode {
        status,
        correlation_id,
        ..
    } = error
    else {
        panic!("expected a decode error, got {error:?}")
    };
    assert_eq!(status, 200);
    assert_eq!(correlation_id.as_deref(), Some("scripted-0"));
}
