//! GET /portal/{receiptId}: the hosted payment page over HTTP (headers, states, 404, link_opened).

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

    let (status, headers, html) = open_page(&api, "/portal/page-1").await;

    assert_eq!(status, 200);
    assert_eq!(header(&headers, "content-type"), "text/html; charset=utf-8");
    assert!(
        header(&headers, "content-security-policy").starts_with("default-src 'none'; style-src 'sha256-")
    );
    assert_eq!(header(&headers, "x-content-type-options"), "nosniff");
    assert_eq!(header(&headers, "referrer-policy"), "no-referrer");
    assert_eq!(header(&headers, "cache-control"), "no-store");
    assert!(!html.contains("<script"), "{html}");
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(html.contains("<td class=\"num\">$12.50</td>"));
    assert!(html.contains("<code>12500000</code> base units (6 decimals) = $12.50"));
    assert!(html.contains("Base (chain id 8453)"));
    let uri = format!(
        "ethereum:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913@8453/transfer?address={}&amp;uint256=12500000",
        api.app.wallet.to_checksum()
    );
    assert!(html.contains(&format!("href=\"{uri}\"")), "{html}");
    assert!(html.contains("<svg role=\"img\""));
}

#[tokio::test]
async fn opening_the_page_records_link_opened_once() {
    let api = Api::spawn().await;
    create_receipt(&api, crate::receipts_create::receipt_body("page-2")).await;
    assert_eq!(status_of(&api, "page-2").await, "pending");

    let (first, _, _) = open_page(&api, "/portal/page-2").await;
    let (second, _, _) = open_page(&api, "/portal/page-2").await;

    assert_eq!((first, second), (200, 200));
    assert_eq!(status_of(&api, "page-2").await, "link_opened");
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
    let post = send(api.anonymous(Method::POST, "/portal/x")).await;
    assert_eq!(post.status, 405);
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
