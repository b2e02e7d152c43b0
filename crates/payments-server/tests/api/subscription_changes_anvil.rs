//! Plan changes on anvil, against the real SpendPermissionManager (`changePermission`): an upgrade four
//! days into a weekly period charges exactly the prorated difference at once and revokes the old
//! permission on chain, and the next batch charges the new plan's price; a downgrade charges nothing, credits
//! the difference and the next charge takes it off to the base unit; refused changes (another signer,
//! another customer, the same plan, another merchant's plan, a canceled subscription) change nothing.
//! Skipped (with a message) when anvil is not installed, except under `CI=true`.

use payments_core::{SpendPermission, SpendPermissionData};
use payments_server::testing::{sign_permission, test_wallet};
use reqwest::Method;
use serde_json::{Value, json};

use crate::anvil::{BUYER, BUYER_KEY, DEPLOYER_KEY};
use crate::helpers::{Reply, send};
use crate::subscriptions_anvil::{FEE, NET, PLATFORM, POOR_KEY, PRICE, Setup, key_bytes, setup};
use crate::subscriptions_batch_anvil::cast_tuple;

const DAY_MS: i64 = 86_400_000;
const WEEK_MS: i64 = 7 * DAY_MS;

impl Setup {
    /// A weekly plan of the test merchant at `price_usd`.
    async fn weekly_plan(&self, name: &str, price_usd: f64) -> String {
        let plan = send(
            self.api
                .dev(Method::POST, "/api/subscriptions/plans")
                .json(&json!({
                    "name": name, "priceUsd": price_usd, "period": "WEEKLY"
                })),
        )
        .await;
        assert_eq!(plan.status, 201, "{}", plan.json);
        plan.json["plan"]["planId"].as_str().unwrap().to_owned()
    }

    /// The subscription's state as the status route shows it.
    async fn subscription(&self, id: &str) -> Value {
        let status = send(self.api.anonymous(
            Method::GET,
            &format!("/api/subscriptions/status?subscriptionId={id}"),
        ))
        .await;
        assert_eq!(status.status, 200, "{}", status.json);
        status.json["subscriptions"][0].clone()
    }

    /// The change's document for `plan_id`, signed with `key`, posted.
    async fn change(&self, id: &str, plan_id: &str, key: &str) -> Reply {
        let (data, signature) = self.signed_change(id, plan_id, key).await;
        self.post_change(id, plan_id, &data, &signature).await
    }

    async fn signed_change(&self, id: &str, plan_id: &str, key: &str) -> (SpendPermissionData, String) {
        let offer = send(self.api.anonymous(
            Method::GET,
            &format!("/api/subscriptions/plans/{plan_id}/permission?subscriptionId={id}"),
        ))
        .await;
        assert_eq!(offer.status, 200, "{}", offer.json);
        let data: SpendPermissionData =
            serde_json::from_value(offer.json["typedData"]["message"].clone()).unwrap();
        (data.clone(), self.sign(&data, key))
    }

    fn sign(&self, data: &SpendPermissionData, key: &str) -> String {
        let permission: SpendPermission = data.parse().unwrap();
        let domain = payments_core::SpendPermissionDomain {
            chain_id: 31_337,
            verifying_contract: self.manager.parse().unwrap(),
        };
        let signature = sign_permission(key_bytes(key), &permission, &domain);
        format!(
            "0x{}",
            signature.iter().map(|b| format!("{b:02x}")).collect::<String>()
        )
    }

    async fn post_change(
        &self,
        id: &str,
        plan_id: &str,
        data: &SpendPermissionData,
        signature: &str,
    ) -> Reply {
        send(
            self.api
                .anonymous(Method::POST, "/api/subscriptions/change")
                .json(&json!({
                    "subscriptionId": id,
                    "newPlanId": plan_id,
                    "permissionSignature": signature,
                    "permissionData": data,
                })),
        )
        .await
    }

    fn is_revoked(&self, data: &SpendPermissionData) -> bool {
        let answer = self.anvil.cast(&[
            "call",
            &self.manager,
            "isRevoked((address,address,address,uint160,uint48,uint48,uint48,uint256,bytes))(bool)",
            &cast_tuple(data),
        ]);
        answer.trim() == "true"
    }

    /// Moves the chain four days on and the server's clock to exactly four days into the period that
    /// started at `period_start` (ms), so the proration is an exact 3/7.
    async fn four_days_into(&self, period_start: i64) {
        self.anvil
            .cast(&["rpc", "evm_increaseTime", &(4 * 86_400).to_string()]);
        self.anvil.mine(1);
        self.set_clock(period_start + 4 * DAY_MS).await;
    }

    /// The buyer funded and subscribed to the setup's $9.99 weekly plan, charged once; answers the
    /// subscription, the signed permission and the charged period's start (ms).
    async fn charged_buyer(&self) -> (String, SpendPermissionData, i64) {
        self.anvil.send(
            DEPLOYER_KEY,
            &self.token,
            "mint(address,uint256)",
            &[BUYER, &(10 * PRICE).to_string()],
        );
        let (id, data) = self.subscribe_with_permission(BUYER_KEY, BUYER).await;
        assert_eq!(self.batch().await["succeeded"], 1);
        let next = self.subscription(&id).await["nextChargeAt"].as_i64().unwrap();
        (id, data, next - WEEK_MS)
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn on_anvil_an_upgrade_charges_the_prorated_difference_at_once_revokes_the_old_permission_and_the_next_charge_is_the_new_price()
 {
    let Some(setup) = setup().await else { return };
    let merchant = setup.api.app.wallet.to_string();
    let pro = setup.weekly_plan("Pro box", 19.99).await;
    let (id, old, period_start) = setup.charged_buyer().await;
    // Four of seven days gone: 3/7 of the $10.00 difference is left, 4,285,714.28… base units.
    setup.four_days_into(period_start).await;

    let changed = setup.change(&id, &pro, BUYER_KEY).await;

    assert_eq!(changed.status, 200, "{}", changed.json);
    let change = &changed.json["change"];
    assert_eq!(change["proration"], "charge", "{change}");
    assert_eq!(change["prorationBaseUnits"], "4285714");
    assert_eq!(change["feeBaseUnits"], "21429");
    assert_eq!(change["netBaseUnits"], "4264285");
    assert_eq!(changed.json["subscription"]["planId"], pro.as_str());
    assert_eq!(setup.balance(BUYER), 10 * PRICE - PRICE - 4_285_714);
    assert_eq!(setup.balance(&merchant), NET + 4_264_285);
    assert_eq!(setup.balance(PLATFORM), FEE + 21_429);
    assert!(setup.is_revoked(&old), "the old permission is revoked on chain");

    setup.advance(3 * 86_400).await;
    let next = setup.batch().await;

    assert_eq!(next["succeeded"], 1, "{next}");
    assert_eq!(setup.balance(BUYER), 10 * PRICE - PRICE - 4_285_714 - 19_990_000);
    assert_eq!(setup.balance(&merchant), NET + 4_264_285 + 19_890_050);
    assert_eq!(setup.balance(PLATFORM), FEE + 21_429 + 99_950);
    let events = send(setup.api.anonymous(
        Method::GET,
        &format!("/api/subscriptions/status?subscriptionId={id}"),
    ))
    .await;
    let statuses: Vec<&str> = events.json["billingEvents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|event| event["status"].as_str().unwrap())
        .collect();
    assert_eq!(
        statuses,
        ["charged", "prorated_charge", "charged"],
        "{}",
        events.json
    );
    let prorated = &events.json["billingEvents"][1];
    assert_eq!(prorated["grossBaseUnits"], "4285714");
    assert_eq!(prorated["feeBaseUnits"], "21429");
    assert!(prorated["transactionHash"].as_str().unwrap().starts_with("0x"));
}

#[tokio::test(flavor = "multi_thread")]
async fn on_anvil_a_downgrade_credits_the_difference_and_the_next_charge_takes_it_off_to_the_base_unit() {
    let Some(setup) = setup().await else { return };
    let merchant = setup.api.app.wallet.to_string();
    let lite = setup.weekly_plan("Lite box", 4.99).await;
    let (id, old, period_start) = setup.charged_buyer().await;
    setup.four_days_into(period_start).await;

    let changed = setup.change(&id, &lite, BUYER_KEY).await;

    assert_eq!(changed.status, 200, "{}", changed.json);
    // 3/7 of the $5.00 difference: 2,142,857.14… base units, credited.
    assert_eq!(changed.json["change"]["proration"], "credit");
    assert_eq!(changed.json["change"]["prorationBaseUnits"], "2142857");
    assert_eq!(changed.json["change"]["creditBalanceBaseUnits"], "2142857");
    assert_eq!(setup.balance(BUYER), 9 * PRICE, "a downgrade moves nothing");
    assert!(setup.is_revoked(&old));

    setup.advance(3 * 86_400).await;
    let next = setup.batch().await;

    // 4,990,000 − 2,142,857 = 2,847,143: fee 14,236 (half up of 14,235.715), net 2,832,907.
    assert_eq!(next["succeeded"], 1, "{next}");
    assert_eq!(setup.balance(BUYER), 9 * PRICE - 2_847_143);
    assert_eq!(setup.balance(&merchant), NET + 2_832_907);
    assert_eq!(setup.balance(PLATFORM), FEE + 14_236);
    setup.advance(7 * 86_400).await;
    assert_eq!(setup.batch().await["succeeded"], 1);
    assert_eq!(
        setup.balance(BUYER),
        9 * PRICE - 2_847_143 - 4_990_000,
        "the credit was used once"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn on_anvil_refused_plan_changes_change_nothing() {
    let Some(setup) = setup().await else { return };
    let pro = setup.weekly_plan("Pro box", 19.99).await;
    let other = setup
        .api
        .app
        .create_key(test_wallet(0x22), "subscriptions:write")
        .await;
    let foreign = send(
        setup
            .api
            .dev_as(&other.key, Method::POST, "/api/subscriptions/plans")
            .json(&json!({"name": "Theirs", "priceUsd": 19.99, "period": "WEEKLY"})),
    )
    .await;
    let foreign = foreign.json["plan"]["planId"].as_str().unwrap().to_owned();
    let (id, old, _) = setup.charged_buyer().await;
    let before = setup.subscription(&id).await;
    let balance = setup.balance(BUYER);

    let (data, _) = setup.signed_change(&id, &pro, BUYER_KEY).await;
    let wrong_signer = setup
        .post_change(&id, &pro, &data, &setup.sign(&data, POOR_KEY))
        .await;
    let mut theirs = data.clone();
    theirs.account = crate::subscriptions_anvil::POOR.to_owned();
    let other_customer = setup
        .post_change(&id, &pro, &theirs, &setup.sign(&theirs, POOR_KEY))
        .await;
    let same_plan = setup.change(&id, &setup.plan_id, BUYER_KEY).await;
    let other_merchant = setup.change(&id, &foreign, BUYER_KEY).await;

    assert_eq!(
        (wrong_signer.status, wrong_signer.json["error"].as_str()),
        (400, Some("signer_mismatch")),
        "{}",
        wrong_signer.json
    );
    assert_eq!(other_customer.status, 403, "{}", other_customer.json);
    assert_eq!(same_plan.json["error"], "same_plan", "{}", same_plan.json);
    assert_eq!(
        other_merchant.json["error"], "plan_of_another_merchant",
        "{}",
        other_merchant.json
    );

    let cancel = setup.cancel_signed(&id).await;
    assert_eq!(cancel.status, 200, "{}", cancel.json);
    let canceled = setup.change(&id, &pro, BUYER_KEY).await;

    assert_eq!(
        canceled.json["error"], "subscription_canceled",
        "{}",
        canceled.json
    );
    let after = setup.subscription(&id).await;
    assert_eq!(after["planId"], before["planId"]);
    assert_eq!(after["priceUsd"], before["priceUsd"]);
    assert_eq!(setup.balance(BUYER), balance);
    assert!(!setup.is_revoked(&old), "no refused change touched the chain");
}

#[tokio::test(flavor = "multi_thread")]
async fn on_anvil_a_change_retried_under_its_idempotency_key_answers_the_first_answer_and_charges_once() {
    let Some(setup) = setup().await else { return };
    let pro = setup.weekly_plan("Pro box", 19.99).await;
    let (id, _, period_start) = setup.charged_buyer().await;
    setup.four_days_into(period_start).await;
    let (data, signature) = setup.signed_change(&id, &pro, BUYER_KEY).await;
    let body = json!({
        "subscriptionId": id,
        "newPlanId": pro,
        "permissionSignature": signature,
        "permissionData": data,
    });
    let post = || {
        setup
            .api
            .anonymous(Method::POST, "/api/subscriptions/change")
            .header("idempotency-key", "change-1")
            .json(&body)
    };

    let first = send(post()).await;
    let balance = setup.balance(BUYER);
    let replay = send(post()).await;

    assert_eq!(first.status, 200, "{}", first.json);
    assert_eq!((replay.status, &replay.json), (200, &first.json));
    assert_eq!(replay.header("idempotent-replayed"), "true");
    assert_eq!(setup.balance(BUYER), balance, "the replay charged nothing");
}
