//! Connection and body limits, over raw sockets: clients that send headers and then nothing, idle keep-alive
//! connections, too many connections, and bodies that are refused before they are sent.

use std::time::Duration;

use payments_server::ServerLimits;
use payments_server::testing::{TestOptions, eventually};
use reqwest::Method;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::helpers::{Api, KEY_HEADER, send};

/// Longest wait for the server to answer and close; the limits under test are far shorter.
const GUARD: Duration = Duration::from_secs(10);
const SHORT: Duration = Duration::from_millis(300);

async fn spawn_with_limits(limits: ServerLimits) -> Api {
    Api::spawn_with(TestOptions {
        limits: Some(limits),
        ..TestOptions::default()
    })
    .await
}

async fn connect(api: &Api) -> TcpStream {
    TcpStream::connect(api.app.base_url.trim_start_matches("http://"))
        .await
        .unwrap()
}

/// Everything the server sends until it closes the connection; fails the test if it does not close in time.
async fn read_until_closed(stream: &mut TcpStream) -> String {
    let mut received = Vec::new();
    let closed = tokio::time::timeout(GUARD, async {
        let mut buffer = [0_u8; 4096];
        loop {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => break,
                Ok(read) => received.extend_from_slice(&buffer[..read]),
            }
        }
    })
    .await;
    let text = String::from_utf8_lossy(&received).into_owned();
    assert!(
        closed.is_ok(),
        "the server kept the connection open; received so far: {text:?}"
    );
    text
}

/// Sends `head` (request line and headers, no body) and returns what the server sends before closing.
async fn headers_only(api: &Api, head: &str) -> String {
    let mut stream = connect(api).await;
    stream.write_all(head.as_bytes()).await.unwrap();
    read_until_closed(&mut stream).await
}

fn post_head(path: &str, extra_headers: &str, content_length: usize) -> String {
    format!(
        "POST {path} HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\n{extra_headers}\
         content-length: {content_length}\r\n\r\n"
    )
}

fn status_line(answer: &str) -> &str {
    answer.lines().next().unwrap_or("")
}

fn body_of(answer: &str) -> serde_json::Value {
    let (_, body) = answer.split_once("\r\n\r\n").unwrap();
    serde_json::from_str(body).unwrap()
}

#[tokio::test]
async fn a_body_that_never_arrives_is_answered_408_within_the_body_timeout_and_the_connection_closed() {
    let api = spawn_with_limits(ServerLimits {
        body_timeout: SHORT,
        ..ServerLimits::default()
    })
    .await;
    let key = format!("{KEY_HEADER}: {}\r\n", api.app.key);

    let answer = headers_only(&api, &post_head("/api/inventory", &key, 1_000_000)).await;

    assert_eq!(status_line(&answer), "HTTP/1.1 408 Request Timeout");
    assert_eq!(body_of(&answer)["error"], "body_timeout");
}

#[tokio::test]
async fn a_request_over_the_deadline_is_answered_503_deadline_exceeded() {
    let api = spawn_with_limits(ServerLimits {
        request_deadline: SHORT,
        ..ServerLimits::default()
    })
    .await;
    let key = format!("{KEY_HEADER}: {}\r\n", api.app.key);

    let answer = headers_only(&api, &post_head("/api/receipts", &key, 1000)).await;

    assert_eq!(status_line(&answer), "HTTP/1.1 503 Service Unavailable");
    assert_eq!(
        body_of(&answer),
        json!({"error": "deadline_exceeded", "message": "the request did not finish within 300 ms; retry later"})
    );
}

#[tokio::test]
async fn an_idle_keep_alive_connection_is_closed_after_the_header_timeout() {
    let api = spawn_with_limits(ServerLimits {
        header_timeout: SHORT,
        ..ServerLimits::default()
    })
    .await;

    let answer = headers_only(&api, "GET /healthz HTTP/1.1\r\nhost: localhost\r\n\r\n").await;

    assert_eq!(status_line(&answer), "HTTP/1.1 200 OK");
}

#[tokio::test]
async fn connections_over_the_cap_are_answered_503_overloaded_until_one_closes() {
    let api = spawn_with_limits(ServerLimits {
        max_connections: 2,
        ..ServerLimits::default()
    })
    .await;
    let first = connect(&api).await;
    let _second = connect(&api).await;

    let refused = headers_only(&api, "GET /healthz HTTP/1.1\r\nhost: localhost\r\n\r\n").await;
    drop(first);

    assert_eq!(status_line(&refused), "HTTP/1.1 503 Service Unavailable");
    assert_eq!(body_of(&refused)["error"], "overloaded");
    let served = eventually("a connection slot to free up", GUARD, || async {
        let answer = headers_only(
            &api,
            "GET /healthz HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n",
        )
        .await;
        status_line(&answer).ends_with("200 OK").then_some(answer)
    })
    .await;
    assert!(served.contains("\"status\""), "{served}");
}

/// The server answers these from the headers alone: it never waits for the 8 MiB the client announced.
#[tokio::test]
async fn refused_requests_are_answered_without_waiting_for_their_body() {
    let api = Api::spawn().await;
    let big = 8 * 1024 * 1024 - 1;

    let cases = [
        ("/healthz", "", "HTTP/1.1 405 Method Not Allowed"),
        ("/api/inventory", "", "HTTP/1.1 401 Unauthorized"),
        ("/api/receipts/status", "", "HTTP/1.1 401 Unauthorized"),
        ("/api/auth/logout/nowhere", "", "HTTP/1.1 404 Not Found"),
        (
            "/api/inventory",
            &format!("{KEY_HEADER}: wrong-key\r\n"),
            "HTTP/1.1 401 Unauthorized",
        ),
    ];
    for (path, headers, expected) in cases {
        let answer = headers_only(&api, &post_head(path, headers, big)).await;

        assert_eq!(status_line(&answer), expected, "POST {path}");
    }
}

#[tokio::test]
async fn a_json_route_refuses_a_body_over_its_own_limit_with_413() {
    let api = Api::spawn().await;
    let padding = "x".repeat(300 * 1024);
    let body = json!({"id": "big-1", "lineItems": [{"label": padding, "priceUsd": 1}], "totalUsd": 1});

    let reply = send(api.dev(Method::POST, "/api/receipts").json(&body)).await;

    assert_eq!(reply.status, 413);
    assert_eq!(
        reply.json,
        json!({"error": "payload_too_large", "message": "the request body is larger than 262144 bytes"})
    );
}

#[tokio::test]
async fn a_declared_length_over_a_route_limit_is_refused_before_the_body_is_sent() {
    let api = Api::spawn().await;
    let key = format!("{KEY_HEADER}: {}\r\n", api.app.key);

    let answer = headers_only(&api, &post_head("/api/receipts", &key, 1_000_000)).await;

    assert_eq!(status_line(&answer), "HTTP/1.1 413 Payload Too Large");
}
