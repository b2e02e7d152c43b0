//! `payments ping`, and usage errors: clap's exit 2.

use payments_server::testing::spawn_app;
use serde_json::Value;

use crate::helpers::{payments, payments_with_key};

#[tokio::test(flavor = "multi_thread")]
async fn ping_shows_the_merchant_scopes_and_server_time_as_an_iso_date() {
    let app = spawn_app().await;

    let run = payments(&app, &["ping"]).await;

    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout.contains(&format!("merchant      {}\n", app.wallet)),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains(&format!("subscription  {}\n", app.subscription_id)),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("inventory:write"), "{}", run.stdout);
    let server_time = run
        .stdout
        .lines()
        .find_map(|line| line.strip_prefix("server time   "))
        .unwrap_or_default();
    assert!(
        server_time.len() == 20 && server_time.contains('T') && server_time.ends_with('Z'),
        "server time {server_time:?} should be an ISO UTC time, not Unix ms"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn ping_with_json_and_flags_instead_of_the_environment() {
    let app = spawn_app().await;

    let run = payments_with_key(
        &app,
        None,
        &["ping", "--json", "--url", &app.base_url, "--key", &app.key],
    )
    .await;

    assert_eq!(run.code, 0, "{run:?}");
    let ping: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(ping["ok"], true);
    assert_eq!(ping["subscriptionId"], app.subscription_id.as_str());
}

#[tokio::test(flavor = "multi_thread")]
async fn json_is_accepted_before_or_after_the_command_name() {
    let app = spawn_app().await;

    let first = payments(&app, &["--json", "ping"]).await;
    let nested = payments(&app, &["--json", "receipts", "list"]).await;
    let middle = payments(&app, &["receipts", "--json", "list"]).await;
    let last = payments(&app, &["receipts", "list", "--json"]).await;

    assert_eq!(first.code, 0, "{first:?}");
    let ping: Value = serde_json::from_str(&first.stdout).unwrap();
    assert_eq!(ping["ok"], true);
    for run in [&nested, &middle, &last] {
        assert_eq!(run.code, 0, "{run:?}");
        let receipts: Value = serde_json::from_str(&run.stdout).unwrap();
        assert!(receipts.is_array(), "{}", run.stdout);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn usage_errors_exit_2() {
    let app = spawn_app().await;

    let bad_price = payments(
        &app,
        &[
            "inventory",
            "upsert",
            "--sku",
            "A",
            "--name",
            "A",
            "--price",
            "1.005",
            "--stock",
            "1",
        ],
    )
    .await;
    let bad_stock = payments(
        &app,
        &[
            "inventory",
            "upsert",
            "--sku",
            "A",
            "--name",
            "A",
            "--price",
            "1",
            "--stock",
            "lots",
        ],
    )
    .await;
    let unknown = payments(&app, &["inventory", "frobnicate"]).await;

    assert_eq!(bad_price.code, 2, "{bad_price:?}");
    assert_eq!(bad_stock.code, 2, "{bad_stock:?}");
    assert!(bad_stock.stderr.contains("unlimited"), "{}", bad_stock.stderr);
    assert_eq!(unknown.code, 2, "{unknown:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn completions_are_printed_for_bash_zsh_and_fish() {
    let app = spawn_app().await;

    let bash = payments(&app, &["completions", "bash"]).await;
    let zsh = payments(&app, &["completions", "zsh"]).await;
    let fish = payments(&app, &["completions", "fish"]).await;
    let unknown = payments(&app, &["completions", "tcsh"]).await;

    assert_eq!((bash.code, zsh.code, fish.code), (0, 0, 0));
    assert!(bash.stdout.contains("complete -F _payments"), "{}", bash.stdout);
    assert!(zsh.stdout.starts_with("#compdef payments"), "{}", zsh.stdout);
    assert!(fish.stdout.contains("complete -c payments"), "{}", fish.stdout);
    for script in [&bash.stdout, &zsh.stdout, &fish.stdout] {
        assert!(script.contains("receipts"), "{script}");
    }
    assert_eq!(unknown.code, 2, "{unknown:?}");
}
