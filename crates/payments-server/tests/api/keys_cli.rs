//! The binary's `keys` commands, run against the test app's database while the app serves it.

use std::path::Path;
use std::process::{Command, Output};

use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{Api, send};

fn run(db: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_payments-server"))
        .arg("keys")
        .arg("--db")
        .arg(db)
        .args(args)
        .env_remove("PAYMENTS_DB")
        .env_remove("PAYMENTS_CHAIN_RPC_URL")
        .env_remove("PAYMENTS_CONFIG")
        .output()
        .unwrap()
}

fn run_json(db: &Path, args: &[&str]) -> Value {
    let output = run(db, args);
    assert!(
        output.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

#[tokio::test]
async fn keys_create_prints_a_working_key_with_the_requested_scopes() {
    let api = Api::spawn().await;

    let created = run_json(
        &api.app.db_path,
        &[
            "create",
            "--wallet",
            "0xAbCdEf0000000000000000000000000000000002",
            "--scopes",
            "inventory:read",
        ],
    );

    assert!(created["subscriptionId"].as_str().unwrap().starts_with("sub_"));
    // No chain RPC URL: the server runs the test-mode chain, so its keys say so.
    assert!(created["key"].as_str().unwrap().starts_with("sk_test_"));
    assert_eq!(created["wallet"], "0xabcdef0000000000000000000000000000000002");
    assert_eq!(created["scopes"], json!(["inventory:read"]));
    let key = created["key"].as_str().unwrap();
    assert_eq!(
        send(api.dev_as(key, Method::GET, "/api/inventory")).await.status,
        200
    );
    assert_eq!(
        send(api.dev_as(key, Method::GET, "/api/shop/config"))
            .await
            .status,
        403
    );
}

#[tokio::test]
async fn keys_create_defaults_to_every_scope() {
    let api = Api::spawn().await;

    let created = run_json(
        &api.app.db_path,
        &["create", "--wallet", "0x2222222222222222222222222222222222222222"],
    );

    assert_eq!(
        created["scopes"],
        json!([
            "inventory:read",
            "inventory:write",
            "orders:create",
            "receipts:read",
            "receipts:write",
            "shop:read",
            "split:read",
            "users:read",
            "graphql:read",
            "subscriptions:read",
            "subscriptions:write",
            "webhooks:read",
            "webhooks:write"
        ])
    );
}

#[tokio::test]
async fn keys_create_refuses_unknown_scopes_and_bad_wallets() {
    let api = Api::spawn().await;

    let bad_scope = run(
        &api.app.db_path,
        &[
            "create",
            "--wallet",
            "0x2222222222222222222222222222222222222222",
            "--scopes",
            "inventory:admin",
        ],
    );
    let bad_wallet = run(&api.app.db_path, &["create", "--wallet", "0x22"]);

    assert!(!bad_scope.status.success());
    assert!(String::from_utf8_lossy(&bad_scope.stderr).contains("unknown scope 'inventory:admin'"));
    assert!(!bad_wallet.status.success());
}

#[tokio::test]
async fn keys_list_shows_subscriptions_but_never_keys() {
    let api = Api::spawn().await;

    let listed = run_json(&api.app.db_path, &["list"]);

    let entries = listed.as_array().unwrap();
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0]["subscriptionId"], api.app.subscription_id.as_str());
    assert_eq!(entries[0]["wallet"], "0x1111111111111111111111111111111111111111");
    assert_eq!(entries[0]["active"], true);
    assert!(entries[0].get("key").is_none());
    assert!(!listed.to_string().contains(&api.app.key));
}

#[tokio::test]
async fn keys_revoke_makes_the_key_unauthorized_at_once() {
    let api = Api::spawn().await;

    let revoked = run_json(&api.app.db_path, &["revoke", &api.app.subscription_id]);

    assert_eq!(
        revoked,
        json!({"subscriptionId": api.app.subscription_id, "revoked": true})
    );
    assert_eq!(send(api.dev(Method::GET, "/api/inventory")).await.status, 401);
    assert!(
        !run(&api.app.db_path, &["revoke", &api.app.subscription_id])
            .status
            .success()
    );
}

#[tokio::test]
async fn keys_rotate_issues_a_new_key_for_the_same_merchant_and_revokes_the_old_one() {
    let api = Api::spawn().await;

    let rotated = run_json(&api.app.db_path, &["rotate", &api.app.subscription_id]);

    assert_ne!(rotated["subscriptionId"], api.app.subscription_id.as_str());
    assert_eq!(rotated["wallet"], "0x1111111111111111111111111111111111111111");
    assert_eq!(rotated["scopes"].as_array().unwrap().len(), 13);
    let new_key = rotated["key"].as_str().unwrap();
    assert_eq!(
        send(api.dev_as(new_key, Method::GET, "/api/inventory"))
            .await
            .status,
        200
    );
    assert_eq!(send(api.dev(Method::GET, "/api/inventory")).await.status, 401);
}

#[test]
fn keys_commands_refuse_a_missing_database_and_leave_no_file_behind() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("elsewhere.db");

    let listed = run(&missing, &["list"]);
    let created = run(
        &missing,
        &["create", "--wallet", "0x2222222222222222222222222222222222222222"],
    );

    for output in [&listed, &created] {
        assert!(!output.status.success());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("no database at"), "{stderr}");
        assert!(stderr.contains("--create-db"), "{stderr}");
    }
    assert!(!missing.exists());
}

#[test]
fn keys_create_with_create_db_makes_the_database_and_a_key() {
    let dir = tempfile::tempdir().unwrap();
    let new = dir.path().join("new.db");

    let created = run_json(
        &new,
        &[
            "create",
            "--create-db",
            "--test-mode",
            "--wallet",
            "0x2222222222222222222222222222222222222222",
        ],
    );
    let listed = run_json(&new, &["list"]);

    assert!(created["key"].as_str().unwrap().starts_with("sk_test_"));
    assert_eq!(listed.as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn a_live_key_on_a_test_mode_server_is_401_saying_it_is_a_live_key() {
    let api = Api::spawn().await;
    let live_key = format!("sk_live_{}", "A".repeat(43));

    let reply = send(api.dev_as(&live_key, Method::GET, "/api/inventory")).await;

    assert_eq!(
        (
            reply.status,
            reply.json["error"].as_str(),
            reply.json["message"].as_str()
        ),
        (
            401,
            Some("unauthorized"),
            Some(
                "this is a live key (sk_live_, for a server on a real chain); this server takes only sk_test_ keys"
            )
        )
    );
}

#[tokio::test]
async fn keys_create_takes_the_mode_the_database_records_and_refuses_a_contradicting_flag() {
    let api = Api::spawn().await;
    let wallet = "0x3333333333333333333333333333333333333333";

    let derived = run_json(&api.app.db_path, &["create", "--wallet", wallet]);
    let contradicted = run(
        &api.app.db_path,
        &[
            "create",
            "--wallet",
            wallet,
            "--chain-rpc-url",
            "http://127.0.0.1:8545",
        ],
    );

    let key = derived["key"].as_str().unwrap();
    assert!(key.starts_with("sk_test_"), "{derived}");
    assert_eq!(
        send(api.dev_as(key, Method::GET, "/api/inventory")).await.status,
        200
    );
    assert!(!contradicted.status.success());
    let stderr = String::from_utf8_lossy(&contradicted.stderr);
    assert!(
        stderr.contains("this database is recorded as test (its keys are sk_test_...); a server in live mode cannot use it"),
        "{stderr}"
    );
}

#[tokio::test]
async fn keys_create_without_a_flag_on_a_live_database_issues_a_live_key_that_works() {
    // A node nobody answers on: the server is live (it has an RPC URL) and records the database as live.
    let api = Api::spawn_with(payments_server::testing::TestOptions {
        node: Some(payments_server::testing::TestNode {
            rpc_url: "http://127.0.0.1:9".to_owned(),
            contracts: payments_server::ChainContracts::DEVELOPMENT,
            relayer_key: format!("0x{}", "11".repeat(32)),
        }),
        ..payments_server::testing::TestOptions::default()
    })
    .await;

    let created = run_json(
        &api.app.db_path,
        &["create", "--wallet", "0x3333333333333333333333333333333333333333"],
    );

    let key = created["key"].as_str().unwrap();
    assert!(key.starts_with("sk_live_"), "{created}");
    assert_eq!(
        send(api.dev_as(key, Method::GET, "/api/inventory")).await.status,
        200
    );
}

#[test]
fn keys_create_on_a_database_no_server_ran_on_needs_the_mode_said() {
    let dir = tempfile::tempdir().unwrap();
    let new = dir.path().join("new.db");
    let wallet = "0x2222222222222222222222222222222222222222";

    let unsaid = run(&new, &["create", "--create-db", "--wallet", wallet]);
    let said = run_json(
        &new,
        &[
            "create",
            "--create-db",
            "--chain-rpc-url",
            "http://127.0.0.1:8545",
            "--wallet",
            wallet,
        ],
    );
    let after = run_json(&new, &["create", "--wallet", wallet]);

    assert!(!unsaid.status.success());
    assert!(
        String::from_utf8_lossy(&unsaid.stderr)
            .contains("no server has run on this database yet, so it records no mode"),
        "{}",
        String::from_utf8_lossy(&unsaid.stderr)
    );
    assert!(said["key"].as_str().unwrap().starts_with("sk_live_"), "{said}");
    assert!(after["key"].as_str().unwrap().starts_with("sk_live_"), "{after}");
}

#[test]
fn help_documents_every_serve_flag_with_its_environment_variable() {
    let output = Command::new(env!("CARGO_BIN_EXE_payments-server"))
        .arg("--help")
        .output()
        .unwrap();

    let help = String::from_utf8_lossy(&output.stdout);
    for expected in [
        "--listen",
        "PAYMENTS_LISTEN",
        "--db",
        "PAYMENTS_DB",
        "--base-url",
        "PAYMENTS_BASE_URL",
        "--dev",
        "PAYMENTS_DEV",
        "--log-format",
        "PAYMENTS_LOG_FORMAT",
        "--rate-limit-per-minute",
        "PAYMENTS_RATE_LIMIT_PER_MINUTE",
        "--edge-secret",
        "PAYMENTS_EDGE_SECRET",
        "--max-body-bytes",
        "PAYMENTS_MAX_BODY_BYTES",
    ] {
        assert!(help.contains(expected), "--help lacks {expected}");
    }
}
