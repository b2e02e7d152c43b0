//! `Idempotency-Key` on `POST /api/subscriptions/plans` (per merchant) and `POST /api/subscriptions/create`
//! (per customer wallet): a replay answers the first response byte for byte, another body under the key is
//! 409 `idempotency_conflict`, parallel duplicates create one row, refusals are not remembered.

use futures_util::future::join_all;
use payments_server::testing::wallet_of_key;
use reqwest::{Method, RequestBuilder};
use serde_json::{Value, json};

use crate::helpers::{Api, Raw, send, send_raw};
use crate::idempotency::lose_kept_answer;
use crate::subscription_helpers::{CUSTOMER_KEY, OTHER_KEY, create_body, weekly_permission, weekly_plan};

fn json_of(raw: &Raw) -> Value {
    serde_json::from_slice(&raw.body).unwrap()
}

fn plan_body(name: &str) -> Value {
    json!({ "name": name, "description": "a box", "priceUsd": 9.99, "period": "WEEKLY" })
}

fn create_plan(api: &Api, key: &str, body: &Value) -> RequestBuilder {
    api.dev(Method::POST, "/api/subscriptions/plans")
        .header("Idempotency-Key", key)
        .json(body)
}

fn subscribe(api: &Api, key: &str, body: &Value) -> RequestBuilder {
    api.anonymous(Method::POST, "/api/subscriptions/create")
        .header("Idempotency-Key", key)
        .json(body)
}

/// The create body of `customer_key`'s permission (salt `salt`) for `plan_id`.
fn subscription_body(api: &Api, plan_id: &str, customer_key: [u8; 32], salt: u64) -> Value {
    let permission = weekly_permission(api, wallet_of_key(customer_key), salt);
    create_body(api, plan_id, customer_key, &permission)
}

async fn active_plans(api: &Api) -> usize {
    let wallet = api.app.wallet;
    let reply = send(api.anonymous(Method::GET, &format!("/api/subscriptions/plans?wallet={wallet}"))).await;
    reply.json["plans"].as_array().unwrap().len()
}

async fn subscriptions_of(api: &Api, customer_key: [u8; 32]) -> usize {
    let customer = wallet_of_key(customer_key);
    let reply = send(api.anonymous(
        Method::GET,
        &format!("/api/subscriptions/status?customer={customer}"),
    ))
    .await;
    reply.json["subscriptions"].as_array().unwrap().len()
}

#[tokio::test]
async fn a_plan_create_resent_with_its_key_answers_the_first_response_byte_for_byte() {
    let api = Api::spawn().await;
    let body = plan_body("Weekly box");

    let first = send_raw(create_plan(&api, "plan-1", &body)).await;
    let second = send_raw(create_plan(&api, "plan-1", &body)).await;

    assert_eq!((first.status, first.replayed), (201, false));
    assert_eq!((second.status, second.replayed), (201, true));
    assert_eq!(second.body, first.body);
    assert_eq!(active_plans(&api).await, 1);
}

#[tokio::test]
async fn a_plan_key_sent_with_another_body_is_an_idempotency_conflict() {
    let api = Api::spawn().await;
    assert_eq!(
        send(create_plan(&api, "plan-1", &plan_body("Weekly box")))
            .await
            .status,
        201
    );

    let reply = send(create_plan(&api, "plan-1", &plan_body("Monthly box"))).await;

    assert_eq!(reply.status, 409);
    assert_eq!(reply.json["error"], "idempotency_conflict");
    assert_eq!(active_plans(&api).await, 1);
}

#[tokio::test]
async fn a_malformed_key_is_refused_before_any_plan_is_made() {
    let api = Api::spawn().await;

    let reply = send(create_plan(&api, &"k".repeat(256), &plan_body("Weekly box"))).await;

    assert_eq!(reply.status, 400);
    assert_eq!(reply.json["error"], "invalid_input");
    assert_eq!(active_plans(&api).await, 0);
}

#[tokio::test]
async fn a_refused_plan_create_is_not_remembered() {
    let api = Api::spawn().await;
    let mut free = plan_body("Weekly box");
    free["priceUsd"] = json!(0);
    assert_eq!(send(create_plan(&api, "plan-1", &free)).await.status, 400);

    let fixed = send(create_plan(&api, "plan-1", &plan_body("Weekly box"))).await;

    assert_eq!(fixed.status, 201);
}

#[tokio::test]
async fn a_subscription_create_resent_with_its_key_answers_the_first_response_even_after_the_plan_changed() {
    let api = Api::spawn().await;
    let plan = weekly_plan(&api).await;
    let body = subscription_body(&api, &plan, CUSTOMER_KEY, 1);
    let first = send_raw(subscribe(&api, "sub-1", &body)).await;
    // Checks a fresh create would fail now must not turn the retry of a create that succeeded into a refusal.
    let deactivated = send(
        api.dev(Method::DELETE, "/api/subscriptions/plans")
            .json(&json!({ "planId": plan })),
    )
    .await;
    assert_eq!(deactivated.status, 200, "{}", deactivated.json);

    let second = send_raw(subscribe(&api, "sub-1", &body)).await;

    assert_eq!((first.status, first.replayed), (201, false));
    assert_eq!((second.status, second.replayed), (201, true));
    assert_eq!(second.body, first.body);
    assert_eq!(json_of(&first)["subscription"]["status"], "active");
    assert_eq!(subscriptions_of(&api, CUSTOMER_KEY).await, 1);
}

#[tokio::test]
async fn a_subscription_create_whose_kept_answer_was_lost_is_answered_from_the_subscription_even_after_the_plan_was_deactivated()
 {
    let api = Api::spawn().await;
    let plan = weekly_plan(&api).await;
    let body = subscription_body(&api, &plan, CUSTOMER_KEY, 1);
    let first = send_raw(subscribe(&api, "sub-lost", &body)).await;
    lose_kept_answer(&api, "sub-lost");
    // The checks a fresh create runs would refuse now; the committed create is answered all the same.
    let deactivated = send(
        api.dev(Method::DELETE, "/api/subscriptions/plans")
            .json(&json!({ "planId": plan })),
    )
    .await;
    assert_eq!(deactivated.status, 200, "{}", deactivated.json);

    let recovered = send_raw(subscribe(&api, "sub-lost", &body)).await;
    let again = send_raw(subscribe(&api, "sub-lost", &body)).await;

    assert_eq!((first.status, first.replayed), (201, false));
    assert_eq!(
        (recovered.status, recovered.replayed),
        (201, true),
        "{}",
        json_of(&recovered)
    );
    assert_eq!(recovered.body, first.body);
    assert_eq!((again.status, again.replayed), (201, true));
    assert_eq!(again.body, first.body);
    assert_eq!(subscriptions_of(&api, CUSTOMER_KEY).await, 1);
}

#[tokio::test]
async fn a_subscription_key_sent_with_another_body_is_an_idempotency_conflict() {
    let api = Api::spawn().await;
    let plan = weekly_plan(&api).await;
    let first = subscription_body(&api, &plan, CUSTOMER_KEY, 1);
    assert_eq!(send(subscribe(&api, "sub-1", &first)).await.status, 201);

    let other = subscription_body(&api, &plan, CUSTOMER_KEY, 2);
    let reply = send(subscribe(&api, "sub-1", &other)).await;

    assert_eq!(reply.status, 409);
    assert_eq!(reply.json["error"], "idempotency_conflict");
    assert_eq!(subscriptions_of(&api, CUSTOMER_KEY).await, 1);
}

#[tokio::test]
async fn one_customers_key_never_collides_with_another_customers() {
    let api = Api::spawn().await;
    let plan = weekly_plan(&api).await;

    let mine = send(subscribe(
        &api,
        "shared",
        &subscription_body(&api, &plan, CUSTOMER_KEY, 1),
    ))
    .await;
    let theirs = send(subscribe(
        &api,
        "shared",
        &subscription_body(&api, &plan, OTHER_KEY, 1),
    ))
    .await;

    assert_eq!((mine.status, theirs.status), (201, 201), "{}", theirs.json);
    assert_eq!(
        theirs.json["subscription"]["customer"],
        wallet_of_key(OTHER_KEY).to_string()
    );
    assert_ne!(
        mine.json["subscription"]["subscriptionId"],
        theirs.json["subscription"]["subscriptionId"]
    );
}

#[tokio::test]
async fn a_refused_subscription_create_is_not_remembered() {
    let api = Api::spawn().await;
    let plan = weekly_plan(&api).await;
    let good = subscription_body(&api, &plan, CUSTOMER_KEY, 1);
    let mut forged = good.clone();
    forged["permissionSignature"] =
        subscription_body(&api, &plan, OTHER_KEY, 1)["permissionSignature"].clone();
    let refused = send(subscribe(&api, "sub-1", &forged)).await;
    assert_eq!(refused.status, 400, "{}", refused.json);

    let fixed = send(subscribe(&api, "sub-1", &good)).await;

    assert_eq!(fixed.status, 201, "{}", fixed.json);
}

#[tokio::test]
async fn eight_parallel_identical_subscription_creates_under_one_key_make_one_subscription() {
    let api = Api::spawn().await;
    let plan = weekly_plan(&api).await;
    let body = subscription_body(&api, &plan, CUSTOMER_KEY, 1);

    let replies = join_all((0..8).map(|_| send_raw(subscribe(&api, "sub-once", &body)))).await;

    assert!(replies.iter().all(|reply| reply.status == 201));
    assert!(replies.iter().all(|reply| reply.body == replies[0].body));
    assert_eq!(replies.iter().filter(|reply| reply.replayed).count(), 7);
    assert_eq!(subscriptions_of(&api, CUSTOMER_KEY).await, 1);
}

#[tokio::test]
async fn a_used_key_with_a_forged_signature_is_refused_for_the_signature_before_the_key_is_consulted() {
    let api = Api::spawn().await;
    let plan = weekly_plan(&api).await;
    let first = subscription_body(&api, &plan, CUSTOMER_KEY, 1);
    assert_eq!(send(subscribe(&api, "sub-1", &first)).await.status, 201);
    // Someone who knows the customer's key name but cannot sign for the customer.
    let mut forged = subscription_body(&api, &plan, CUSTOMER_KEY, 2);
    forged["permissionSignature"] =
        subscription_body(&api, &plan, OTHER_KEY, 2)["permissionSignature"].clone();

    let reply = send(subscribe(&api, "sub-1", &forged)).await;

    assert_eq!(
        (reply.status, reply.json["error"].as_str()),
        (400, Some("signer_mismatch")),
        "{}",
        reply.json
    );
    assert_eq!(subscriptions_of(&api, CUSTOMER_KEY).await, 1);
}
