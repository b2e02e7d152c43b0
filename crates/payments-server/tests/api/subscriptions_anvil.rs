//! Subscriptions on anvil, against the real SpendPermissionManager: the batch charges once (also with two
//! runs at once), exact amounts on chain, the next period charges again once both clocks moved, a customer
//! without tokens gets `charge_failed` and no transfer, cancel stops further charges, a permission the
//! customer revokes at the manager (`cast send ... revoke`) cancels its subscription (`revoked_on_chain`), a trial is
//! charged only when it ends. Skipped (with a
//! message) when anvil is not installed, except under `CI=true`.

use payments_core::{SpendPermission, SpendPermissionData, SpendPermissionDomain};
use payments_server::testing::{TEST_CRON_SECRET, TestOptions, sign_permission};
use reqwest::Method;
use serde_json::{Value, json};

use crate::anvil::{Anvil, BUYER, BUYER_KEY, DEPLOYER_KEY};
use crate::chain_anvil::bootstrap;
use crate::helpers::{Api, send};
use crate::subscriptions_batch_anvil::cast_tuple;

/// anvil's third default account: a customer with gas but no tokens.
pub(crate) const POOR_KEY: &str = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a";
pub(crate) const POOR: &str = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";
/// The relayer (anvil's first account) is the platform's spender.
const RELAYER: &str = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
pub(crate) const PLATFORM: &str = "0x5050505050505050505050505050505050505050";
pub(crate) const PRICE: u128 = 9_990_000;
pub(crate) const FEE: u128 = 49_950;
pub(crate) const NET: u128 = 9_940_050;
const WEEK: u64 = 604_800;

pub(crate) struct Setup {
    pub(crate) anvil: Anvil,
    pub(crate) api: Api,
    pub(crate) token: String,
    pub(crate) manager: String,
    pub(crate) plan_id: String,
}

pub(crate) fn key_bytes(hex_key: &str) -> [u8; 32] {
    let digits = hex_key.trim_start_matches("0x");
    let mut key = [0_u8; 32];
    for (index, byte) in key.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&digits[2 * index..2 * index + 2], 16).unwrap();
    }
    key
}

pub(crate) fn chain_now(anvil: &Anvil) -> u64 {
    anvil
        .cast(&["block", "latest", "--field", "timestamp"])
        .parse()
        .unwrap()
}

pub(crate) async fn setup() -> Option<Setup> {
    let anvil = Anvil::start()?;
    let contracts = bootstrap(&anvil);
    let api = Api::spawn_with(TestOptions {
        node: Some(anvil.node(contracts)),
        ..TestOptions::default()
    })
    .await;
    // The server's clock starts at the chain's time, so both agree on the periods.
    api.app
        .clock
        .set(i64::try_from(chain_now(&anvil)).unwrap() * 1000);
    let plan = send(api.dev(Method::POST, "/api/subscriptions/plans").json(&json!({
        "name": "Weekly box", "priceUsd": 9.99, "period": "WEEKLY"
    })))
    .await;
    assert_eq!(plan.status, 201, "{}", plan.json);
    Some(Setup {
        token: contracts.token.to_string(),
        manager: contracts.spend_permission_manager.unwrap().to_string(),
        plan_id: plan.json["plan"]["planId"].as_str().unwrap().to_owned(),
        anvil,
        api,
    })
}

impl Setup {
    /// `customer` (with `key`) approves the manager, and subscribes with a signed weekly permission.
    pub(crate) async fn subscribe(&self, key: &str, customer: &str) -> String {
        self.subscribe_with_permission(key, customer).await.0
    }

    /// As [`Setup::subscribe`], answering the permission signed too.
    pub(crate) async fn subscribe_with_permission(
        &self,
        key: &str,
        customer: &str,
    ) -> (String, SpendPermissionData) {
        self.subscribe_to(&self.plan_id, key, customer).await
    }

    /// `customer` (with `key`) approves the manager, and subscribes to `plan_id` with a signed weekly
    /// permission; answers the subscription and the permission signed.
    pub(crate) async fn subscribe_to(
        &self,
        plan_id: &str,
        key: &str,
        customer: &str,
    ) -> (String, SpendPermissionData) {
        self.anvil.send(
            key,
            &self.token,
            "approve(address,uint256)",
            &[&self.manager, &u128::MAX.to_string()],
        );
        let start = chain_now(&self.anvil) - 10;
        let data = SpendPermissionData {
            account: customer.to_owned(),
            spender: RELAYER.to_owned(),
            token: self.token.clone(),
            allowance: PRICE.to_string(),
            period: WEEK,
            start,
            end: start + 365 * 86_400,
            salt: "1".to_owned(),
            extra_data: "0x".to_owned(),
        };
        let permission: SpendPermission = data.parse().unwrap();
        let domain = SpendPermissionDomain {
            chain_id: 31_337,
            verifying_contract: self.manager.parse().unwrap(),
        };
        let signature = sign_permission(key_bytes(key), &permission, &domain);
        let reply = send(self.api.anonymous(Method::POST, "/api/subscriptions/create").json(&json!({
            "planId": plan_id,
            "customerWallet": customer,
            "permissionSignature": format!("0x{}", signature.iter().map(|b| format!("{b:02x}")).collect::<String>()),
            "permissionData": data,
        })))
        .await;
        assert_eq!(reply.status, 201, "{}", reply.json);
        let id = reply.json["subscription"]["subscriptionId"]
            .as_str()
            .unwrap()
            .to_owned();
        (id, data)
    }

    pub(crate) async fn batch(&self) -> Value {
        let reply = send(
            self.api
                .anonymous(Method::POST, "/api/cron/charge-subscriptions")
                .header("x-cron-secret", TEST_CRON_SECRET),
        )
        .await;
        assert_eq!(reply.status, 200, "{}", reply.json);
        reply.json
    }

    pub(crate) fn balance(&self, owner: &str) -> u128 {
        self.anvil.balance(&self.token, owner)
    }

    /// The customer (BUYER) cancels `id` with its EIP-712 CancelSubscription signature.
    pub(crate) async fn cancel_signed(&self, id: &str) -> crate::helpers::Reply {
        let hash = payments_core::CancelSubscription {
            subscription_id: id.to_owned(),
            wallet: BUYER.parse().unwrap(),
        }
        .signing_hash(31_337);
        let signature = payments_server::testing::sign_hash(key_bytes(BUYER_KEY), hash);
        send(self.api.anonymous(Method::POST, "/api/subscriptions/cancel").json(&json!({
            "subscriptionId": id,
            "wallet": BUYER,
            "signature": format!("0x{}", signature.iter().map(|b| format!("{b:02x}")).collect::<String>()),
        })))
        .await
    }

    /// Moves the chain a week on, and the server's clock to the chain's time.
    async fn advance_a_week(&self) {
        self.advance(WEEK).await;
    }

    /// Moves the chain `secs` on, and the server's clock to the chain's time.
    pub(crate) async fn advance(&self, secs: u64) {
        self.anvil.cast(&["rpc", "evm_increaseTime", &secs.to_string()]);
        self.anvil.mine(1);
        self.set_clock(i64::try_from(chain_now(&self.anvil)).unwrap() * 1000)
            .await;
    }

    /// Sets the server's clock to `to_ms` (never back).
    pub(crate) async fn set_clock(&self, to_ms: i64) {
        let reply = send(
            self.api
                .anonymous(Method::POST, "/api/test-clock/advance")
                .header("x-cron-secret", TEST_CRON_SECRET)
                .json(&json!({ "to": to_ms })),
        )
        .await;
        assert_eq!(reply.status, 200, "{}", reply.json);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn on_anvil_a_subscription_is_charged_once_per_period_with_exact_amounts_until_canceled() {
    let Some(setup) = setup().await else { return };
    let merchant = setup.api.app.wallet.to_string();
    setup.anvil.send(
        DEPLOYER_KEY,
        &setup.token,
        "mint(address,uint256)",
        &[BUYER, &(3 * PRICE).to_string()],
    );
    let id = setup.subscribe(BUYER_KEY, BUYER).await;

    let (one, two) = tokio::join!(setup.batch(), setup.batch());

    assert_eq!(
        one["succeeded"].as_u64().unwrap() + two["succeeded"].as_u64().unwrap(),
        1,
        "{one} {two}"
    );
    assert_eq!(setup.balance(BUYER), 2 * PRICE);
    assert_eq!(setup.balance(&merchant), NET);
    assert_eq!(setup.balance(PLATFORM), FEE);
    assert_eq!(setup.batch().await["processed"], 0);

    setup.advance_a_week().await;
    let next = setup.batch().await;

    assert_eq!(next["succeeded"], 1, "{next}");
    assert_eq!(setup.balance(BUYER), PRICE);
    assert_eq!(setup.balance(&merchant), 2 * NET);

    let cancel = setup.cancel_signed(&id).await;
    setup.advance_a_week().await;
    let after = setup.batch().await;

    assert_eq!(cancel.status, 200, "{}", cancel.json);
    assert_eq!(after["processed"], 0);
    assert_eq!(setup.balance(BUYER), PRICE);
}

#[tokio::test(flavor = "multi_thread")]
async fn on_anvil_a_customer_without_tokens_gets_charge_failed_and_nothing_moves() {
    let Some(setup) = setup().await else { return };
    let merchant = setup.api.app.wallet.to_string();
    setup.subscribe(POOR_KEY, POOR).await;

    let batch = setup.batch().await;

    assert_eq!(
        (batch["succeeded"].as_u64(), batch["failed"].as_u64()),
        (Some(0), Some(1)),
        "{batch}"
    );
    assert_eq!(batch["results"][0]["status"], "failed");
    assert_eq!(setup.balance(&merchant), 0);
    assert_eq!(setup.balance(PLATFORM), 0);
}

#[tokio::test(flavor = "multi_thread")]
async fn on_anvil_a_permission_revoked_by_its_customer_cancels_the_subscription_as_revoked_on_chain() {
    let Some(setup) = setup().await else { return };
    setup.anvil.send(
        DEPLOYER_KEY,
        &setup.token,
        "mint(address,uint256)",
        &[BUYER, &(3 * PRICE).to_string()],
    );
    let (id, data) = setup.subscribe_with_permission(BUYER_KEY, BUYER).await;
    assert_eq!(setup.batch().await["succeeded"], 1);

    // The customer, not the platform, ends the permission at the manager.
    let permission = cast_tuple(&data);
    setup.anvil.send(
        BUYER_KEY,
        &setup.manager,
        "revoke((address,address,address,uint160,uint48,uint48,uint48,uint256,bytes))",
        &[&permission],
    );
    setup.advance_a_week().await;
    let after = setup.batch().await;
    let status = send(setup.api.anonymous(
        Method::GET,
        &format!("/api/subscriptions/status?subscriptionId={id}"),
    ))
    .await;

    assert_eq!(after["revokedOnChain"], 1, "{after}");
    assert_eq!(after["succeeded"], 0, "{after}");
    assert_eq!(
        status.json["subscriptions"][0]["status"], "canceled",
        "{}",
        status.json
    );
    assert_eq!(
        status.json["subscriptions"][0]["cancelReason"], "revoked_on_chain",
        "{}",
        status.json
    );
    assert_eq!(setup.balance(BUYER), 2 * PRICE, "nothing moved after the revoke");
    setup.advance_a_week().await;
    assert_eq!(setup.batch().await["processed"], 0);
}

#[tokio::test(flavor = "multi_thread")]
async fn on_anvil_a_trial_subscription_is_not_charged_before_its_trial_ends_and_then_charged_exactly() {
    let Some(setup) = setup().await else { return };
    let merchant = setup.api.app.wallet.to_string();
    let plan = send(
        setup
            .api
            .dev(Method::POST, "/api/subscriptions/plans")
            .json(&json!({
                "name": "Weekly box, first week free", "priceUsd": 9.99, "period": "WEEKLY", "trialDays": 7
            })),
    )
    .await;
    let plan_id = plan.json["plan"]["planId"].as_str().unwrap().to_owned();
    setup.anvil.send(
        DEPLOYER_KEY,
        &setup.token,
        "mint(address,uint256)",
        &[BUYER, &(2 * PRICE).to_string()],
    );
    let (id, _) = setup.subscribe_to(&plan_id, BUYER_KEY, BUYER).await;

    let during_trial = setup.batch().await;
    setup.advance(6 * 86_400).await;
    let a_day_before = setup.batch().await;
    setup.advance(86_400).await;
    let at_trial_end = setup.batch().await;
    let status = send(setup.api.anonymous(
        Method::GET,
        &format!("/api/subscriptions/status?subscriptionId={id}"),
    ))
    .await;

    assert_eq!(during_trial["processed"], 0, "{during_trial}");
    assert_eq!(a_day_before["processed"], 0, "{a_day_before}");
    assert_eq!(at_trial_end["succeeded"], 1, "{at_trial_end}");
    assert_eq!(
        status.json["subscriptions"][0]["status"], "active",
        "{}",
        status.json
    );
    assert_eq!(setup.balance(BUYER), PRICE);
    assert_eq!(setup.balance(&merchant), NET);
    assert_eq!(setup.balance(PLATFORM), FEE);
}
