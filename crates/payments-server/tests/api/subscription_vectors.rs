//! The public spend-permission vectors (`../shared/vectors/spend-permission-eip712.json`, a copy in
//! payments-core) through `POST /api/subscriptions/create`. They are signed for Base's domain, so each runs
//! on a server configured as Base (chain 8453, its spend permission manager and USDC) with the vector's
//! spender as the platform spender and the clock just after the vector's start; the plan charges the vector's
//! allowance every vector period. Valid vectors are accepted; the tampered one is a `signer_mismatch`.

use payments_core::{BillingPeriod, SPEND_PERMISSION_MANAGER, Wallet};
use payments_server::ChainContracts;
use payments_server::testing::TestOptions;
use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{Api, send};

const VECTORS: &str = include_str!("../../../payments-core/tests/vectors/spend-permission-eip712.json");

fn base_contracts() -> ChainContracts {
    ChainContracts {
        chain_id: 8453,
        token: Wallet::parse("0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913").unwrap(),
        split_factory: Wallet::parse("0x00000000000000000000000000000000000000f1").unwrap(),
        deposit_factory: Wallet::parse("0x00000000000000000000000000000000000000f2").unwrap(),
        spend_permission_manager: Some(Wallet::from_address(SPEND_PERMISSION_MANAGER)),
    }
}

async fn create_for(vector: &Value, plan_allowance: &str) -> (u16, Value) {
    let data = &vector["permissionData"];
    let api = Api::spawn_with(TestOptions {
        chain_contracts: Some(base_contracts()),
        subscription_spender: Some(Wallet::parse(data["spender"].as_str().unwrap()).unwrap()),
        ..TestOptions::default()
    })
    .await;
    api.app.clock.set(data["start"].as_i64().unwrap() * 1000 + 1000);
    let period = BillingPeriod::from_seconds(data["period"].as_u64().unwrap()).unwrap();
    let cents: i64 = plan_allowance.parse::<i64>().unwrap() / 10_000;
    let plan = send(api.dev(Method::POST, "/api/subscriptions/plans").json(&json!({
        "name": "Vector plan",
        "priceUsd": serde_json::Number::from_f64(cents as f64 / 100.0).unwrap(),
        "period": period.as_str(),
    })))
    .await;
    assert_eq!(plan.status, 201, "{}", plan.json);
    let reply = send(
        api.anonymous(Method::POST, "/api/subscriptions/create")
            .json(&json!({
                "planId": plan.json["plan"]["planId"],
                "customerWallet": vector["signer"],
                "permissionSignature": vector["signature"],
                "permissionData": data,
            })),
    )
    .await;
    (reply.status, reply.json)
}

#[tokio::test]
async fn every_valid_public_vector_subscribes_on_a_server_configured_as_base() {
    let vectors: Value = serde_json::from_str(VECTORS).unwrap();
    let mut accepted = 0;
    for (index, vector) in vectors["vectors"].as_array().unwrap().iter().enumerate() {
        if vector["valid"] != true {
            continue;
        }
        let allowance = vector["permissionData"]["allowance"].as_str().unwrap();

        let (status, body) = create_for(vector, allowance).await;

        assert_eq!(status, 201, "vector {index}: {body}");
        assert_eq!(body["subscription"]["status"], "active", "vector {index}");
        accepted += 1;
    }
    assert_eq!(accepted, 12);
}

#[tokio::test]
async fn a_tampered_public_vector_is_a_signer_mismatch() {
    let vectors: Value = serde_json::from_str(VECTORS).unwrap();
    let tampered: Vec<&Value> = vectors["vectors"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|vector| vector["valid"] == false)
        .collect();
    assert!(!tampered.is_empty());
    for vector in tampered {
        let (status, body) = create_for(vector, "1000000").await;

        assert_eq!(
            (status, body["error"].as_str()),
            (400, Some("signer_mismatch")),
            "{body}"
        );
    }
}
