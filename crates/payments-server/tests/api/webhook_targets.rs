//! Webhook target URLs over HTTP: internal IPv6 forms refused at creation, and a URL's secret (its query
//! string) kept out of the stored attempt error.

use std::time::Duration;

use payments_server::testing::eventually;
use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{Api, send};
use crate::receipts_create::{create_receipt, receipt_body};

fn with_hook(id: &str, url: &str) -> Value {
    let mut body = receipt_body(id);
    body["webhook_url"] = json!(url);
    body
}

#[tokio::test]
async fn a_failed_attempt_keeps_its_error_without_the_secret_in_the_url_query() {
    let api = Api::spawn().await;
    // A port nobody listens on: the attempt fails with a connection error that names the URL.
    let closed = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let url = format!("http://127.0.0.1:{port}/hooks?token=s3cret-token");
    let created = create_receipt(&api, with_hook("redacted-1", &url)).await;
    assert_eq!(created.status, 201, "{}", created.json);

    let status = json!({"receiptId": "redacted-1", "wallet": api.app.wallet, "status": "link_opened"});
    let moved = send(api.dev(Method::POST, "/api/receipts/status").json(&status)).await;
    assert_eq!(moved.status, 200, "{}", moved.json);

    let error = eventually("the failed attempt", Duration::from_secs(10), || async {
        let log = send(api.dev(Method::GET, "/api/receipts/redacted-1/webhooks")).await;
        log.json["deliveries"][0]["attempts"][0]["error"]
            .as_str()
            .map(str::to_owned)
    })
    .await;
    assert!(error.starts_with("connection failed"), "{error}");
    assert!(!error.contains("s3cret") && !error.contains("token="), "{error}");
}

#[tokio::test]
async fn a_production_server_refuses_ipv6_webhook_urls_that_lead_to_internal_hosts() {
    let api = Api::spawn().await;
    let api = Api::from_app(api.app.restart(true).await);
    let urls = [
        "https://[2002:7f00:1::]/hooks",
        "https://[::ffff:0:7f00:1]/hooks",
        "https://[100::1]/hooks",
        "https://[2001::a00:1]/hooks",
    ];

    for (n, url) in urls.into_iter().enumerate() {
        let reply = create_receipt(&api, with_hook(&format!("v6-{n}"), url)).await;

        assert_eq!(
            (reply.status, reply.json["field"].clone()),
            (400, json!("webhook_url")),
            "{url}: {}",
            reply.json
        );
    }
}
