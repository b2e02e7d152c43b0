//! `POST /api/test/fund`: on the test-mode chain a merchant funds a customer wallet (tokens, and the manager
//! approved for them), after which the customer's subscription charges successfully end to end; a wallet
//! that was not funded fails its charge; a server on a real chain has no such route.

use payments_server::testing::{TestNode, TestOptions, wallet_of_key};
use reqwest::Method;
use serde_json::json;

use crate::anvil::DEPLOYER_KEY;
use crate::helpers::{Api, send};
use crate::subscription_helpers::{
    CUSTOMER_KEY, FEE_UNITS, NET_UNITS, PRICE_UNITS, create, create_body, run_batch, status_of,
    weekly_permission, weekly_plan,
};

async fn fund(api: &Api, wallet: &str, usd: serde_json::Value) -> crate::helpers::Reply {
    send(
        api.dev(Method::POST, "/api/test/fund")
            .json(&json!({ "wallet": wallet, "usd": usd })),
    )
    .await
}

#[tokio::test]
async fn a_funded_test_mode_customer_is_charged_successfully_end_to_end() {
    let api = Api::spawn().await;
    let plan = weekly_plan(&api).await;
    let customer = wallet_of_key(CUSTOMER_KEY);

    let funded = fund(&api, &customer.to_string(), json!(50)).await;
    assert_eq!(funded.status, 200, "{}", funded.json);
    assert_eq!(funded.json["fundedBaseUnits"], "50000000");
    assert_eq!(funded.json["balanceBaseUnits"], "50000000");
    let created = create(
        &api,
        &create_body(&api, &plan, CUSTOMER_KEY, &weekly_permission(&api, customer, 1)),
    )
    .await;
    assert_eq!(created.status, 201, "{}", created.json);
    let id = created.json["subscription"]["subscriptionId"]
        .as_str()
        .unwrap()
        .to_owned();

    let report = run_batch(&api).await;

    assert_eq!(report["succeeded"], 1, "{report}");
    assert_eq!(report["failed"], 0, "{report}");
    let chain = api.app.chain();
    assert_eq!(chain.balance(customer).await, 50_000_000 - PRICE_UNITS);
    let status = status_of(&api, &id).await;
    assert_eq!(status["subscriptions"][0]["status"], "active");
    assert_eq!(status["billingEvents"][0]["status"], "charged");
    assert_eq!(status["billingEvents"][0]["feeBaseUnits"], FEE_UNITS.to_string());
    assert_eq!(status["billingEvents"][0]["netBaseUnits"], NET_UNITS.to_string());
}

#[tokio::test]
async fn an_unfunded_test_mode_customer_fails_its_charge() {
    let api = Api::spawn().await;
    let plan = weekly_plan(&api).await;
    let customer = wallet_of_key(CUSTOMER_KEY);
    let created = create(
        &api,
        &create_body(&api, &plan, CUSTOMER_KEY, &weekly_permission(&api, customer, 1)),
    )
    .await;
    assert_eq!(created.status, 201, "{}", created.json);

    let report = run_batch(&api).await;

    assert_eq!(report["succeeded"], 0, "{report}");
    assert_eq!(report["failed"], 1, "{report}");
}

#[tokio::test]
async fn funding_refuses_bad_input_and_callers_without_a_key() {
    let api = Api::spawn().await;
    let customer = wallet_of_key(CUSTOMER_KEY).to_string();

    let zero = fund(&api, &customer, json!(0)).await;
    let too_much = fund(&api, &customer, json!(100_000_001)).await;
    let bad_wallet = fund(&api, "0x12", json!(5)).await;
    let missing = send(api.dev(Method::POST, "/api/test/fund").json(&json!({ "usd": 5 }))).await;
    let anonymous = send(
        api.anonymous(Method::POST, "/api/test/fund")
            .json(&json!({ "wallet": customer, "usd": 5 })),
    )
    .await;

    for (reply, field) in [(&zero, "usd"), (&too_much, "usd"), (&missing, "wallet")] {
        assert_eq!(reply.status, 400, "{}", reply.json);
        assert_eq!(reply.json["error"], "invalid_input", "{}", reply.json);
        assert_eq!(reply.json["field"], field, "{}", reply.json);
    }
    assert_eq!(bad_wallet.status, 400, "{}", bad_wallet.json);
    assert_eq!(anonymous.status, 401, "{}", anonymous.json);
    assert_eq!(
        api.app.chain().balance(wallet_of_key(CUSTOMER_KEY)).await,
        0,
        "a refused funding mints nothing"
    );
}

#[tokio::test]
async fn a_server_on_a_real_chain_has_no_funding_route() {
    // The node is never reached: the route answers 404 from the configuration alone.
    let api = Api::spawn_with(TestOptions {
        node: Some(TestNode {
            rpc_url: "http://127.0.0.1:9".to_owned(),
            contracts: payments_server::ChainContracts::DEVELOPMENT,
            relayer_key: DEPLOYER_KEY.to_owned(),
        }),
        ..TestOptions::default()
    })
    .await;

    let reply = fund(&api, &wallet_of_key(CUSTOMER_KEY).to_string(), json!(50)).await;

    assert_eq!(reply.status, 404, "{}", reply.json);
    assert_eq!(reply.json["error"], "not_found", "{}", reply.json);
}
