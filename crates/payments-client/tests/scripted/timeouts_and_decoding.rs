//! Timeouts and answers of the wrong shape.

use std::time::Duration;

use payments_client::{Client, Error};
use wiremock::matchers::path;
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::support::healthy;

#[tokio::test]
async fn a_server_that_does_not_answer_in_time_is_a_timeout_error() {
    let server = MockServer::start().await;
    Mock::given(path("/healthz"))
        .respond_with(healthy().set_delay(Duration::from_secs(30)))
        .mount(&server)
        .await;
    let client = Client::builder(server.uri())
        .timeout(Duration::from_millis(200))
        .build()
        .unwrap();

    let error = client.health().await.unwrap_err();

    assert!(error.is_timeout(), "expected a timeout, got {error:?}");
}

#[tokio::test]
async fn a_success_body_of_the_wrong_shape_is_a_decode_error_with_the_correlation_id() {
    let server = MockServer::start().await;
    Mock::given(path("/api/status/ping"))
        .respond_with(
            ResponseTemplate::new(200)
                .insert_header("x-correlation-id", "corr-7")
                .set_body_json(serde_json::json!({ "unexpected": true })),
        )
        .mount(&server)
        .await;
    let client = Client::builder(server.uri()).build().unwrap();

    let error = client.ping().await.unwrap_err();

    let Error::Decode {
        status,
        correlation_id,
        ..
    } = error
    else {
        panic!("expected a decode error, got {error:?}")
    };
    assert_eq!(status, 200);
    assert_eq!(correlation_id.as_deref(), Some("corr-7"));
}

#[tokio::test]
async fn an_https_url_for_a_plain_http_server_says_to_use_http() {
    let server = MockServer::start().await;
    Mock::given(path("/healthz"))
        .respond_with(healthy())
        .mount(&server)
        .await;
    let https = server.uri().replacen("http://", "https://", 1);
    let client = Client::builder(https).build().unwrap();

    let error = client.health().await.unwrap_err();

    assert!(matches!(error, Error::Transport { .. }), "{error:?}");
    assert!(
        error.to_string().contains("does not speak HTTPS") && error.to_string().contains("http://"),
        "{error}"
    );
}
