//! `payments split show`, `payments shop show`, `payments tax catalog`.

use payments_server::testing::spawn_app;
use serde_json::Value;

use crate::helpers::payments;

#[tokio::test(flavor = "multi_thread")]
async fn split_show_says_when_no_split_is_configured() {
    let app = spawn_app().await;

    let run = payments(&app, &["split", "show"]).await;

    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "split address  (not configured)\n\nRECIPIENT  SHARE BPS\n"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn split_show_as_json_has_a_null_address() {
    let app = spawn_app().await;

    let run = payments(&app, &["split", "show", "--json"]).await;

    assert_eq!(run.code, 0, "{run:?}");
    let split: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(split, serde_json::json!({"address": null, "recipients": []}));
}

#[tokio::test(flavor = "multi_thread")]
async fn shop_show_lists_the_settings() {
    let app = spawn_app().await;

    let run = payments(&app, &["shop", "show"]).await;

    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout
            .contains(&format!("wallet                {}\n", app.wallet)),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("platform fee %        0.5\n"),
        "{}",
        run.stdout
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn tax_catalog_lists_the_built_in_rates() {
    let app = spawn_app().await;

    let run = payments(&app, &["tax", "catalog"]).await;

    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.starts_with("CODE   NAME"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("US-CA  California            0.0725   catalog\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.ends_with("default jurisdiction  -\n"),
        "{}",
        run.stdout
    );
}
