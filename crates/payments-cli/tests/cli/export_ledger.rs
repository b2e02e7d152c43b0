//! `payments export ledger`: the ledger streamed to stdout as CSV or to a file as JSON, through the typed
//! client's `export_ledger`; a bad bound keeps the service's `invalid_input` (exit 1).

use payments_client::{AdminRole, AdminSession, DeploySplit, LedgerRange};
use payments_server::testing::spawn_app;
use serde_json::Value;

use crate::helpers::{client_with_key, payments, payments_with_key};

#[tokio::test(flavor = "multi_thread")]
async fn the_ledger_of_a_paid_and_settled_receipt_is_exported_as_csv_and_as_json() {
    let app = spawn_app().await;
    let (admin, key) = app.merchant_admin().await;
    let token = admin.cookie.strip_prefix("cb_auth_token=").unwrap();
    let session =
        AdminSession::from_tokens(admin.wallet, vec![AdminRole::Merchant], token, &admin.csrf_token).unwrap();
    let client = client_with_key(&app, &key.key);
    client
        .deploy_split(&session, &DeploySplit::default())
        .await
        .unwrap();
    let create = ["receipts", "create", "--id", "led-1", "--line", "Coffee:3.50"];
    assert_eq!(payments_with_key(&app, Some(&key.key), &create).await.code, 0);
    let paid = payments_with_key(&app, Some(&key.key), &["receipts", "simulate-payment", "led-1"]).await;
    assert_eq!(paid.code, 0, "{paid:?}");
    let entries = client.ledger_entries(&LedgerRange::all()).await.unwrap();
    assert_eq!(entries[0].movement, "payment");
    assert_eq!(entries[0].base_units, "3500000");

    let csv = payments_with_key(&app, Some(&key.key), &["export", "ledger"]).await;

    assert_eq!(csv.code, 0, "{csv:?}");
    let rows: Vec<&str> = csv.stdout.lines().collect();
    assert!(rows[0].starts_with("id,time,movement,"), "{}", csv.stdout);
    assert_eq!(rows.len(), entries.len() + 1, "{}", csv.stdout);
    assert!(rows[1].contains(",payment,led-1,"), "{}", rows[1]);

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ledger.json");
    let file_arg = file.to_str().unwrap();
    let json = payments_with_key(
        &app,
        Some(&key.key),
        &["export", "ledger", "--format", "json", "-o", file_arg],
    )
    .await;
    assert_eq!(json.code, 0, "{json:?}");
    assert!(json.stderr.contains("bytes to"), "{json:?}");
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(written["entries"].as_array().unwrap().len(), entries.len());
    assert_eq!(written["entries"][0]["receiptId"], "led-1");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_bad_bound_is_the_services_invalid_input() {
    let app = spawn_app().await;

    let run = payments(&app, &["export", "ledger", "--from", "last week", "--json"]).await;

    assert_eq!(run.code, 1, "{run:?}");
    let error: Value = serde_json::from_str(&run.stderr).unwrap();
    assert_eq!(error["error"], "invalid_input");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("from must be a UTC date"),
        "{error}"
    );
}
