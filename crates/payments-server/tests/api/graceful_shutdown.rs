//! Shutdown stops accepting connections but lets a request that is already being served finish.

use std::time::Duration;

use payments_server::testing::{eventually, spawn_app};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

#[tokio::test]
async fn a_request_in_flight_when_shutdown_starts_still_gets_its_response() {
    let app = spawn_app().await;
    let address = app.base_url.trim_start_matches("http://").to_owned();
    let body = br#"{"sku":"LATE-1","name":"Late arrival","priceUsd":3.5,"stockQty":1}"#;
    let mut stream = TcpStream::connect(&address).await.unwrap();
    let head = format!(
        "POST /api/inventory HTTP/1.1\r\nHost: {address}\r\nX-Gateway-Subscription-Key: {}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nExpect: 100-continue\r\n\r\n",
        app.key,
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    // `100 Continue` is sent when the handler starts reading the body: the request is now in flight.
    let mut interim = [0u8; 25];
    stream.read_exact(&mut interim).await.unwrap();
    assert!(
        interim.starts_with(b"HTTP/1.1 100 Continue"),
        "{}",
        String::from_utf8_lossy(&interim)
    );

    let shutting_down = tokio::spawn(app.shutdown());
    eventually("the listener to close", Duration::from_secs(5), || {
        let address = address.clone();
        async move { TcpStream::connect(address).await.is_err().then_some(()) }
    })
    .await;
    stream.write_all(body).await.unwrap();
    let mut reply = Vec::new();
    stream.read_to_end(&mut reply).await.unwrap();
    shutting_down.await.unwrap();

    let reply = String::from_utf8_lossy(&reply);
    assert!(reply.contains("HTTP/1.1 200 OK"), "{reply}");
    assert!(reply.contains(r#""sku":"LATE-1""#), "{reply}");
}
