//! A newer server's receipt statuses and error codes reach the caller instead of failing the call.

use payments_client::{Error, ErrorCode, ReceiptStatusValue, RetryPolicy};
use payments_core::ReceiptStatus;
use serde_json::json;
use wiremock::matchers::path;
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::support::{client, receipt};

#[tokio::test]
async fn an_unknown_receipt_status_decodes_into_unknown_instead_of_failing() {
    let server = MockServer::start().await;
    Mock::given(path("/api/receipts/r-1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(receipt("escrow_held")))
        .mount(&server)
        .await;
    Mock::given(path("/api/receipts"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({ "receipts": [receipt("paid"), receipt("chargeback_opened")] })),
        )
        .mount(&server)
        .await;
    Mock::given(path("/api/receipts/status"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "id": "r-1", "status": "escrow_held", "transactionHash": null, "currency": "USD", "amount": 12.5,
        })))
        .mount(&server)
        .await;
    let client = client(&server, RetryPolicy::OFF);

    let one = client.get_receipt("r-1").await.unwrap();
    let list = client.list_receipts(None).await.unwrap();
    let status = client.receipt_status("r-1").await.unwrap();

    assert_eq!(one.status, ReceiptStatusValue::Unknown("escrow_held".to_owned()));
    assert_eq!(one.status.to_string(), "escrow_held");
    assert_eq!(list[0].status, ReceiptStatus::Paid);
    assert_eq!(
        list[1].status,
        ReceiptStatusValue::Unknown("chargeback_opened".to_owned())
    );
    assert_eq!(status.status.known(), None);
}

#[tokio::test]
async fn an_unknown_error_code_decodes_into_unknown_with_its_message() {
    let server = MockServer::start().await;
    Mock::given(path("/api/receipts/r-1"))
        .respond_with(
            ResponseTemplate::new(422)
                .set_body_json(json!({ "error": "receipt_frozen", "message": "frozen by compliance" })),
        )
        .mount(&server)
        .await;

    let error = client(&server, RetryPolicy::OFF)
        .get_receipt("r-1")
        .await
        .unwrap_err();

    let Error::Api(api) = error else {
        panic!("expected an API error, got {error:?}")
    };
    assert_eq!(
        (api.status, api.code, api.message.as_str()),
        (
            422,
            ErrorCode::Unknown("receipt_frozen".to_owned()),
            "frozen by compliance"
        )
    );
}

#[tokio::test]
async fn an_unknown_split_transaction_status_and_tiny_amounts_decode_exactly() {
    let server = MockServer::start().await;
    Mock::given(path("/api/split/transactions"))
        .respond_with(ResponseTemplate::new(200).set_body_raw(
            r#"[{"id": "0xab-0", "receiptId": "", "amount": 1e-6, "currency": "USDC", "status": "clawed_back",
                "timestamp": "2023-11-14T22:13:20Z", "transactionHash": "0xab", "fees": 0.03875, "chainId": 8453}]"#,
            "application/json",
        ))
        .mount(&server)
        .await;

    let page = client(&server, RetryPolicy::OFF)
        .split_transactions(&payments_client::SplitTransactionsQuery::new())
        .await
        .unwrap();

    let listed = &page.transactions[0];
    assert_eq!(
        listed.status,
        payments_client::SplitTransactionStatus::Unknown("clawed_back".to_owned())
    );
    assert_eq!(listed.amount, payments_core::TokenAmount::from_base_units(1));
    assert_eq!(listed.fees, payments_core::TokenAmount::from_base_units(38_750));
    assert_eq!(page.next_cursor, None);
}
