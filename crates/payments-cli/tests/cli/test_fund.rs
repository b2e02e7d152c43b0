//! `payments test fund --wallet W --usd N`: the test-mode chain gives the wallet tokens (the balance it
//! prints is on chain); a bad amount keeps the service's `invalid_input` (exit 1) and funds nothing.

use payments_server::testing::spawn_app;
use serde_json::Value;

use crate::helpers::payments;

const CUSTOMER: &str = "0x4242424242424242424242424242424242424242";

#[tokio::test(flavor = "multi_thread")]
async fn test_fund_gives_a_customer_test_tokens_and_refuses_a_zero_amount() {
    let app = spawn_app().await;

    let funded = payments(
        &app,
        &["test", "fund", "--wallet", CUSTOMER, "--usd", "50", "--json"],
    )
    .await;
    let again = payments(&app, &["test", "fund", "--wallet", CUSTOMER, "--usd", "0.5"]).await;
    let zero = payments(
        &app,
        &["test", "fund", "--wallet", CUSTOMER, "--usd", "0", "--json"],
    )
    .await;

    assert_eq!(funded.code, 0, "{funded:?}");
    let funded: Value = serde_json::from_str(&funded.stdout).unwrap();
    assert_eq!(funded["fundedBaseUnits"], "50000000");
    assert_eq!(funded["balanceBaseUnits"], "50000000");
    assert_eq!(again.code, 0, "{again:?}");
    assert!(again.stdout.contains("50500000"), "{again:?}");
    assert_eq!(zero.code, 1, "{zero:?}");
    assert!(zero.stderr.contains("invalid_input"), "{zero:?}");
    assert_eq!(app.chain().balance(CUSTOMER.parse().unwrap()).await, 50_500_000);
}
