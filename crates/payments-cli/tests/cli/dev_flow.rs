//! The development path from a fresh database: the welcome a development server prints at its first start
//! (the same text `payments-server` prints) is followed literally, and `payments orders create` works at
//! once with the printed key (no `split_required`), while `payments admin login` with the printed key file
//! names the merchant and says the configured key acts for it.

use std::process::Command;
use std::sync::Arc;

use payments_core::Wallet;
use payments_server::{App, DEV_PLATFORM_RECIPIENT, ServerConfig, SystemClock};
use reqwest::Url;
use serde_json::Value;

use crate::helpers::Run;

/// `payments ARGS` with exactly `env` among the PAYMENTS_* variables.
async fn payments(env: &[(&str, &str)], args: &[String]) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_payments"));
    for (name, _) in std::env::vars().filter(|(name, _)| name.starts_with("PAYMENTS_")) {
        command.env_remove(name);
    }
    command.args(args).envs(env.iter().copied());
    let output = tokio::task::spawn_blocking(move || command.output())
        .await
        .unwrap()
        .unwrap();
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
    }
}

/// The words of a printed `payments ...` line.
fn words(line: &str) -> Vec<String> {
    line.split_whitespace().skip(1).map(str::to_owned).collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn on_a_fresh_development_database_the_printed_commands_create_an_order_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = Url::parse(&format!("http://{}", listener.local_addr().unwrap())).unwrap();
    // As `payments-server` configures a development start.
    let mut config = ServerConfig::new(dir.path().join("payments.db").as_path(), base.clone());
    config.dev_mode = true;
    config.platform_recipient = Some(DEV_PLATFORM_RECIPIENT);
    let app = App::open(config, Arc::new(SystemClock)).await.unwrap();
    tokio::spawn(payments_server::serve(
        listener,
        app.clone(),
        std::future::pending(),
    ));

    let welcome = app.bootstrap_development().await.unwrap().unwrap();
    let printed = welcome.render(&base);
    let key = printed
        .lines()
        .map(str::trim)
        .find(|line| line.starts_with("sk_test_"))
        .unwrap_or_else(|| panic!("no key in {printed}"))
        .to_owned();
    let session = dir.path().join("state").join("admin-session.json");
    let url = base.as_str().trim_end_matches('/').to_owned();
    let env = [
        ("PAYMENTS_URL", url.as_str()),
        ("PAYMENTS_KEY", key.as_str()),
        ("PAYMENTS_ADMIN_SESSION", session.to_str().unwrap()),
    ];
    let commands: Vec<&str> = printed
        .lines()
        .map(str::trim)
        .filter(|line| line.starts_with("payments "))
        .collect();

    let mut runs = Vec::new();
    for command in &commands {
        let mut args = words(command);
        if command.starts_with("payments orders create") {
            args.push("--json".to_owned());
        }
        runs.push(payments(&env, &args).await);
    }

    assert!(printed.contains("export PAYMENTS_KEY="), "{printed}");
    assert_eq!(commands.len(), 3, "{printed}");
    for (command, run) in commands.iter().zip(&runs) {
        assert_eq!(run.code, 0, "{command}: {run:?}");
    }
    let receipt: Value = serde_json::from_str(&runs[1].stdout).unwrap();
    assert_eq!(receipt["status"], "generated");
    // 12.00 and the platform fee of 0.5% (the development shop adds none).
    assert_eq!(receipt["totalUsd"], 12.06);
    let login = &runs[2].stdout;
    assert!(
        login.starts_with(&format!("signed in as merchant {}\n", welcome.merchant)),
        "{login}"
    );
    assert!(login.contains("acts for this merchant"), "{login}");
    assert!(!login.contains(&key), "the key is never printed: {login}");
}

#[tokio::test(flavor = "multi_thread")]
async fn admin_me_says_when_the_configured_key_is_another_merchants_or_missing() {
    let dir = tempfile::tempdir().unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = Url::parse(&format!("http://{}", listener.local_addr().unwrap())).unwrap();
    let mut config = ServerConfig::new(dir.path().join("payments.db").as_path(), base.clone());
    config.dev_mode = true;
    config.platform_recipient = Some(DEV_PLATFORM_RECIPIENT);
    let app = App::open(config, Arc::new(SystemClock)).await.unwrap();
    tokio::spawn(payments_server::serve(
        listener,
        app.clone(),
        std::future::pending(),
    ));
    let welcome = app.bootstrap_development().await.unwrap().unwrap();
    let other_wallet = Wallet::parse("0x4444444444444444444444444444444444444444").unwrap();
    let other = app
        .key_admin()
        .create(other_wallet, payments_server::Scopes::all(), None)
        .await
        .unwrap();
    let session = dir.path().join("admin-session.json");
    let url = base.as_str().trim_end_matches('/').to_owned();
    let key_file = welcome.admin_key_file.to_str().unwrap().to_owned();
    let login_args: Vec<String> = ["admin", "login", "--private-key-file", &key_file]
        .map(str::to_owned)
        .to_vec();
    let me_args: Vec<String> = ["admin", "me", "--json"].map(str::to_owned).to_vec();
    let session_env = ("PAYMENTS_ADMIN_SESSION", session.to_str().unwrap());

    let login = payments(
        &[
            ("PAYMENTS_URL", &url),
            ("PAYMENTS_KEY", other.key.expose()),
            session_env,
        ],
        &login_args,
    )
    .await;
    let keyless = payments(&[("PAYMENTS_URL", &url), session_env], &me_args).await;

    assert_eq!(login.code, 0, "{login:?}");
    assert!(
        login
            .stdout
            .contains(&format!("acts for another merchant, {other_wallet}")),
        "{}",
        login.stdout
    );
    assert!(login.stdout.contains("note: admin commands"), "{}", login.stdout);
    let keyless: Value = serde_json::from_str(&keyless.stdout).unwrap();
    assert_eq!(keyless["wallet"], welcome.merchant.to_string());
    assert_eq!(keyless["subscriptionKey"]["configured"], false);
}
