//! `GET /api/exports/ledger`: every money movement of the merchant as balanced entries, checked against the
//! test-mode chain itself: each deposit account returns to zero once settled, and what the ledger books to
//! the platform and the merchant is what their wallets hold.

use std::collections::HashMap;
use std::time::Duration;

use payments_core::Wallet;
use payments_server::testing::{TestKey, eventually};
use reqwest::Method;
use serde_json::{Value, json};

use crate::chain_payments::wait_for_status;
use crate::helpers::{Api, send};
use crate::orders::merchant_with_split;
use crate::subscription_helpers::{
    CUSTOMER_KEY, FEE_UNITS, NET_UNITS, PLATFORM_RECIPIENT, PRICE_UNITS, create, create_body, customer,
    run_batch, weekly_permission, weekly_plan,
};

async fn export(api: &Api, key: &str, query: &str) -> (u16, String, String) {
    let response = api
        .dev_as(key, Method::GET, &format!("/api/exports/ledger{query}"))
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    (status, content_type, response.text().await.unwrap())
}

async fn entries(api: &Api, key: &str) -> Vec<Value> {
    let (status, _, body) = export(api, key, "?format=json").await;
    assert_eq!(status, 200, "{body}");
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(body["success"], true);
    body["entries"].as_array().unwrap().clone()
}

fn units(entry: &Value) -> i128 {
    entry["baseUnits"].as_str().unwrap().parse().unwrap()
}

/// Each account's balance: what it was debited (received) less what it was credited (gave).
fn balances(entries: &[Value]) -> HashMap<String, i128> {
    let mut balances = HashMap::new();
    for entry in entries {
        *balances
            .entry(entry["debitAccount"].as_str().unwrap().to_owned())
            .or_default() += units(entry);
        *balances
            .entry(entry["creditAccount"].as_str().unwrap().to_owned())
            .or_default() -= units(entry);
    }
    balances
}

async fn paid_receipt(api: &Api, key: &TestKey, id: &str, usd: f64) -> (Wallet, u128) {
    let body = json!({"id": id, "lineItems": [{"label": "Tea", "priceUsd": usd}], "totalUsd": usd});
    let created = send(api.dev_as(&key.key, Method::POST, "/api/receipts").json(&body)).await;
    assert_eq!(created.status, 201, "{}", created.json);
    let read = send(api.dev_as(&key.key, Method::GET, &format!("/api/receipts/{id}"))).await;
    let payment = &read.json["payment"];
    let deposit = Wallet::parse(payment["to"].as_str().unwrap()).unwrap();
    (deposit, payment["amount"].as_str().unwrap().parse().unwrap())
}

#[tokio::test]
async fn the_ledger_books_payments_an_overpayment_and_each_split_payout_as_the_chain_moved_them() {
    let api = Api::spawn().await;
    let merchant = merchant_with_split(&api).await;
    let chain = api.app.chain();
    let (first_deposit, first_amount) = paid_receipt(&api, &merchant.key, "tea-1", 12.37).await;
    let (second_deposit, second_amount) = paid_receipt(&api, &merchant.key, "tea-2", 4.0).await;

    chain.pay(first_deposit, 5_000_000).await;
    chain
        .pay(first_deposit, first_amount - 5_000_000 + 1_000_000)
        .await;
    chain.pay(second_deposit, second_amount).await;
    wait_for_status(&api, &merchant.key, "tea-1", "completed").await;
    wait_for_status(&api, &merchant.key, "tea-2", "completed").await;

    let entries = entries(&api, &merchant.key.key).await;
    let of = |receipt: &str, movement: &str| -> Vec<i128> {
        entries
            .iter()
            .filter(|entry| entry["receiptId"] == receipt && entry["movement"] == movement)
            .map(units)
            .collect()
    };
    let first = i128::try_from(first_amount).unwrap();
    assert_eq!(of("tea-1", "payment"), [5_000_000, first - 5_000_000]);
    assert_eq!(of("tea-1", "overpayment"), [1_000_000]);
    assert_eq!(
        of("tea-1", "split_share").iter().sum::<i128>() + of("tea-1", "platform_fee").iter().sum::<i128>(),
        first + 1_000_000,
        "the whole deposit, overpayment included, is paid out"
    );
    assert!(
        entries
            .iter()
            .all(|entry| entry["transactionHash"].is_string() || entry["movement"] != "payment")
    );
    let balances = balances(&entries);
    assert_eq!(balances["deposit:tea-1"], 0, "{balances:#?}");
    assert_eq!(balances["deposit:tea-2"], 0, "{balances:#?}");
    let platform = Wallet::parse(PLATFORM_RECIPIENT).unwrap();
    assert_eq!(
        balances[&format!("platform:{platform}")],
        i128::try_from(chain.balance(platform).await).unwrap(),
        "the platform's fees are what its wallet received"
    );
    assert_eq!(
        balances[&format!("recipient:{}", merchant.admin.wallet)],
        i128::try_from(chain.balance(merchant.admin.wallet).await).unwrap(),
        "the merchant's shares are what its wallet received"
    );
    assert_eq!(balances.values().sum::<i128>(), 0, "debits and credits balance");

    let (status, content_type, csv) = export(&api, &merchant.key.key, "?format=csv").await;
    assert_eq!(status, 200);
    assert_eq!(content_type, "text/csv; charset=utf-8");
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "id,time,movement,receiptId,subscriptionId,transactionHash,blockNumber,debitAccount,creditAccount,baseUnits,usd"
    );
    assert_eq!(lines.len(), entries.len() + 1, "one row per entry");
    let csv_total: i128 = lines[1..]
        .iter()
        .map(|line| line.split(',').nth(9).unwrap().parse::<i128>().unwrap())
        .sum();
    assert_eq!(csv_total, entries.iter().map(units).sum::<i128>());
}

#[tokio::test]
async fn a_subscription_charge_is_booked_to_the_merchant_and_the_platform_from_the_customer() {
    let api = Api::spawn().await;
    let plan = weekly_plan(&api).await;
    let funded = send(
        api.dev(Method::POST, "/api/test/fund")
            .json(&json!({ "wallet": customer().to_string(), "usd": 50 })),
    )
    .await;
    assert_eq!(funded.status, 200, "{}", funded.json);
    let created = create(
        &api,
        &create_body(&api, &plan, CUSTOMER_KEY, &weekly_permission(&api, customer(), 1)),
    )
    .await;
    assert_eq!(created.status, 201, "{}", created.json);
    let report = run_batch(&api).await;
    assert_eq!(report["succeeded"], 1, "{report}");

    let key = api.app.key.clone();
    let entries = eventually("the charge in the ledger", Duration::from_secs(5), || async {
        let entries = entries(&api, &key).await;
        (!entries.is_empty()).then_some(entries)
    })
    .await;

    let moved: Vec<(&str, i128)> = entries
        .iter()
        .map(|entry| (entry["movement"].as_str().unwrap(), units(entry)))
        .collect();
    assert_eq!(
        moved,
        [
            ("subscription_charge", i128::try_from(NET_UNITS).unwrap()),
            ("platform_fee", i128::try_from(FEE_UNITS).unwrap())
        ]
    );
    assert!(
        entries
            .iter()
            .all(|entry| entry["subscriptionId"].is_string() && entry["transactionHash"].is_string())
    );
    let balances = balances(&entries);
    assert_eq!(
        balances[&format!("customer:{}", customer())],
        -i128::try_from(PRICE_UNITS).unwrap()
    );
    assert_eq!(entries[1]["usd"], "0.04995", "exact, not rounded to the cent");
}

#[tokio::test]
async fn bad_ranges_formats_and_a_datastore_outage_are_refused_and_other_merchants_see_nothing() {
    let api = Api::spawn().await;
    let merchant = merchant_with_split(&api).await;
    let (deposit, amount) = paid_receipt(&api, &merchant.key, "tea-1", 2.5).await;
    api.app.chain().pay(deposit, amount).await;
    wait_for_status(&api, &merchant.key, "tea-1", "completed").await;
    let key = &merchant.key.key;

    for (query, field) in [
        ("?from=yesterday", "from"),
        ("?to=2026-02-30", "to"),
        ("?from=2026-03-01&to=2026-03-01", "to"),
        ("?format=xml", "format"),
    ] {
        let (status, _, body) = export(&api, key, query).await;
        assert_eq!(status, 400, "{query}: {body}");
        let body: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(body["error"], "invalid_input", "{query}");
        assert_eq!(body["field"], field, "{query}");
    }
    let anonymous = send(api.anonymous(Method::GET, "/api/exports/ledger")).await;
    assert_eq!(anonymous.status, 401);
    let inventory_only = api.app.create_key(merchant.admin.wallet, "inventory:read").await;
    let (status, _, body) = export(&api, &inventory_only.key, "").await;
    assert_eq!(status, 403, "receipts:read is needed: {body}");

    assert!(!entries(&api, key).await.is_empty());
    let (status, _, future) = export(&api, key, "?from=2999-01-01").await;
    assert_eq!(status, 200);
    assert_eq!(
        serde_json::from_str::<Value>(&future).unwrap()["entries"],
        json!([])
    );
    let other = api.app.key.clone();
    assert_eq!(
        entries(&api, &other).await,
        Vec::<Value>::new(),
        "another merchant's key sees none of it"
    );

    api.app.set_datastore_available(false);
    let (status, _, body) = export(&api, key, "?format=csv").await;
    assert_eq!(status, 503, "{body}");
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        body["error"], "datastore_unavailable",
        "an error before the first page is an envelope, not a broken CSV"
    );
}
