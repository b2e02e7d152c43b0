//! Test and live never mixed: a production server without a real chain starts only when told `--test-mode`
//! (and then names only the test chain), and each server takes only the keys of its own mode.

use std::path::Path;
use std::process::{Command, Output};

use payments_server::testing::{TestNode, TestOptions};
use reqwest::Method;

use crate::helpers::{Api, send};

const MASTER_KEY: &str = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
const JWT_SECRET: &str = "0123456789abcdef0123456789abcdef-test";

/// `payments-server config check --dev=false ARGS` with production secrets and no other PAYMENTS_* variable.
fn production_check(dir: &Path, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_payments-server"));
    for (name, _) in std::env::vars().filter(|(name, _)| name.starts_with("PAYMENTS_")) {
        command.env_remove(name);
    }
    command
        .current_dir(dir)
        .args(["config", "check", "--dev=false"])
        .args(args)
        .env("PAYMENTS_JWT_SECRET", JWT_SECRET)
        .env("PAYMENTS_MASTER_KEY", MASTER_KEY)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn production_without_a_chain_rpc_url_refuses_to_start_unless_test_mode_is_explicit() {
    let dir = tempfile::tempdir().unwrap();

    let implicit = production_check(dir.path(), &[]);
    let explicit = production_check(dir.path(), &["--test-mode", "--chain-id", "8453"]);

    assert_eq!(implicit.status.code(), Some(1));
    assert!(
        text(&implicit.stderr).contains(
            "error: production mode needs a real chain: give --chain-rpc-url (PAYMENTS_CHAIN_RPC_URL) and \
             --chain-contracts; to run production on the in-process test-mode chain (simulated payments, \
             sk_test_ keys, test chain 31337) say --test-mode"
        ),
        "{}",
        text(&implicit.stderr)
    );
    assert_eq!(explicit.status.code(), Some(0), "{}", text(&explicit.stderr));
    let settings = text(&explicit.stdout);
    assert!(settings.contains("chain: test mode"), "{settings}");
}

#[test]
fn test_mode_with_the_contracts_of_a_real_chain_refuses_to_start() {
    let dir = tempfile::tempdir().unwrap();
    let contracts = dir.path().join("base.json");
    std::fs::write(
        &contracts,
        r#"{"chainId": 8453, "token": "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913",
            "splitFactory": "0x1111111111111111111111111111111111111111",
            "depositFactory": "0x2222222222222222222222222222222222222222"}"#,
    )
    .unwrap();

    let output = production_check(
        dir.path(),
        &["--test-mode", "--chain-contracts", contracts.to_str().unwrap()],
    );

    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr)
            .contains("the test-mode chain is the test chain 31337: --chain-contracts names chain 8453"),
        "{}",
        text(&output.stderr)
    );
}

#[tokio::test]
async fn a_test_key_on_a_server_on_a_real_chain_is_401_saying_it_is_a_test_key() {
    // A node nobody answers on: the server is live (it has an RPC URL); no request here reaches the chain.
    let api = Api::spawn_with(TestOptions {
        node: Some(TestNode {
            rpc_url: "http://127.0.0.1:9".to_owned(),
            contracts: payments_server::ChainContracts::DEVELOPMENT,
            relayer_key: format!("0x{}", "11".repeat(32)),
        }),
        ..TestOptions::default()
    })
    .await;
    let test_key = format!("sk_test_{}", "A".repeat(43));

    let live = send(api.dev(Method::GET, "/api/inventory")).await;
    let refused = send(api.dev_as(&test_key, Method::GET, "/api/inventory")).await;

    assert!(api.app.key.starts_with("sk_live_"), "{}", api.app.key);
    assert_eq!(live.status, 200, "{}", live.json);
    assert_eq!(
        (
            refused.status,
            refused.json["error"].as_str(),
            refused.json["message"].as_str()
        ),
        (
            401,
            Some("unauthorized"),
            Some(
                "this is a test key (sk_test_, for a server on the test-mode chain); this server takes only sk_live_ keys"
            )
        )
    );
}
