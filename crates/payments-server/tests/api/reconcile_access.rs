//! The reconciliation route's refusals on the test-mode chain (issue 26): no session is 401, a merchant's own
//! session is 403 (it reads every merchant's records), a malformed window is 400 naming the field, each in the
//! spec's envelope; a platform admin on an empty database gets an empty report. The command refuses the
//! in-process test-mode chain and says where to reconcile instead.

use std::process::Command;

use payments_server::testing::{TEST_ADMIN_WALLET, TestOptions};
use reqwest::Method;
use serde_json::json;

use crate::admin_helpers::admin;
use crate::helpers::{Api, send};

#[tokio::test]
async fn reconcile_is_refused_without_a_platform_admin_session_and_for_a_malformed_window() {
    let merchant_only = Api::spawn().await;
    let (merchant, _) = merchant_only.app.merchant_admin().await;
    let platform = Api::spawn_with(TestOptions {
        platform_admins: vec![payments_core::Wallet::parse(TEST_ADMIN_WALLET).unwrap()],
        ..TestOptions::default()
    })
    .await;
    let (platform_admin, _) = platform.app.merchant_admin().await;

    let anonymous = send(merchant_only.anonymous(Method::GET, "/api/admin/reconcile")).await;
    let not_platform = send(admin(
        &merchant_only,
        &merchant,
        Method::GET,
        "/api/admin/reconcile",
    ))
    .await;
    let malformed = send(admin(
        &platform,
        &platform_admin,
        Method::GET,
        "/api/admin/reconcile?from=yesterday",
    ))
    .await;
    let backwards = send(admin(
        &platform,
        &platform_admin,
        Method::GET,
        "/api/admin/reconcile?from=2026-02-01&to=2026-01-01",
    ))
    .await;
    let empty = send(admin(
        &platform,
        &platform_admin,
        Method::GET,
        "/api/admin/reconcile",
    ))
    .await;

    assert_eq!(anonymous.status, 401, "{}", anonymous.json);
    assert!(anonymous.json["message"].is_string());
    assert_eq!(
        (not_platform.status, not_platform.json["error"].clone()),
        (403, json!("forbidden"))
    );
    assert_eq!(
        (malformed.status, malformed.json["error"].clone()),
        (400, json!("invalid_input"))
    );
    assert_eq!(malformed.json["field"], "from");
    assert_eq!(
        (backwards.status, backwards.json["field"].clone()),
        (400, json!("to"))
    );
    assert_eq!(empty.status, 200, "{}", empty.json);
    assert_eq!(empty.json["ok"], true);
    assert_eq!(
        empty.json["checked"],
        json!({"receipts": 0, "refunds": 0, "charges": 0})
    );
    assert_eq!(empty.json["differences"], json!([]));
}

#[test]
fn the_reconcile_command_refuses_the_test_mode_chain_and_points_at_the_route() {
    let dir = tempfile::tempdir().unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_payments-server"));
    for (name, _) in std::env::vars().filter(|(name, _)| name.starts_with("PAYMENTS_")) {
        command.env_remove(name);
    }
    let output = command
        .current_dir(dir.path())
        .args([
            "reconcile",
            "--dev",
            "--db",
            "reconcile.db",
            "--from",
            "2026-01-01",
        ])
        .output()
        .unwrap();

    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("--chain-rpc-url") && stderr.contains("GET /api/admin/reconcile"),
        "{stderr}"
    );
    assert!(!dir.path().join("reconcile.db").exists(), "nothing was created");
}
