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
