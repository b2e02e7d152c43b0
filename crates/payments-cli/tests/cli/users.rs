//! `payments users search|live|show`, `payments graphql`, `payments billing balance`.

use k256::ecdsa::SigningKey;
use payments_client::{Heartbeat, ProfileUpdate};
use payments_server::testing::{TEST_START_MS, TestApp, spawn_app};
use serde_json::{Value, json};

use crate::helpers::{client, payments, payments_with_key};

/// Signs in wallet `n` through the client and saves a profile named `name`, live when `live`.
async fn user(app: &TestApp, n: u8, name: &str, live: bool) -> String {
    let client = client(app);
    let key = SigningKey::from_slice(&[n; 32]).unwrap();
    let session = client
        .sign_in_with_key_at(&key, u64::try_from(TEST_START_MS / 1000).unwrap())
        .await
        .unwrap();
    let profile = ProfileUpdate::new(name).languages(vec!["en".to_owned()]);
    client.save_profile(&session, &profile).await.unwrap();
    client
        .heartbeat(&session, &Heartbeat::new(live, true))
        .await
        .unwrap();
    session.wallet().to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn users_search_prints_a_table_with_the_total() {
    let app = spawn_app().await;
    let ada = user(&app, 0x21, "Ada", true).await;
    user(&app, 0x22, "Bob", false).await;

    let run = payments(&app, &["users", "search", "--languages", "en", "--limit", "1"]).await;

    assert_eq!(run.code, 0, "{run:?}");
    let mut lines = run.stdout.lines();
    assert!(lines.next().unwrap().starts_with("WALLET"), "{}", run.stdout);
    assert!(run.stdout.contains("1 of 2 matching"), "{}", run.stdout);
    let first_row = lines.next().unwrap();
    assert!(
        first_row.contains(&ada) || first_row.contains("Bob"),
        "{}",
        run.stdout
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn users_live_and_show_print_json_on_request() {
    let app = spawn_app().await;
    let ada = user(&app, 0x21, "Ada", true).await;
    user(&app, 0x22, "Bob", false).await;

    let live = payments(&app, &["users", "live", "--json"]).await;
    let show = payments(&app, &["users", "show", &ada]).await;

    assert_eq!(live.code, 0, "{live:?}");
    let live: Value = serde_json::from_str(&live.stdout).unwrap();
    let wallets: Vec<&str> = live["live"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["wallet"].as_str().unwrap())
        .collect();
    assert_eq!(wallets, [ada.as_str()]);
    assert_eq!(show.code, 0, "{show:?}");
    assert!(show.stdout.contains("display name    Ada\n"), "{}", show.stdout);
    assert!(show.stdout.contains("live            yes\n"), "{}", show.stdout);
}

#[tokio::test(flavor = "multi_thread")]
async fn users_show_of_an_unknown_wallet_fails_with_not_found() {
    let app = spawn_app().await;

    let run = payments(
        &app,
        &["users", "show", "0x9999999999999999999999999999999999999999"],
    )
    .await;

    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stderr.contains("not_found"), "{}", run.stderr);
}

#[tokio::test(flavor = "multi_thread")]
async fn graphql_prints_the_answer_and_exits_1_on_graphql_errors() {
    let app = spawn_app().await;
    let ada = user(&app, 0x21, "Ada", false).await;

    let ok = payments(
        &app,
        &[
            "graphql",
            "query($w: String!) { user(wallet: $w) { displayName } }",
            "--variables",
            &json!({"w": ada}).to_string(),
        ],
    )
    .await;
    let mutation = payments(&app, &["graphql", "mutation { x }"]).await;

    assert_eq!(ok.code, 0, "{ok:?}");
    let answer: Value = serde_json::from_str(&ok.stdout).unwrap();
    assert_eq!(answer, json!({"data": {"user": {"displayName": "Ada"}}}));
    assert_eq!(mutation.code, 1, "{mutation:?}");
    let refused: Value = serde_json::from_str(&mutation.stdout).unwrap();
    assert!(
        refused["errors"]
            .as_array()
            .is_some_and(|errors| !errors.is_empty())
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn billing_balance_prints_the_fees_and_a_key_without_scope_is_refused() {
    let app = spawn_app().await;
    let narrow = app.create_key(app.wallet, "users:read").await;

    let run = payments(&app, &["billing", "balance"]).await;
    let refused = payments_with_key(&app, Some(&narrow.key), &["billing", "balance"]).await;

    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.contains("platform share  50 bps"), "{}", run.stdout);
    assert!(run.stdout.contains("total"), "{}", run.stdout);
    assert_eq!(refused.code, 1, "{refused:?}");
    assert!(refused.stderr.contains("forbidden"), "{}", refused.stderr);
}
