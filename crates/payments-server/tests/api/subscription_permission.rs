//! `GET /api/subscriptions/plans/{planId}/permission`: the document a customer signs as is (with this
//! crate's signer on the test-mode chain, and with `cast wallet sign --data` on anvil) is accepted by
//! `POST /api/subscriptions/create`; the approval is needed until the customer approved the manager; bad
//! input is refused with the spec envelope.

use payments_core::{SpendPermissionTypedData, Wallet};
use payments_server::testing::{TEST_START_MS, sign_permission};
use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{Api, Reply, send};
use crate::subscription_helpers::{CUSTOMER_KEY, PRICE_UNITS, customer, weekly_plan};

async fn permission(api: &Api, plan_id: &str, customer: &str) -> Reply {
    send(api.anonymous(
        Method::GET,
        &format!("/api/subscriptions/plans/{plan_id}/permission?customer={customer}"),
    ))
    .await
}

fn hex_of(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

async fn create(api: &Api, plan_id: &str, wallet: &str, signature: &str, document: &Value) -> Reply {
    send(
        api.anonymous(Method::POST, "/api/subscriptions/create")
            .json(&json!({
                "planId": plan_id,
                "customerWallet": wallet,
                "permissionSignature": signature,
                "permissionData": document["message"],
            })),
    )
    .await
}

#[tokio::test]
async fn the_permission_document_names_the_plan_terms_and_signed_as_is_creates_the_subscription() {
    let api = Api::spawn().await;
    let plan_id = weekly_plan(&api).await;
    let spend = api.app.spend();

    let offer = permission(&api, &plan_id, &customer().to_string()).await;

    assert_eq!(offer.status, 200, "{}", offer.json);
    let document = &offer.json["typedData"];
    assert_eq!(document["primaryType"], "SpendPermission");
    assert_eq!(document["domain"]["name"], "Spend Permission Manager");
    assert_eq!(document["domain"]["chainId"], api.app.spend().domain().chain_id);
    let message = &document["message"];
    assert_eq!(message["allowance"], PRICE_UNITS.to_string());
    assert_eq!(message["period"], 604_800);
    assert_eq!(message["start"], TEST_START_MS / 1000 - 60);
    assert_eq!(message["end"], 281_474_976_710_655_u64);
    assert_eq!(
        message["account"].as_str().unwrap().to_lowercase(),
        customer().to_string()
    );
    assert_eq!(
        message["spender"].as_str().unwrap().to_lowercase(),
        spend.relayer().to_string()
    );
    assert_eq!(
        offer.json["approval"]["spender"],
        api.app.chain().manager().to_string()
    );
    assert_eq!(offer.json["approval"]["token"], spend.token().to_string());
    assert_eq!(offer.json["approval"]["needed"], true);

    let typed: SpendPermissionTypedData = serde_json::from_value(document.clone()).unwrap();
    let (signed, domain) = typed.parse().unwrap();
    let signature = sign_permission(CUSTOMER_KEY, &signed, &domain);
    let created = create(
        &api,
        &plan_id,
        &customer().to_string(),
        &format!("0x{}", hex_of(&signature)),
        document,
    )
    .await;

    assert_eq!(created.status, 201, "{}", created.json);
    assert_eq!(created.json["subscription"]["status"], "active");
}

#[tokio::test]
async fn two_documents_for_one_customer_are_distinct_permissions() {
    let api = Api::spawn().await;
    let plan_id = weekly_plan(&api).await;

    let one = permission(&api, &plan_id, &customer().to_string()).await;
    let two = permission(&api, &plan_id, &customer().to_string()).await;

    assert_ne!(
        one.json["typedData"]["message"]["salt"],
        two.json["typedData"]["message"]["salt"]
    );
}

#[tokio::test]
async fn no_approval_is_needed_once_the_customer_approved_the_manager_for_one_charge() {
    let api = Api::spawn().await;
    let plan_id = weekly_plan(&api).await;
    let chain = api.app.chain();
    chain.approve(customer(), chain.manager(), PRICE_UNITS);

    let offer = permission(&api, &plan_id, &customer().to_string()).await;

    assert_eq!(offer.status, 200, "{}", offer.json);
    assert_eq!(offer.json["approval"]["needed"], false);
}

#[tokio::test]
async fn a_permission_request_without_a_customer_address_is_invalid_input() {
    let api = Api::spawn().await;
    let plan_id = weekly_plan(&api).await;

    let reply = permission(&api, &plan_id, "nobody").await;

    assert_eq!(reply.status, 400, "{}", reply.json);
    assert_eq!(reply.json["error"], "invalid_input");
    assert!(reply.json["message"].as_str().unwrap().contains("customer"));
}

#[tokio::test]
async fn a_permission_for_an_unknown_plan_is_not_found_and_for_a_deactivated_plan_plan_inactive() {
    let api = Api::spawn().await;
    let plan_id = weekly_plan(&api).await;
    let deleted = send(
        api.dev(Method::DELETE, "/api/subscriptions/plans")
            .json(&json!({ "planId": plan_id })),
    )
    .await;
    assert_eq!(deleted.status, 200, "{}", deleted.json);

    let unknown = permission(&api, "plan_0000", &customer().to_string()).await;
    let inactive = permission(&api, &plan_id, &customer().to_string()).await;

    assert_eq!(unknown.status, 404, "{}", unknown.json);
    assert_eq!(unknown.json["error"], "not_found");
    assert_eq!(inactive.status, 400, "{}", inactive.json);
    assert_eq!(inactive.json["error"], "plan_inactive");
}

/// The document is standard EIP-712 JSON: foundry's `cast wallet sign --data` (alloy's typed-data
/// implementation, not this crate's) signs it, and create accepts that signature.
#[tokio::test(flavor = "multi_thread")]
async fn on_anvil_the_document_signed_by_cast_is_accepted_by_create() {
    use payments_server::testing::anvil::{BUYER, BUYER_KEY};

    let Some(setup) = crate::subscribe_page::plan_on_anvil().await else {
        return;
    };
    let (anvil, api, plan_id) = (&setup.anvil, &setup.api, &setup.plan_id);
    let offer = permission(api, plan_id, BUYER).await;
    assert_eq!(offer.status, 200, "{}", offer.json);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("permission.json");
    std::fs::write(&file, offer.json["typedData"].to_string()).unwrap();

    let signature = anvil.cast(&[
        "wallet",
        "sign",
        "--private-key",
        BUYER_KEY,
        "--data",
        "--from-file",
        file.to_str().unwrap(),
    ]);
    let created = create(api, plan_id, BUYER, &signature, &offer.json["typedData"]).await;

    assert_eq!(created.status, 201, "{}", created.json);
    assert_eq!(
        created.json["subscription"]["customer"],
        Wallet::parse(BUYER).unwrap().to_string()
    );
}
