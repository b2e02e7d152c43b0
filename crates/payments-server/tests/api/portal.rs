//! /portal/{receiptId}: the hosted payment page over HTTP (headers, states, 404; GET and HEAD change
//! nothing, the page's button records link_opened).

use reqwest::Method;
use serde_json::json;

use crate::admin_helpers::admin;
use crate::helpers::{Api, send};
use crate::receipts_create::create_receipt;

/// Status, headers and body text of an anonymous page request.
pub(crate) async fn open_page(api: &Api, path: &str) -> (u16, reqwest::header::HeaderMap, String) {
    let response = api.anonymous(Method::GET, path).send().await.unwrap();
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    (status, headers, response.text().await.unwrap())
}

fn header<'a>(headers: &'a reqwest::header::HeaderMap, name: &str) -> &'a str {
    headers
        .get(name)
        .and_then(|value| value.to_str().ok())
        .unwrap_or("")
}

/// The page's "Continue to payment" button: a form POST, answered 303 back to the page.
pub(crate) async fn press_continue(api: &Api, path: &str) -> (u16, String) {
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let response = client.post(api.app.url(path)).send().await.unwrap();
    let location = response
        .headers()
        .get("location")
        .and_then(|value| value.to_str().ok())
        .unwrap_or("")
        .to_owned();
    (response.status().as_u16(), location)
}

async fn deliveries(api: &Api, id: &str) -> usize {
    let reply = send(api.dev(Method::GET, &format!("/api/receipts/{id}/webhooks"))).await;
    reply.json["deliveries"].as_array().map_or(0, Vec::len)
}

async fn status_of(api: &Api, id: &str) -> String {
    let reply = send(api.dev(Method::GET, &format!("/api/receipts/status?receiptId={id}"))).await;
    reply.json["status"].as_str().unwrap_or_default().to_owned()
}

#[tokio::test]
async fn the_page_shows_lines_total_and_how_to_pay_with_security_headers() {
    let api = Api::spawn().await;
    let body = json!({
        "id": "page-1",
        "lineItems": [{"label": "<script>alert(1)</script>", "priceUsd": 10.5}, {"label": "Mug", "priceUsd": 2}],
        "totalUsd": 12.5,
    });
    assert_eq!(create_receipt(&api, body).await.status, 201);
    assert_eq!(press_continue(&api, "/portal/page-1").await.0, 303);

    let (status, headers, html) = open_page(&api, "/portal/page-1").await;

    assert_eq!(status, 200);
    assert_eq!(header(&headers, "content-type"), "text/html; charset=utf-8");
    assert!(
        header(&headers, "content-security-policy").starts_with("default-src 'none'; style-src 'sha256-")
    );
    assert_eq!(header(&headers, "x-content-type-options"), "nosniff");
    assert_eq!(header(&headers, "referrer-policy"), "no-referrer");
    assert_eq!(header(&headers, "cache-control"), "no-store");
    assert!(!html.contains("<script>"), "{html}");
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(html.contains("<td class=\"num\">$12.50</td>"));
    assert!(html.contains("<code>12500000</code> base units (6 decimals) = $12.50"));
    assert!(html.contains("Local test chain (chain id 31337)"));
    let uri = format!(
        "ethereum:0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0@31337/transfer?address={}&amp;uint256=12500000",
        api.app.wallet.to_checksum()
    );
    assert!(html.contains(&format!("href=\"{uri}\"")), "{html}");
    assert!(html.contains("<svg role=\"img\""));
}

#[tokio::test]
async fn reading_the_page_changes_nothing_and_only_its_button_records_link_opened() {
    let api = Api::spawn().await;
    let mut body = crate::receipts_create::receipt_body("page-2");
    body["webhook_url"] = json!("http://127.0.0.1:9/hook");
    create_receipt(&api, body).await;

    let (got, _, before) = open_page(&api, "/portal/page-2").await;
    let head = api
        .anonymous(Method::HEAD, "/portal/page-2")
        .send()
        .await
        .unwrap();
    let head_status = head.status().as_u16();
    let head_type = header(head.headers(), "content-type").to_owned();
    let head_body = head.text().await.unwrap();
    let status_after_reads = status_of(&api, "page-2").await;
    let pressed = press_continue(&api, "/portal/page-2?recipient=0xabc").await;
    let pressed_again = press_continue(&api, "/portal/page-2").await;
    let (_, _, after) = open_page(&api, "/portal/page-2").await;

    assert_eq!((got, head_status), (200, 200));
    assert_eq!(head_type, "text/html; charset=utf-8");
    assert_eq!(head_body, "");
    assert_eq!(status_after_reads, "pending");
    assert!(before.contains("Continue to payment"), "{before}");
    assert!(before.contains("<form method=\"post\">"), "{before}");
    assert!(!before.contains("ethereum:"), "{before}");
    assert_eq!(pressed, (303, "/portal/page-2?recipient=0xabc".to_owned()));
    assert_eq!(pressed_again, (303, "/portal/page-2".to_owned()));
    assert_eq!(status_of(&api, "page-2").await, "link_opened");
    assert_eq!(deliveries(&api, "page-2").await, 1, "one webhook: the one move");
    assert!(after.contains("ethereum:"), "{after}");
    assert!(!after.contains("Continue to payment"), "{after}");
}

#[tokio::test]
async fn a_failed_receipt_stays_failed_whoever_opens_or_presses_on_its_page() {
    let api = Api::spawn().await;
    let mut body = crate::receipts_create::receipt_body("page-5");
    body["webhook_url"] = json!("http://127.0.0.1:9/hook");
    create_receipt(&api, body).await;
    let failed = send(api.dev(Method::POST, "/api/receipts/status").json(&json!({
        "receiptId": "page-5", "wallet": api.app.wallet, "status": "failed",
        "failureCode": "PORTAL_SESSION_EXPIRED", "failureCategory": "session",
        "failureReason": "Expired", "failureAction": "Start again"
    })))
    .await;
    assert_eq!(failed.status, 200, "{}", failed.json);

    let (got, _, _) = open_page(&api, "/portal/page-5").await;
    let head = api
        .anonymous(Method::HEAD, "/portal/page-5")
        .send()
        .await
        .unwrap();
    let pressed = press_continue(&api, "/portal/page-5").await;

    assert_eq!((got, head.status().as_u16(), pressed.0), (200, 200, 303));
    assert_eq!(status_of(&api, "page-5").await, "failed");
    assert_eq!(deliveries(&api, "page-5").await, 1, "only the failure's webhook");
}

#[tokio::test]
async fn an_unknown_or_malformed_receipt_id_is_a_404_page() {
    let api = Api::spawn().await;
    for path in ["/portal/no-such-receipt", "/portal/%3Cscript%3E"] {
        let (status, headers, html) = open_page(&api, path).await;
        assert_eq!(status, 404, "{path}");
        assert_eq!(header(&headers, "content-type"), "text/html; charset=utf-8");
        assert!(html.contains("Payment link not found"), "{html}");
        assert!(!html.contains("script"), "{html}");
    }
    assert_eq!(press_continue(&api, "/portal/no-such-receipt").await.0, 404);
    let put = send(api.anonymous(Method::PUT, "/portal/x")).await;
    assert_eq!(put.status, 405);
    assert_eq!(put.header("allow"), "GET, HEAD, POST");
}

#[tokio::test]
async fn a_paid_receipt_shows_paid_without_instructions_and_opening_it_changes_nothing() {
    let api = Api::spawn().await;
    let (session, key) = api.app.merchant_admin().await;
    let create = api.dev_as(&key.key, Method::POST, "/api/receipts");
    send(create.json(&crate::receipts_create::receipt_body("page-3"))).await;
    let hash = format!("0x{}", "cd".repeat(32));
    let paid =
        json!({"receiptId": "page-3", "wallet": key.wallet, "status": "paid", "transactionHash": hash});
    let attested = send(admin(&api, &session, Method::POST, "/api/receipts/status").json(&paid)).await;
    assert_eq!(attested.status, 200, "{}", attested.json);

    let (status, _, html) = open_page(&api, "/portal/page-3").await;

    assert_eq!(status, 200);
    assert!(html.contains("<h2 id=\"pay-heading\">Paid</h2>"), "{html}");
    assert!(html.contains(&"cd".repeat(32)));
    assert!(!html.contains("ethereum:"));
    let read = send(api.dev_as(&key.key, Method::GET, "/api/receipts/status?receiptId=page-3")).await;
    assert_eq!(read.json["status"], "paid");
}

#[tokio::test]
async fn a_failed_receipt_shows_the_reason_and_what_to_do() {
    let api = Api::spawn().await;
    create_receipt(&api, crate::receipts_create::receipt_body("page-4")).await;
    let failed = send(api.dev(Method::POST, "/api/receipts/status").json(&json!({
        "receiptId": "page-4", "wallet": api.app.wallet, "status": "failed",
        "failureCode": "PORTAL_PAY_INSUFFICIENT_FUNDS", "failureCategory": "card_decline",
        "failureReason": "The card was declined <for funds>", "failureAction": "Try another card"
    })))
    .await;
    assert_eq!(failed.status, 200, "{}", failed.json);

    let (status, _, html) = open_page(&api, "/portal/page-4").await;

    assert_eq!(status, 200);
    assert!(html.contains("Payment failed"));
    assert!(html.contains("The card was declined &lt;for funds&gt;"), "{html}");
    assert!(html.contains("<strong>What to do:</strong> Try another card"));
    assert!(html.contains("ethereum:"));
}
