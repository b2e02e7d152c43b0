//! `payments ping`, and how failures are reported: `error: <code>: <message>`, exit 1; usage errors exit 2.

use payments_server::testing::spawn_app;
use serde_json::Value;

use crate::helpers::{payments, payments_with_key};

#[tokio::test(flavor = "multi_thread")]
async fn ping_shows_the_merchant_and_scopes_of_the_key() {
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
async fn a_missing_key_prints_the_service_error_code_and_exits_1() {
    let app = spawn_app().await;

    let run = payments_with_key(&app, None, &["inventory", "list"]).await;

    assert_eq!(run.code, 1);
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr,
        "error: unauthorized: missing or invalid subscription key\n"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn deleting_an_unknown_product_is_not_found() {
    let app = spawn_app().await;

    let run = payments(&app, &["inventory", "delete", "prod_missing"]).await;

    assert_eq!(run.code, 1);
    assert!(run.stderr.starts_with("error: not_found: "), "{}", run.stderr);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_unreachable_service_is_a_transport_error() {
    let app = spawn_app().await;
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}", listener.local_addr().unwrap())
    };

    let run = payments(&app, &["ping", "--url", &closed]).await;

    assert_eq!(run.code, 1);
    assert!(
        run.stderr.starts_with("error: transport_error: "),
        "{}",
        run.stderr
    );
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
        ],
    )
    .await;
    let unknown = payments(&app, &["inventory", "frobnicate"]).await;

    assert_eq!(bad_price.code, 2, "{bad_price:?}");
    assert_eq!(unknown.code, 2, "{unknown:?}");
}
