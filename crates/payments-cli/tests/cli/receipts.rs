//! `payments receipts ...` and `payments orders create` against a spawned server.

use payments_server::testing::spawn_app;
use serde_json::Value;

use crate::helpers::payments;

#[tokio::test(flavor = "multi_thread")]
async fn receipts_create_list_show_status_and_webhooks() {
    let app = spawn_app().await;

    let created = payments(
        &app,
        &[
            "receipts",
            "create",
            "--id",
            "c-1",
            "--line",
            "Coffee:3.50",
            "--line",
            "Cake:4.25",
        ],
    )
    .await;
    let listed = payments(&app, &["receipts", "list"]).await;
    let shown = payments(&app, &["receipts", "show", "c-1"]).await;
    let status = payments(&app, &["receipts", "status", "c-1", "--json"]).await;
    let webhooks = payments(&app, &["receipts", "webhooks", "c-1"]).await;

    assert_eq!(created.code, 0, "{created:?}");
    assert!(created.stdout.contains("/portal/c-1"), "{}", created.stdout);
    assert!(listed.stdout.contains("c-1"), "{}", listed.stdout);
    assert!(listed.stdout.contains("7.75"), "{}", listed.stdout);
    assert!(shown.stdout.contains("Coffee"), "{}", shown.stdout);
    assert!(shown.stdout.contains("Total"), "{}", shown.stdout);
    let status: Value = serde_json::from_str(&status.stdout).unwrap();
    assert_eq!(status["status"], "pending");
    assert_eq!(status["amount"], 7.75);
    assert_eq!(webhooks.code, 0, "{webhooks:?}");
    assert!(webhooks.stdout.contains("DELIVERY"), "{}", webhooks.stdout);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_bad_line_or_item_is_a_usage_failure_and_an_order_without_split_is_refused() {
    let app = spawn_app().await;

    let bad_line = payments(&app, &["receipts", "create", "--id", "c-2", "--line", "no-price"]).await;
    let order = payments(&app, &["orders", "create", "--item", "MUG-1:1"]).await;

    assert_eq!(bad_line.code, 1, "{bad_line:?}");
    assert!(bad_line.stderr.contains("LABEL:PRICE"), "{}", bad_line.stderr);
    assert_eq!(order.code, 1, "{order:?}");
    assert!(order.stderr.contains("split"), "{}", order.stderr);
}
