//! `GET /metrics`: Prometheus counters and histograms by route pattern and status, webhook queue and
//! attempts, store latency; who may read it (docs/operations.md).

use std::time::Duration;

use payments_server::testing::{TestOptions, eventually};
use reqwest::Method;
use serde_json::json;

use crate::helpers::{Api, send};
use crate::receipts_create::{create_receipt, receipt_body};
use crate::webhook_receiver::Receiver;

struct Scrape {
    status: u16,
    content_type: String,
    text: String,
}

async fn scrape(request: reqwest::RequestBuilder) -> Scrape {
    let response = request.send().await.unwrap();
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|value| value.to_str().ok())
        .unwrap_or("")
        .to_owned();
    let status = response.status().as_u16();
    Scrape {
        status,
        content_type,
        text: response.text().await.unwrap(),
    }
}

async fn metrics(api: &Api) -> String {
    let scraped = scrape(api.anonymous(Method::GET, "/metrics")).await;
    assert_eq!(scraped.status, 200, "{}", scraped.text);
    scraped.text
}

#[tokio::test]
async fn a_request_is_counted_under_its_route_pattern_and_status_never_its_raw_path() {
    let api = Api::spawn().await;
    for _ in 0..2 {
        let missing = send(api.dev(Method::GET, "/api/receipts/order-raw-77")).await;
        assert_eq!(missing.status, 404);
    }

    let scraped = scrape(api.anonymous(Method::GET, "/metrics")).await;

    assert_eq!(scraped.status, 200);
    assert_eq!(scraped.content_type, "text/plain; version=0.0.4; charset=utf-8");
    assert!(
        scraped.text.contains(
            r#"payments_http_requests_total{method="GET",route="/api/receipts/{id}",status="404"} 2"#
        ),
        "{}",
        scraped.text
    );
    assert!(scraped.text.contains(
        r#"payments_http_request_duration_seconds_count{method="GET",route="/api/receipts/{id}",status="404"} 2"#
    ));
    assert!(!scraped.text.contains("order-raw-77"));
}

#[tokio::test]
async fn unknown_paths_share_one_label() {
    let api = Api::spawn().await;
    send(api.anonymous(Method::GET, "/wp-login.php")).await;
    send(api.anonymous(Method::GET, "/.env")).await;

    let text = metrics(&api).await;

    assert!(
        text.contains(r#"payments_http_requests_total{method="GET",route="unmatched",status="404"} 2"#),
        "{text}"
    );
    assert!(!text.contains("wp-login"));
}

#[tokio::test]
async fn store_latency_is_a_histogram_by_backend_and_kind() {
    let api = Api::spawn().await;
    api.upsert(crate::helpers::product("A-1")).await;
    api.list("").await;

    let text = metrics(&api).await;

    for kind in ["read", "write"] {
        let count =
            format!(r#"payments_store_operation_duration_seconds_count{{backend="sqlite",kind="{kind}"}}"#);
        assert!(text.contains(&count), "{count} missing in {text}");
    }
    assert!(text.contains(
        r#"payments_store_operation_duration_seconds_bucket{backend="sqlite",kind="read",le="10"}"#
    ));
}

#[tokio::test]
async fn webhook_attempts_are_counted_by_outcome_and_the_queue_depth_is_read_at_scrape_time() {
    let api = Api::spawn().await;
    let receiver = Receiver::start(&[]).await;
    let mut body = receipt_body("metrics-1");
    body["webhook_url"] = json!(receiver.url);
    assert_eq!(create_receipt(&api, body).await.status, 201);
    let posted = json!({"receiptId": "metrics-1", "wallet": api.app.wallet, "status": "link_opened"});
    assert_eq!(
        send(api.dev(Method::POST, "/api/receipts/status").json(&posted))
            .await
            .status,
        200
    );
    receiver.wait_for(1).await;

    // The attempt is counted a moment before it is recorded and its slot freed: wait for all three.
    let text = eventually(
        "the recorded attempt in the metrics",
        Duration::from_secs(10),
        || async {
            let text = metrics(&api).await;
            (text.contains(r#"payments_webhook_attempts_total{outcome="delivered"} 1"#)
                && text.contains("payments_webhook_queue_depth 0")
                && text.contains("payments_webhook_in_flight 0"))
            .then_some(text)
        },
    )
    .await;

    assert!(
        text.contains("payments_webhook_attempt_duration_seconds_count 1"),
        "{text}"
    );
}

#[tokio::test]
async fn with_a_token_the_metrics_need_it_as_a_bearer_token() {
    let api = Api::spawn_with(TestOptions {
        metrics_token: Some("metrics-secret-1".to_owned()),
        ..TestOptions::default()
    })
    .await;

    let without = scrape(api.anonymous(Method::GET, "/metrics")).await;
    let wrong = scrape(
        api.anonymous(Method::GET, "/metrics")
            .bearer_auth("metrics-secret-2"),
    )
    .await;
    let right = scrape(
        api.anonymous(Method::GET, "/metrics")
            .bearer_auth("metrics-secret-1"),
    )
    .await;
    let proxied = scrape(
        api.anonymous(Method::GET, "/metrics")
            .bearer_auth("metrics-secret-1")
            .header("x-forwarded-for", "203.0.113.9"),
    )
    .await;

    assert_eq!((without.status, wrong.status), (401, 401));
    assert!(!without.text.contains("metrics-secret"));
    assert_eq!(right.status, 200);
    assert!(
        right.text.contains("payments_http_requests_total"),
        "{}",
        right.text
    );
    assert_eq!(proxied.status, 200, "a token works through a proxy");
}

#[tokio::test]
async fn without_a_token_proxied_requests_get_404_and_other_methods_405() {
    let api = Api::spawn().await;

    let forwarded = scrape(
        api.anonymous(Method::GET, "/metrics")
            .header("forwarded", "for=203.0.113.9"),
    )
    .await;
    let real_ip = scrape(
        api.anonymous(Method::GET, "/metrics")
            .header("x-real-ip", "203.0.113.9"),
    )
    .await;
    let post = send(api.anonymous(Method::POST, "/metrics")).await;

    assert_eq!((forwarded.status, real_ip.status), (404, 404));
    assert_eq!((post.status, post.header("allow")), (405, "GET"));
}
