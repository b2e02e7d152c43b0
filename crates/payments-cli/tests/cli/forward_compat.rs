//! The binary against a newer service (scripted with wiremock): statuses this version does not know are
//! printed as the service spelled them, never a decoding failure.

use std::process::Command;

use serde_json::{Value, json};
use wiremock::matchers::path;
use wiremock::{Mock, MockServer, ResponseTemplate};

/// A receipt as a newer service renders it, in `status`.
fn receipt(status: &str) -> Value {
    json!({
        "receiptId": "r-1",
        "totalUsd": 12.5,
        "currency": "USD",
        "lineItems": [{ "label": "Mug", "priceUsd": 12.5 }],
        "createdAt": 1_700_000_000_000_i64,
        "status": status,
    })
}

/// Runs `payments ARGS` against `url` with a key; answers (exit code, stdout, stderr).
async fn payments_at(url: &str, args: &[&str]) -> (i32, String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_payments"));
    command
        .args(args)
        .env("PAYMENTS_URL", url)
        .env("PAYMENTS_KEY", "sk_test_scripted")
        .env_remove("PAYMENTS_ADMIN_SESSION")
        .env_remove("PAYMENTS_ADMIN_KEY_FILE");
    let output = tokio::task::spawn_blocking(move || command.output())
        .await
        .unwrap()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn a_receipt_status_from_a_future_service_is_printed_not_refused() {
    let service = MockServer::start().await;
    Mock::given(path("/api/receipts/r-1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(receipt("paid_late_v9")))
        .mount(&service)
        .await;
    Mock::given(path("/api/receipts"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(json!({ "receipts": [receipt("paid_late_v9")] })),
        )
        .mount(&service)
        .await;

    let (shown_code, shown, shown_errors) = payments_at(&service.uri(), &["receipts", "show", "r-1"]).await;
    let (listed_code, listed, _) = payments_at(&service.uri(), &["receipts", "list"]).await;
    let (json_code, as_json, _) = payments_at(&service.uri(), &["receipts", "show", "r-1", "--json"]).await;

    assert_eq!((shown_code, listed_code, json_code), (0, 0, 0), "{shown_errors}");
    assert!(shown.starts_with("receipt r-1 (paid_late_v9)\n"), "{shown}");
    let row = listed.lines().nth(1).unwrap();
    assert!(row.starts_with("r-1") && row.contains("paid_late_v9"), "{listed}");
    let printed: Value = serde_json::from_str(&as_json).unwrap();
    assert_eq!(printed["status"], "paid_late_v9");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_error_code_from_a_future_service_is_reported_verbatim() {
    let service = MockServer::start().await;
    Mock::given(path("/api/receipts/r-1"))
        .respond_with(
            ResponseTemplate::new(423)
                .set_body_json(json!({ "error": "receipt_frozen", "message": "frozen by compliance" })),
        )
        .mount(&service)
        .await;

    let (code, stdout, stderr) = payments_at(&service.uri(), &["receipts", "show", "r-1"]).await;

    assert_eq!((code, stdout.as_str()), (1, ""), "{stderr}");
    assert!(
        stderr.starts_with(
            "error: receipt_frozen: frozen by compliance (hint: see the message; this CLI may be older"
        ),
        "{stderr}"
    );
}
