//! POST /api/receipts and the receipt reads.

use payments_server::testing::test_wallet;
use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{Api, Reply, send};

pub(crate) fn receipt_body(id: &str) -> Value {
    json!({
        "id": id,
        "lineItems": [{"label": "Coffee", "priceUsd": 3.5}, {"label": "Cake", "priceUsd": 4.25}],
        "totalUsd": 7.75,
    })
}

pub(crate) async fn create_receipt(api: &Api, body: Value) -> Reply {
    send(api.dev(Method::POST, "/api/receipts").json(&body)).await
}

#[tokio::test]
async fn creating_a_receipt_answers_201_with_its_payment_link() {
    let api = Api::spawn().await;
    let mut body = receipt_body("order-1");
    body["redirect_url"] = json!("https://shop.example.com/done?x=1");
    body["webhook_url"] = json!("https://shop.example.com/hooks");

    let reply = create_receipt(&api, body).await;

    assert_eq!(reply.status, 201, "{}", reply.json);
    let payment_url = format!(
        "{}/portal/order-1?recipient=0x1111111111111111111111111111111111111111\
         &merchant=0x1111111111111111111111111111111111111111\
         &redirect_url=https%3A%2F%2Fshop.example.com%2Fdone%3Fx%3D1",
        api.app.base_url
    );
    assert_eq!(
        reply.json,
        json!({"id": "order-1", "paymentUrl": payment_url, "status": "pending",
               "redirectUrl": "https://shop.example.com/done?x=1", "webhookUrl": "https://shop.example.com/hooks"})
    );
}

#[tokio::test]
async fn a_created_receipt_reads_back_with_every_spec_field() {
    let api = Api::spawn().await;
    let mut body = receipt_body("order-2");
    body["transactionId"] = json!("ref-9");
    body["metadata"] = json!({"cart": 42});
    body["firstName"] = json!("Ada");
    body["country"] = json!("us");
    body["billing_email"] = json!("ada@example.com");
    assert_eq!(create_receipt(&api, body).await.status, 201);

    let reply = send(api.dev(Method::GET, "/api/receipts/order-2")).await;

    assert_eq!(reply.status, 200, "{}", reply.json);
    let receipt = &reply.json;
    assert_eq!(receipt["receiptId"], "order-2");
    assert_eq!(receipt["totalUsd"], json!(7.75));
    assert_eq!(receipt["currency"], "USD");
    assert_eq!(
        receipt["lineItems"],
        json!([{"label": "Coffee", "priceUsd": 3.5}, {"label": "Cake", "priceUsd": 4.25}])
    );
    assert_eq!(receipt["createdAt"], json!(1_700_000_000_000_i64));
    assert_eq!(receipt["status"], "pending");
    assert_eq!(receipt["taxRate"], json!(0.0));
    assert_eq!(receipt["taxComponents"], json!([]));
    assert_eq!(receipt["transactionId"], "ref-9");
    assert_eq!(receipt["metadata"], json!({"cart": 42}));
    assert_eq!(receipt["transactionHash"], Value::Null);
    assert_eq!(receipt["billingAddress"]["firstName"], "Ada");
    assert_eq!(receipt["billingAddress"]["country"], "US");
    assert_eq!(receipt["billingAddress"]["email"], "ada@example.com");
    assert_eq!(receipt["billingAddress"]["zip"], "");
    for field in [
        "brandName",
        "jurisdictionCode",
        "transactionTimestamp",
        "paymentUrl",
        "webhookUrl",
    ] {
        assert!(receipt.get(field).is_some(), "missing {field}");
    }
}

#[tokio::test]
async fn a_second_receipt_with_the_same_id_is_a_conflict_and_changes_nothing() {
    let api = Api::spawn().await;
    assert_eq!(create_receipt(&api, receipt_body("dup")).await.status, 201);
    let mut second = receipt_body("dup");
    second["lineItems"] = json!([{"label": "Other", "priceUsd": 1}]);
    second["totalUsd"] = json!(1);

    let reply = create_receipt(&api, second).await;

    assert_eq!(reply.status, 409);
    assert_eq!(reply.json["error"], "conflict");
    let stored = send(api.dev(Method::GET, "/api/receipts/dup")).await;
    assert_eq!(stored.json["totalUsd"], json!(7.75));
}

#[tokio::test]
async fn a_total_that_is_not_the_sum_of_the_lines_is_refused() {
    let api = Api::spawn().await;
    let mut body = receipt_body("bad-total");
    body["totalUsd"] = json!(7.76);

    let reply = create_receipt(&api, body).await;

    assert_eq!(reply.status, 400);
    assert_eq!(reply.json["error"], "invalid_input");
    assert_eq!(reply.json["field"], "totalUsd");
}

#[tokio::test]
async fn malformed_receipt_fields_are_refused_naming_the_field() {
    let api = Api::spawn().await;
    let cases = [
        ("id", json!("has space"), "id"),
        ("lineItems", json!([]), "lineItems"),
        ("webhook_url", json!("ftp://example.com/x"), "webhook_url"),
        ("redirect_url", json!("not a url"), "redirect_url"),
        ("country", json!("USA"), "country"),
        ("metadata", json!("text"), "metadata"),
        ("buyerEmail", json!("nobody"), "buyerEmail"),
    ];
    for (name, value, field) in cases {
        let mut body = receipt_body("bad");
        body[name] = value;

        let reply = create_receipt(&api, body).await;

        assert_eq!(reply.status, 400, "{name}: {}", reply.json);
        assert_eq!(reply.json["field"], field, "{name}: {}", reply.json);
    }
}

#[tokio::test]
async fn metadata_larger_than_4_kib_is_refused() {
    let api = Api::spawn().await;
    let mut body = receipt_body("big");
    body["metadata"] = json!({"blob": "x".repeat(5000)});

    let reply = create_receipt(&api, body).await;

    assert_eq!(reply.status, 400);
    assert_eq!(reply.json["field"], "metadata");
}

#[tokio::test]
async fn receipts_list_newest_first_and_honour_the_limit() {
    let api = Api::spawn().await;
    for id in ["r-1", "r-2", "r-3"] {
        assert_eq!(create_receipt(&api, receipt_body(id)).await.status, 201);
        api.app.clock.advance(std::time::Duration::from_millis(1));
    }

    let all = send(api.dev(Method::GET, "/api/receipts")).await;
    let two = send(api.dev(Method::GET, "/api/receipts?limit=2")).await;

    let ids = |reply: &Reply| -> Vec<String> {
        reply.json["receipts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["receiptId"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(ids(&all), ["r-3", "r-2", "r-1"]);
    assert_eq!(ids(&two), ["r-3", "r-2"]);
}

#[tokio::test]
async fn a_limit_outside_1_to_200_is_clamped_and_a_non_integer_is_refused() {
    let api = Api::spawn().await;
    for id in ["c-1", "c-2"] {
        assert_eq!(create_receipt(&api, receipt_body(id)).await.status, 201);
    }
    for (limit, count) in [("0", 1), ("-1", 1), ("201", 2), ("99999999999999999999", 2)] {
        let reply = send(api.dev(Method::GET, &format!("/api/receipts?limit={limit}"))).await;

        assert_eq!(reply.status, 200, "limit={limit}: {}", reply.json);
        assert_eq!(
            reply.json["receipts"].as_array().unwrap().len(),
            count,
            "limit={limit}"
        );
    }
    for limit in ["abc", "1.5", ""] {
        let reply = send(api.dev(Method::GET, &format!("/api/receipts?limit={limit}"))).await;

        assert_eq!(reply.status, 400, "limit={limit}");
        assert_eq!(reply.json["field"], "limit");
    }
}

#[tokio::test]
async fn the_status_read_gives_id_status_hash_currency_and_amount() {
    let api = Api::spawn().await;
    assert_eq!(create_receipt(&api, receipt_body("st-1")).await.status, 201);

    let reply = send(api.dev(Method::GET, "/api/receipts/status?receiptId=st-1")).await;

    assert_eq!(reply.status, 200);
    assert_eq!(
        reply.json,
        json!({"id": "st-1", "status": "pending", "transactionHash": null, "currency": "USD", "amount": 7.75})
    );
}

#[tokio::test]
async fn the_status_read_without_a_receipt_id_is_missing_receipt_id() {
    let api = Api::spawn().await;

    let reply = send(api.dev(Method::GET, "/api/receipts/status")).await;

    assert_eq!(reply.status, 400);
    assert_eq!(reply.json["error"], "missing_receipt_id");
}

#[tokio::test]
async fn unknown_receipts_are_not_found() {
    let api = Api::spawn().await;

    let one = send(api.dev(Method::GET, "/api/receipts/nope")).await;
    let status = send(api.dev(Method::GET, "/api/receipts/status?receiptId=nope")).await;

    assert_eq!((one.status, one.json["error"].clone()), (404, json!("not_found")));
    assert_eq!(
        (status.status, status.json["error"].clone()),
        (404, json!("not_found"))
    );
}

#[tokio::test]
async fn a_merchant_never_sees_or_changes_another_merchants_receipts() {
    let api = Api::spawn().await;
    assert_eq!(create_receipt(&api, receipt_body("mine")).await.status, 201);
    let other = api
        .app
        .create_key(test_wallet(0x22), "receipts:read,receipts:write")
        .await;

    let read = send(api.dev_as(&other.key, Method::GET, "/api/receipts/mine")).await;
    let status = send(api.dev_as(&other.key, Method::GET, "/api/receipts/status?receiptId=mine")).await;
    let list = send(api.dev_as(&other.key, Method::GET, "/api/receipts")).await;
    let hooks = send(api.dev_as(&other.key, Method::GET, "/api/receipts/mine/webhooks")).await;
    let post = send(
        api.dev_as(&other.key, Method::POST, "/api/receipts/status")
            .json(&json!({
                "receiptId": "mine", "wallet": other.wallet, "status": "link_opened"
            })),
    )
    .await;

    assert_eq!(read.status, 404);
    assert_eq!(status.status, 404);
    assert_eq!(list.json, json!({"receipts": [], "nextCursor": null}));
    assert_eq!(hooks.status, 404);
    assert_eq!(post.status, 404);
    let unchanged = send(api.dev(Method::GET, "/api/receipts/mine")).await;
    assert_eq!(unchanged.json["status"], "pending");
}

#[tokio::test]
async fn receipt_routes_need_their_scopes() {
    let api = Api::spawn().await;
    let reader = api.app.create_key(api.app.wallet, "receipts:read").await;
    let writer = api.app.create_key(api.app.wallet, "receipts:write").await;

    let create = send(
        api.dev_as(&reader.key, Method::POST, "/api/receipts")
            .json(&receipt_body("s")),
    )
    .await;
    let list = send(api.dev_as(&writer.key, Method::GET, "/api/receipts")).await;

    assert_eq!(create.status, 403);
    assert_eq!(list.status, 403);
}

#[tokio::test]
async fn the_creating_key_is_stored_sealed_never_in_plaintext() {
    let api = Api::spawn().await;
    let mut body = receipt_body("sealed");
    body["webhook_url"] = json!("https://shop.example.com/hooks");
    assert_eq!(create_receipt(&api, body).await.status, 201);

    let mut stored = Vec::new();
    for suffix in ["", "-wal"] {
        let path = format!("{}{suffix}", api.app.db_path.display());
        stored.extend(std::fs::read(path).unwrap_or_default());
    }

    assert!(!stored.is_empty());
    let key = api.app.key.as_bytes();
    assert!(!stored.windows(key.len()).any(|window| window == key));
}

/// `cast compute-address` of the development DepositFactory (0xe7f1…0512) for merchant 0x2c75…5c23, receipt
/// salts keccak(merchant ‖ "first") and keccak(merchant ‖ "second"), split 0x5FfB…ff2e and the token (the
/// test-mode chain's test token 0x9fE4…a6e0), with Deposit.bytecode ‖ abi.encode(split, token)
/// (docs/contracts.md).
const DEPOSIT_OF_FIRST: &str = "0xc6727be9df6113ea217c4124b7eacd0d2e675811";
const DEPOSIT_OF_SECOND: &str = "0x8b99205bbbe71af64c9ac684e9b478705bad2129";

#[tokio::test]
async fn a_receipt_is_paid_to_its_own_deposit_address_which_the_payment_link_names() {
    let api = Api::spawn().await;
    let (session, key) = crate::paid_receipt::paid_receipt(&api, "first").await;
    let body =
        json!({"id": "second", "lineItems": [{"label": "Coffee", "priceUsd": 7.75}], "totalUsd": 7.75});
    assert_eq!(
        send(api.dev_as(&key.key, Method::POST, "/api/receipts").json(&body))
            .await
            .status,
        201
    );
    let replaced = send(
        crate::admin_helpers::admin(&api, &session, Method::POST, "/api/split/deploy").json(&json!({
            "replace": true,
            "recipients": [
                {"address": session.wallet, "sharesBps": 9000},
                {"address": "0x7777777777777777777777777777777777777777", "sharesBps": 950},
                {"address": "0x5050505050505050505050505050505050505050", "sharesBps": 50},
            ]
        })),
    )
    .await;
    assert_eq!(replaced.status, 200, "{}", replaced.json);

    let first = send(api.dev_as(&key.key, Method::GET, "/api/receipts/first")).await;
    let second = send(api.dev_as(&key.key, Method::GET, "/api/receipts/second")).await;

    let payment = &first.json["payment"];
    assert_eq!(
        payment["to"].as_str().map(str::to_lowercase).as_deref(),
        Some(DEPOSIT_OF_FIRST)
    );
    assert_eq!(payment["amount"], "7750000", "7.75 USD in 6-decimal base units");
    assert_eq!(
        payment["chainId"], 31337,
        "the test-mode chain names the local test chain"
    );
    assert_eq!(
        payment["token"].as_str().map(str::to_lowercase).as_deref(),
        Some("0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0")
    );
    let link = first.json["paymentUrl"].as_str().unwrap().to_lowercase();
    assert!(
        link.ends_with(
            &format!(
                "/portal/first?recipient={DEPOSIT_OF_FIRST}&merchant={}",
                key.wallet
            )
            .to_lowercase()
        ),
        "{link}"
    );
    assert_eq!(
        second.json["payment"]["to"]
            .as_str()
            .map(str::to_lowercase)
            .as_deref(),
        Some(DEPOSIT_OF_SECOND),
        "same amount, another receipt: another address, still the split of its creation"
    );
}
