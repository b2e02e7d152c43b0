//! ERC-6492 signatures that must be refused: on anvil a wrong owner, a factory call deploying another wallet
//! (or no factory), a tampered inner signature, a malformed or oversized wrapper, each with its code and
//! nothing stored; on the test-mode chain, which runs no contract code, any ERC-6492 signature, saying why.

use payments_core::SpendPermission;
use payments_server::testing::sign_hash;
use reqwest::Method;
use serde_json::json;

use crate::helpers::{Api, send};
use crate::subscription_helpers::{CUSTOMER_KEY, create, weekly_permission, weekly_plan};
use crate::subscriptions_6492::{OWNER_KEY, SALT, World, wrap};

/// anvil's fourth default account: a key that does not own the wallet.
const STRANGER_KEY: &str = "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6";

#[tokio::test(flavor = "multi_thread")]
async fn wrong_erc6492_signatures_are_refused_with_their_code_and_store_nothing() {
    let Some(world) = World::start().await else { return };
    let account = world.wallet(SALT);
    let data = world.permission(&account, 1);
    let good_inner = world.inner_signature(OWNER_KEY, &data);
    let mut tampered = good_inner.clone();
    tampered[10] ^= 0x01;
    let mut garbage = vec![0x01; 40];
    garbage.extend_from_slice(&payments_core::ERC6492_SUFFIX);
    let oversized = wrap(&world.factory, vec![0; 9_000], good_inner.clone());
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "another key signed",
            wrap(
                &world.factory,
                world.create_account_call(SALT),
                world.inner_signature(STRANGER_KEY, &data),
            ),
            "signer_mismatch",
        ),
        (
            "the factory call deploys another wallet",
            wrap(
                &world.factory,
                world.create_account_call(SALT + 1),
                good_inner.clone(),
            ),
            "signer_mismatch",
        ),
        (
            "the factory is not a factory",
            wrap(&world.token, world.create_account_call(SALT), good_inner.clone()),
            "signer_mismatch",
        ),
        (
            "the inner signature was tampered with",
            wrap(&world.factory, world.create_account_call(SALT), tampered),
            "signer_mismatch",
        ),
        (
            "the inner signature was made for another permission",
            wrap(
                &world.factory,
                world.create_account_call(SALT),
                world.inner_signature(OWNER_KEY, &world.permission(&account, 2)),
            ),
            "signer_mismatch",
        ),
        (
            "the wrapper is not the three fields",
            garbage,
            "invalid_signature",
        ),
        ("the signature is over 8 KiB", oversized, "invalid_signature"),
    ];

    for (case, signature, code) in cases {
        let reply = world.subscribe(&data, &signature).await;

        assert_eq!(
            (reply.status, reply.json["error"].as_str()),
            (400, Some(code)),
            "{case}: {}",
            reply.json
        );
        assert!(reply.json["message"].is_string(), "{case}: {}", reply.json);
    }
    assert!(!world.has_code(&account));
    // Nothing was stored: the same permission, correctly signed, is not "reused".
    let signature = wrap(&world.factory, world.create_account_call(SALT), good_inner);
    let accepted = world.subscribe(&data, &signature).await;
    assert_eq!(accepted.status, 201, "{}", accepted.json);
}

#[tokio::test]
async fn the_test_mode_chain_refuses_an_erc6492_signature_and_says_why() {
    let api = Api::spawn().await;
    let plan = weekly_plan(&api).await;
    let account: payments_core::Wallet = "0x1111111111111111111111111111111111111111".parse().unwrap();
    let data = weekly_permission(&api, account, 1);
    let permission: SpendPermission = data.parse().unwrap();
    let inner = sign_hash(CUSTOMER_KEY, permission.signing_hash(&api.app.spend().domain()));
    let signature = wrap("0x2222222222222222222222222222222222222222", vec![0xab; 4], inner);

    let reply = create(
        &api,
        &json!({
            "planId": plan,
            "customerWallet": account.to_string(),
            "permissionSignature": format!("0x{}", hex::encode(signature)),
            "permissionData": data,
        }),
    )
    .await;

    assert_eq!(
        (reply.status, reply.json["error"].as_str()),
        (400, Some("signer_mismatch")),
        "{}",
        reply.json
    );
    assert!(
        reply.json["message"]
            .as_str()
            .unwrap()
            .contains("test-mode chain runs no contract code"),
        "{}",
        reply.json
    );
    let listed = send(api.anonymous(
        Method::GET,
        &format!("/api/subscriptions/status?customer={account}"),
    ))
    .await;
    assert_eq!(listed.json["subscriptions"], json!([]));
}
