//! `payments receipts simulate-payment`: the test-mode chain pays; an unknown receipt keeps the service's
//! `not_found`; a server on a real chain refuses with `not_test_mode` (exit 1). And the error rule that
//! was not tested elsewhere: a success answer of an unknown shape is `decode_error`, exit 3.

use std::io::{Read as _, Write as _};
use std::net::TcpListener;

use payments_server::ChainContracts;
use payments_server::testing::{TestNode, TestOptions, spawn_app, spawn_app_with};
use serde_json::Value;

use payments_client::{AdminRole, AdminSession, DeploySplit};

use crate::helpers::{client_with_key, payments, payments_with_key};

/// A URL where nothing listens.
fn closed_url() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    format!("http://{}", listener.local_addr().unwrap())
}

#[tokio::test(flavor = "multi_thread")]
async fn simulate_payment_pays_a_receipt_on_the_test_mode_chain() {
    let app = spawn_app().await;
    // A receipt gets its payment instruction (a deposit address forwarding to the split) once there is a split.
    let (admin, key) = app.merchant_admin().await;
    let token = admin.cookie.strip_prefix("cb_auth_token=").unwrap();
    let session =
        AdminSession::from_tokens(admin.wallet, vec![AdminRole::Merchant], token, &admin.csrf_token).unwrap();
    client_with_key(&app, &key.key)
        .deploy_split(&session, &DeploySplit::default())
        .await
        .unwrap();
    let create = ["receipts", "create", "--id", "sim-1", "--line", "Coffee:3.50"];
    let created = payments_with_key(&app, Some(&key.key), &create).await;
    assert_eq!(created.code, 0, "{created:?}");

    let run = payments_with_key(&app, Some(&key.key), &["receipts", "simulate-payment", "sim-1"]).await;

    assert_eq!(run.code, 0, "{run:?}");
    let row = run.stdout.lines().nth(1).unwrap_or_default().to_owned();
    let columns: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(columns[0], "sim-1", "{}", run.stdout);
    assert!(["paid", "completed"].contains(&columns[1]), "{}", run.stdout);
    assert!(columns[2].starts_with("0x"), "the transaction: {}", run.stdout);
    assert!(columns[3].starts_with("0x"), "the buyer: {}", run.stdout);
}

#[tokio::test(flavor = "multi_thread")]
async fn simulate_payment_of_an_unknown_receipt_keeps_the_services_not_found() {
    let app = spawn_app().await;

    let run = payments(&app, &["receipts", "simulate-payment", "nope", "--json"]).await;

    assert_eq!(run.code, 1, "{run:?}");
    let error: Value = serde_json::from_str(&run.stderr).unwrap();
    assert_eq!(error["error"], "not_found");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_server_on_a_real_chain_refuses_to_simulate_a_payment() {
    let app = spawn_app_with(TestOptions {
        node: Some(TestNode {
            // Nothing answers there: the server refuses before any chain call (the receipt has no split and
            // so no payment instruction either; both answers are `not_test_mode`).
            rpc_url: closed_url(),
            contracts: ChainContracts::DEVELOPMENT,
            relayer_key: format!("0x{}", "11".repeat(32)),
        }),
        ..TestOptions::default()
    })
    .await;
    assert!(
        app.key.starts_with("sk_live_"),
        "a server on a chain issues live keys"
    );
    let created = payments(
        &app,
        &["receipts", "create", "--id", "real-1", "--line", "Coffee:3.50"],
    )
    .await;
    assert_eq!(created.code, 0, "{created:?}");

    let run = payments(&app, &["receipts", "simulate-payment", "real-1"]).await;

    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stderr.starts_with("error: not_test_mode: "), "{}", run.stderr);
    assert!(
        run.stderr.contains("started without --chain-rpc-url"),
        "{}",
        run.stderr
    );
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_success_answer_of_an_unknown_shape_is_a_decode_error_exit_3() {
    let app = spawn_app().await;
    // Some other HTTP service on the URL: every request is answered 200 with a JSON array.
    let other = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", other.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in other.incoming() {
            let Ok(mut stream) = stream else { return };
            let mut request = [0u8; 4096];
            let _ = stream.read(&mut request);
            let _ = stream.write_all(
                b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n[]",
            );
        }
    });

    let text = payments(&app, &["ping", "--url", &url]).await;
    let json = payments(&app, &["ping", "--url", &url, "--json"]).await;

    assert_eq!(text.code, 3, "{text:?}");
    assert!(
        text.stderr.starts_with("error: decode_error: "),
        "{}",
        text.stderr
    );
    assert_eq!(text.stderr.lines().count(), 1, "{}", text.stderr);
    assert_eq!(json.code, 3, "{json:?}");
    let error: Value = serde_json::from_str(&json.stderr).unwrap();
    assert_eq!(error["error"], "decode_error");
    assert!(!error["hint"].as_str().unwrap_or_default().is_empty(), "{error}");
}
