//! Development instances on one PostgreSQL database share the development master key through the database,
//! so whichever instance's dispatcher claims a webhook can open the creating key and sign it.
//!
//! The in-process test cannot tell a shared key from a shared working directory (its two instances run in
//! one process, one directory); the process test runs two binaries from directories of their own, and fails
//! when the key is not shared through the database (checked by switching the sharing off: no delivery of the
//! 40 within the receiver's wait).

use std::process::{Child, Command, Stdio};
use std::time::{Duration, UNIX_EPOCH};

use payments_server::testing::{PgTestDatabase, TEST_START_MS, TestOptions, eventually};
use reqwest::Method;
use serde_json::json;
use webhook_verify::{ApiKey, Verifier};

use crate::helpers::{Api, KEY_HEADER, send};
use crate::receipts_create::{create_receipt, receipt_body};
use crate::webhook_receiver::Receiver;

/// A development instance on `database` (several share it).
pub(crate) async fn dev_instance(database: &PgTestDatabase) -> Api {
    Api::spawn_with(TestOptions {
        postgres_url: Some(database.url().to_owned()),
        dev_master_key_from_database: true,
        ..TestOptions::default()
    })
    .await
}

#[tokio::test]
async fn two_dev_instances_on_one_postgresql_deliver_every_webhook_signed_by_the_creating_key() {
    let Some(database) = PgTestDatabase::create().await else {
        return;
    };
    let first = dev_instance(&database).await;
    let second = dev_instance(&database).await;
    let receiver = Receiver::start(&[]).await;
    let receipts = 20;

    for index in 0..receipts {
        let mut body = receipt_body(&format!("shared-{index}"));
        body["webhook_url"] = json!(receiver.url);
        assert_eq!(create_receipt(&first, body).await.status, 201);
        // The status change comes in through the other instance; either dispatcher may deliver it.
        let changed = send(second.dev(Method::POST, "/api/receipts/status").json(&json!({
            "receiptId": format!("shared-{index}"), "wallet": first.app.wallet, "status": "link_opened"
        })))
        .await;
        assert_eq!(changed.status, 200, "{}", changed.json);
    }

    let delivered = receiver.wait_for(receipts).await;
    let verifier = Verifier::new(ApiKey::new(&first.app.key).unwrap());
    // Both instances' clocks start at the harness's start time, which the webhooks carry.
    let sent_at = UNIX_EPOCH + Duration::from_millis(u64::try_from(TEST_START_MS).unwrap());
    for request in &delivered {
        verifier
            .verify_at(&request.headers, &request.body, sent_at)
            .unwrap();
    }
    assert_eq!(delivered.len(), receipts);
}

/// A `payments-server --dev` process on `database`, run from a working directory of its own (as two
/// deployments would be): before the key was shared through the database, each process made its own
/// development key in a file of its working directory. Killed on drop.
pub(crate) struct DevServerProcess {
    child: Child,
    pub(crate) base_url: String,
    _workdir: tempfile::TempDir,
}

impl DevServerProcess {
    async fn start(database: &PgTestDatabase) -> DevServerProcess {
        DevServerProcess::start_with(database, &[]).await
    }

    /// [`DevServerProcess::start`] with `extra` arguments for `payments-server`.
    pub(crate) async fn start_with(database: &PgTestDatabase, extra: &[&str]) -> DevServerProcess {
        let workdir = tempfile::tempdir().unwrap();
        // A free port, handed to the server (taken again by another process in between only by bad luck).
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut command = Command::new(env!("CARGO_BIN_EXE_payments-server"));
        for (name, _) in std::env::vars().filter(|(name, _)| name.starts_with("PAYMENTS_")) {
            command.env_remove(name);
        }
        let child = command
            .args([
                "--dev",
                "--listen",
                &format!("127.0.0.1:{port}"),
                "--db",
                database.url(),
            ])
            .args(extra)
            .current_dir(workdir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let server = DevServerProcess {
            child,
            base_url: format!("http://127.0.0.1:{port}"),
            _workdir: workdir,
        };
        let health = format!("{}/healthz", server.base_url);
        eventually(
            "the server process to listen",
            Duration::from_secs(30),
            || async {
                let answer = reqwest::get(&health).await.ok()?;
                answer.status().is_success().then_some(())
            },
        )
        .await;
        server
    }

    pub(crate) fn request(&self, key: &str, method: Method, path: &str) -> reqwest::RequestBuilder {
        reqwest::Client::new()
            .request(method, format!("{}{path}", self.base_url))
            .header(KEY_HEADER, key)
    }
}

impl Drop for DevServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A key of `wallet` with the receipt scopes, made by the binary's `keys create` on the shared database.
pub(crate) fn receipts_key(database: &PgTestDatabase, wallet: &str) -> String {
    key_with_scopes(database, wallet, "receipts:read,receipts:write")
}

/// A key of `wallet` with `scopes` (comma-separated), made by the binary's `keys create`.
pub(crate) fn key_with_scopes(database: &PgTestDatabase, wallet: &str, scopes: &str) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_payments-server"))
        .args(["keys", "--db", database.url(), "create", "--wallet", wallet])
        .args(["--scopes", scopes])
        .env_remove("PAYMENTS_DB")
        .env_remove("PAYMENTS_CHAIN_RPC_URL")
        .env_remove("PAYMENTS_CONFIG")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let created: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    created["key"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn two_dev_server_processes_on_one_postgresql_sign_each_others_webhooks_with_the_merchants_key() {
    let Some(database) = PgTestDatabase::create().await else {
        return;
    };
    let first = DevServerProcess::start(&database).await;
    let second = DevServerProcess::start(&database).await;
    let wallet = "0x1111111111111111111111111111111111111111";
    let key = receipts_key(&database, wallet);
    let receiver = Receiver::start(&[]).await;
    let receipts = 40;

    for index in 0..receipts {
        // Spread over both: created on one process, moved on the other; either dispatcher may deliver it.
        let (creator, mover) = if index % 2 == 0 {
            (&first, &second)
        } else {
            (&second, &first)
        };
        let id = format!("spread-{index}");
        let mut body = receipt_body(&id);
        body["webhook_url"] = json!(receiver.url);
        let created = send(creator.request(&key, Method::POST, "/api/receipts").json(&body)).await;
        assert_eq!(created.status, 201, "{}", created.json);
        let moved = send(
            mover
                .request(&key, Method::POST, "/api/receipts/status")
                .json(&json!({
                    "receiptId": id, "wallet": wallet, "status": "link_opened"
                })),
        )
        .await;
        assert_eq!(moved.status, 200, "{}", moved.json);
    }

    let delivered = receiver.wait_for(receipts).await;
    let verifier = Verifier::new(ApiKey::new(&key).unwrap());
    for request in &delivered {
        verifier.verify(&request.headers, &request.body).unwrap();
    }
    let mut ids: Vec<String> = delivered
        .iter()
        .map(|request| {
            request.json()["receiptId"]
                .as_str()
                .unwrap_or_default()
                .to_owned()
        })
        .collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), receipts, "{ids:?}");
}
