//! `payments receipts ...` and `payments orders create` against a spawned server.

use payments_client::{AdminRole, AdminSession, DeploySplit, PostStatus, UpsertInventoryItem};
use payments_core::{Cents, ReceiptStatus};
use payments_server::testing::{eventually, spawn_app};
use serde_json::Value;

use crate::helpers::{client_with_key, forward_target, payments, payments_with_key};

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

    assert_eq!(bad_line.code, 2, "{bad_line:?}");
    assert!(bad_line.stderr.contains("LABEL:PRICE"), "{}", bad_line.stderr);
    assert_eq!(order.code, 1, "{order:?}");
    assert!(order.stderr.contains("split"), "{}", order.stderr);
}

#[tokio::test(flavor = "multi_thread")]
async fn orders_create_prints_the_priced_receipt_once_the_merchant_has_a_split() {
    let app = spawn_app().await;
    // Signed in by the harness; the split is configured through the library client's admin route.
    let (admin, key) = app.merchant_admin().await;
    let client = client_with_key(&app, &key.key);
    let token = admin.cookie.strip_prefix("cb_auth_token=").unwrap();
    let session =
        AdminSession::from_tokens(admin.wallet, vec![AdminRole::Merchant], token, &admin.csrf_token).unwrap();
    client
        .deploy_split(&session, &DeploySplit::default())
        .await
        .unwrap();
    let mug = UpsertInventoryItem::new("MUG-1", "Blue mug", Cents::new(2000), -1).taxable(true);
    client.upsert_inventory_item(&mug).await.unwrap();
    let order = ["orders", "create", "--item", "MUG-1:2", "--tax-rate", "0.1"];

    let table = payments_with_key(&app, Some(&key.key), &order).await;
    let json = payments_with_key(&app, Some(&key.key), &[&order[..], &["--json"]].concat()).await;

    assert_eq!(table.code, 0, "{table:?}");
    let split = client.split().await.unwrap().address.unwrap();
    let id = table
        .stdout
        .strip_prefix("receipt ")
        .and_then(|rest| rest.split_once(' '))
        .map(|(id, _)| id.to_owned())
        .unwrap_or_else(|| panic!("no receipt id in {:?}", table.stdout));
    assert!(id.starts_with("rcpt_"), "{id}");
    // The link names the receipt's own deposit address (derived from its id), not the split itself.
    let link = client.get_receipt(&id).await.unwrap().payment_url.unwrap();
    assert!(!link.contains(&format!("recipient={split}")), "{link}");
    let deposit = link
        .split_once("recipient=")
        .and_then(|(_, rest)| rest.split('&').next())
        .unwrap_or_default()
        .to_owned();
    let expected = format!(
        "receipt {id} (generated)\n\
         LINE            QTY  PRICE\n\
         Blue mug        2    40.00\n\
         Tax                  4.00\n\
         Processing Fee       0.22\n\
         Total                44.22\n\
         payment url: {link}\n\
         pay: 44220000 base units of token 0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0 to {deposit} on chain 31337\n"
    );
    assert!(
        link.starts_with(&format!("{}/portal/{id}?recipient=0x", app.base_url)),
        "{link}"
    );
    assert!(link.ends_with(&format!("&merchant={}", key.wallet)), "{link}");
    assert_eq!(table.stdout, expected);
    assert_eq!(json.code, 0, "{json:?}");
    let receipt: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(receipt["status"], "generated");
    assert_ne!(receipt["receiptId"], id.as_str());
    let labels: Vec<&str> = receipt["lineItems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|line| line["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["Blue mug", "Tax", "Processing Fee"]);
    assert_eq!(receipt["lineItems"][0]["qty"], 2);
    assert_eq!(receipt["lineItems"][0]["sku"], "MUG-1");
    assert_eq!(receipt["subtotalUsd"], 40);
    assert_eq!(receipt["taxUsd"], 4);
    assert_eq!(receipt["feeUsd"], 0.22);
    assert_eq!(receipt["totalUsd"], 44.22);
    assert_eq!(receipt["taxRate"], 0.1);
    let json_id = receipt["receiptId"].as_str().unwrap();
    let served = client.get_receipt(json_id).await.unwrap().payment_url.unwrap();
    assert_eq!(receipt["paymentUrl"].as_str(), Some(served.as_str()));
    assert_eq!(client.list_receipts(None).await.unwrap().len(), 2);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_order_with_a_webhook_url_is_pushed_there_and_redeliver_sends_the_delivery_again() {
    let app = spawn_app().await;
    let (admin, key) = app.merchant_admin().await;
    let client = client_with_key(&app, &key.key);
    let token = admin.cookie.strip_prefix("cb_auth_token=").unwrap();
    let session =
        AdminSession::from_tokens(admin.wallet, vec![AdminRole::Merchant], token, &admin.csrf_token).unwrap();
    client
        .deploy_split(&session, &DeploySplit::default())
        .await
        .unwrap();
    client
        .upsert_inventory_item(&UpsertInventoryItem::new("TEA-1", "Tea", Cents::new(300), -1))
        .await
        .unwrap();
    let (target, received) = forward_target(200).await;
    let wait = std::time::Duration::from_secs(20);

    let ordered = payments_with_key(
        &app,
        Some(&key.key),
        &[
            "orders",
            "create",
            "--item",
            "TEA-1:1",
            "--webhook-url",
            &target,
            "--json",
        ],
    )
    .await;
    let receipt: Value = serde_json::from_str(&ordered.stdout).unwrap();
    let id = receipt["receiptId"].as_str().unwrap().to_owned();
    client
        .post_receipt_status(&PostStatus::new(&id, key.wallet, ReceiptStatus::LinkOpened))
        .await
        .unwrap();
    let first = tokio::task::block_in_place(|| received.recv_timeout(wait)).unwrap();
    let delivery_id = eventually("the first attempt to be logged", wait, || {
        let client = &client;
        let id = &id;
        async move {
            let deliveries = client.receipt_webhooks(id).await.ok()?;
            let delivery = deliveries.first()?;
            (!delivery.attempts.is_empty()).then(|| delivery.delivery_id.clone())
        }
    })
    .await;
    let redelivered = payments_with_key(
        &app,
        Some(&key.key),
        &["receipts", "redeliver", &id, &delivery_id],
    )
    .await;
    let unknown = payments_with_key(
        &app,
        Some(&key.key),
        &["receipts", "redeliver", &id, "no-such-delivery", "--json"],
    )
    .await;
    let second = tokio::task::block_in_place(|| received.recv_timeout(wait)).unwrap();

    assert_eq!(ordered.code, 0, "{ordered:?}");
    assert_eq!(receipt["webhookUrl"].as_str(), Some(target.as_str()));
    assert_eq!(redelivered.code, 0, "{redelivered:?}");
    assert!(
        redelivered.stdout.contains("queued again"),
        "{}",
        redelivered.stdout
    );
    assert_eq!(first.body, second.body, "the same body again");
    assert_eq!(
        first.headers.get("x-service-delivery"),
        second.headers.get("x-service-delivery")
    );
    assert_eq!(unknown.code, 1, "{unknown:?}");
    let error: Value = serde_json::from_str(unknown.stderr.trim()).unwrap();
    assert_eq!(error["error"], "not_found");
}

#[tokio::test(flavor = "multi_thread")]
async fn receipts_list_pages_by_cursor_and_all_walks_every_page() {
    let app = spawn_app().await;
    for n in 1..=5 {
        let id = format!("p-{n}");
        let created = payments(&app, &["receipts", "create", "--id", &id, "--line", "Tea:3.00"]).await;
        assert_eq!(created.code, 0, "{created:?}");
        app.clock.advance(std::time::Duration::from_millis(1));
    }

    let first = payments(&app, &["receipts", "list", "--limit", "2"]).await;
    let cursor = first
        .stdout
        .lines()
        .find_map(|line| line.strip_prefix("more: --cursor "))
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no cursor in {:?}", first.stdout))
        .to_owned();
    let second = payments(&app, &["receipts", "list", "--limit", "2", "--cursor", &cursor]).await;
    let all = payments(&app, &["receipts", "list", "--limit", "2", "--all", "--json"]).await;
    let bad = payments(&app, &["receipts", "list", "--cursor", "forged"]).await;

    assert!(
        first.stdout.contains("p-5") && first.stdout.contains("p-4"),
        "{}",
        first.stdout
    );
    assert!(!first.stdout.contains("p-3"), "{}", first.stdout);
    assert!(
        second.stdout.contains("p-3") && second.stdout.contains("p-2"),
        "{}",
        second.stdout
    );
    assert!(!second.stdout.contains("p-5"), "{}", second.stdout);
    let ids: Vec<String> = serde_json::from_str::<Vec<Value>>(&all.stdout)
        .unwrap()
        .iter()
        .map(|receipt| receipt["receiptId"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(ids, ["p-5", "p-4", "p-3", "p-2", "p-1"]);
    assert_eq!(bad.code, 1, "{bad:?}");
    assert!(bad.stderr.contains("invalid_input"), "{}", bad.stderr);
}
