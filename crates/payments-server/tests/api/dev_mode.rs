//! The development bootstrap: a fresh database in dev mode gets a merchant and a key, shown once.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::Arc;

use payments_server::{App, KeyAdmin, ManualClock, ServerConfig};
use reqwest::Method;
use serde_json::json;
use url::Url;

use crate::helpers::{KEY_HEADER, send};

#[tokio::test]
async fn the_dev_merchant_is_created_once_and_its_key_works() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("dev.db");
    let clock = Arc::new(ManualClock::new(1_700_000_000_000));
    let admin = KeyAdmin::open(&db.as_path().into(), clock.clone()).await.unwrap();

    let first = admin.bootstrap_dev_merchant().await.unwrap().unwrap();
    let second = admin.bootstrap_dev_merchant().await.unwrap();

    assert!(second.is_none());
    assert_eq!(
        first.wallet.to_string(),
        "0xdec0de0000000000000000000000000000000001"
    );
    assert_eq!(first.scopes.to_string().split(',').count(), 9);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let app = App::open(ServerConfig::new(db.as_path(), Url::parse(&base).unwrap()), clock)
        .await
        .unwrap();
    tokio::spawn(payments_server::serve(listener, app, std::future::pending()));
    let reply = send(
        reqwest::Client::new()
            .request(Method::GET, format!("{base}/api/shop/config"))
            .header(KEY_HEADER, first.key.expose()),
    )
    .await;
    assert_eq!(
        reply.json,
        json!({"wallet": "0xdec0de0000000000000000000000000000000001", "brandName": "Development Shop",
               "processingFeePct": 0.0, "platformFeePct": 0.5, "brandKey": null, "supportEmail": null,
               "logoUrl": null, "redirectUrl": null, "jurisdictions": [], "defaultJurisdiction": null})
    );
}

#[test]
fn serving_a_fresh_database_on_loopback_prints_a_key_and_a_curl_example() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_payments-server"))
        .args(["--listen", "127.0.0.1:0", "--db"])
        .arg(dir.path().join("fresh.db"))
        .env_remove("PAYMENTS_DEV")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();

    let stdout = BufReader::new(child.stdout.take().unwrap());
    let printed: Vec<String> = stdout
        .lines()
        .map(Result::unwrap)
        .take_while(|line| !line.contains("curl"))
        .collect();
    child.kill().unwrap();
    child.wait().unwrap();

    assert!(
        printed[0].contains("0xdec0de0000000000000000000000000000000001"),
        "{printed:?}"
    );
    assert!(
        printed
            .iter()
            .any(|line| line.trim_start().starts_with("sk_live_")),
        "{printed:?}"
    );
}
