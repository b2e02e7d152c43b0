//! Subscription webhooks end to end on the test-mode chain: a plan with a `webhookUrl` gets
//! `subscription.created`, `.charged`, `.charge_failed` and `.canceled`, each signed like receipt webhooks
//! with the API key that set the URL (verified with `webhook-verify`); a session cannot set a target; the
//! public plan list hides it; a charge raises the customer's xp.

use std::time::{Duration, UNIX_EPOCH};

use reqwest::Method;
use serde_json::{Value, json};
use webhook_verify::{ApiKey, Scheme, Verifier, WebhookSecret};

use crate::admin_helpers::admin;
use crate::helpers::{Api, send};
use crate::subscription_helpers::{
    CUSTOMER_KEY, PRICE_UNITS, WEEK_MS, advance_to, customer, run_batch, subscribed,
};
use crate::user_helpers::{get_ok, put_profile};
use crate::webhook_receiver::{Received, Receiver};
use payments_server::testing::TEST_START_MS;

/// A weekly $9.99 plan of the test merchant sending its webhooks to `url`; answers its id.
pub(crate) async fn hooked_plan(api: &Api, url: &str) -> String {
    let reply = send(api.dev(Method::POST, "/api/subscriptions/plans").json(&json!({
        "name": "Weekly box",
        "priceUsd": 9.99,
        "period": "WEEKLY",
        "webhookUrl": url,
    })))
    .await;
    assert_eq!(reply.status, 201, "plan not created: {}", reply.json);
    assert_eq!(reply.json["plan"]["webhookUrl"], url);
    reply.json["plan"]["planId"].as_str().unwrap().to_owned()
}

/// Verifies `request` in both schemes with the merchant's API key, at the time it was signed.
fn verify(api: &Api, request: &Received) {
    let signed_at: u64 = request.header("webhook-timestamp").parse().unwrap();
    let at = UNIX_EPOCH + Duration::from_secs(signed_at);
    let x_service = Verifier::new(ApiKey::new(&api.app.key).unwrap())
        .verify_at(&request.headers, &request.body, at)
        .unwrap();
    let standard = Verifier::standard_webhooks(WebhookSecret::from_api_key(&api.app.key).unwrap())
        .verify_at(&request.headers, &request.body, at)
        .unwrap();
    assert_eq!(x_service.scheme, Scheme::XService);
    assert_eq!(standard.scheme, Scheme::StandardWebhooks);
    assert_eq!(request.header("user-agent"), "Service-Webhook/1.0");
    assert_eq!(request.header("webhook-id"), request.header("x-service-delivery"));
    assert_eq!(request.json()["id"], request.header("x-service-delivery"));
    assert_eq!(request.json()["event"], request.header("x-service-event"));
}

async fn cancel_by_session(api: &Api, id: &str) {
    let session = api.app.admin_for(CUSTOMER_KEY).await;
    let reply = send(
        admin(api, &session, Method::POST, "/api/subscriptions/cancel")
            .json(&json!({"subscriptionId": id, "wallet": customer().to_string()})),
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.json);
}

#[tokio::test]
async fn a_subscriptions_life_sends_four_signed_webhooks_through_the_outbox() {
    let api = Api::spawn().await;
    let receiver = Receiver::start(&[]).await;
    let plan = hooked_plan(&api, &receiver.url).await;
    // Funds for one charge only: the next period's charge fails.
    let id = subscribed(&api, &plan, CUSTOMER_KEY, PRICE_UNITS).await;
    receiver.wait_for(1).await;

    run_batch(&api).await;
    receiver.wait_for_distinct(2).await;
    advance_to(&api, TEST_START_MS + WEEK_MS).await;
    let failed = run_batch(&api).await;
    receiver.wait_for_distinct(3).await;
    cancel_by_session(&api, &id).await;
    let received = receiver.wait_for_distinct(4).await;

    assert_eq!(failed["results"][0]["status"], "failed");
    let bodies: Vec<Value> = received.iter().map(Received::json).collect();
    let events: Vec<&str> = bodies
        .iter()
        .map(|body| body["event"].as_str().unwrap())
        .collect();
    assert_eq!(
        events,
        [
            "subscription.created",
            "subscription.charged",
            "subscription.charge_failed",
            "subscription.canceled"
        ]
    );
    for request in &received {
        verify(&api, request);
    }
    for body in &bodies {
        assert_eq!(body["subscriptionId"], id.as_str());
        assert_eq!(body["planId"], plan.as_str());
        assert_eq!(body["customerWallet"], customer().to_string());
        assert_eq!(body["merchantWallet"], api.app.wallet.to_string());
        assert_eq!(
            (&body["priceUsd"], &body["priceBaseUnits"]),
            (&json!(9.99), &json!("9990000"))
        );
    }
    let charged = &bodies[1]["charge"];
    assert_eq!(charged["periodIndex"], 0);
    assert_eq!(
        (
            charged["grossUsd"].as_f64(),
            charged["feeUsd"].as_f64(),
            charged["netBaseUnits"].as_str()
        ),
        (Some(9.99), Some(0.04995), Some("9940050"))
    );
    assert!(charged["transactionHash"].as_str().unwrap().starts_with("0x"));
    let failure = &bodies[2]["charge"];
    assert_eq!(failure["periodIndex"], 1);
    assert_eq!(failure["transactionHash"], Value::Null);
    assert!(failure["failureReason"].is_string(), "{failure}");
    assert_eq!(
        (bodies[3]["status"].as_str(), bodies[3]["previousStatus"].as_str()),
        (Some("canceled"), Some("active"))
    );
    assert_eq!(bodies[0]["previousStatus"], Value::Null);
    assert_eq!(bodies[0]["timestamp"], TEST_START_MS);
}

#[tokio::test]
async fn a_plan_without_a_webhook_url_sends_nothing() {
    let api = Api::spawn().await;
    let receiver = Receiver::start(&[]).await;
    let plan = crate::subscription_helpers::weekly_plan(&api).await;

    subscribed(&api, &plan, CUSTOMER_KEY, PRICE_UNITS).await;
    run_batch(&api).await;
    // A hooked plan's webhook, sent after the others, shows the dispatcher had its chance.
    let hooked = hooked_plan(&api, &receiver.url).await;
    subscribed(&api, &hooked, crate::subscription_helpers::OTHER_KEY, 0).await;

    let received = receiver.wait_for(1).await;
    assert_eq!(received.len(), 1);
    assert_eq!(received[0].json()["planId"], hooked.as_str());
}

#[tokio::test]
async fn a_session_cannot_set_a_webhook_url_and_the_public_list_hides_it() {
    let api = Api::spawn().await;
    let (session, key) = api.app.merchant_admin().await;
    let merchant = session.wallet.to_string();
    let body = json!({"name": "Pro", "priceUsd": 5, "period": "MONTHLY",
        "webhookUrl": "https://merchant.example/hooks"});

    let refused = send(admin(&api, &session, Method::POST, "/api/subscriptions/plans").json(&body)).await;
    let created = send(
        api.dev_as(&key.key, Method::POST, "/api/subscriptions/plans")
            .json(&body),
    )
    .await;
    let plan = created.json["plan"]["planId"].as_str().unwrap().to_owned();
    let retarget = send(
        admin(&api, &session, Method::PUT, "/api/subscriptions/plans").json(&json!({
            "planId": plan, "wallet": merchant, "webhookUrl": "https://elsewhere.example/hooks"
        })),
    )
    .await;
    let renamed = send(
        admin(&api, &session, Method::PUT, "/api/subscriptions/plans")
            .json(&json!({"planId": plan, "wallet": merchant, "name": "Pro+"})),
    )
    .await;
    let path = format!("/api/subscriptions/plans?wallet={merchant}");
    let public = send(api.anonymous(Method::GET, &path)).await;
    let own = send(api.dev_as(&key.key, Method::GET, &path)).await;
    let removed = send(
        api.dev_as(&key.key, Method::PUT, "/api/subscriptions/plans")
            .json(&json!({"planId": plan, "webhookUrl": null})),
    )
    .await;

    assert_eq!(
        (refused.status, refused.json["error"].as_str()),
        (400, Some("webhook_requires_key")),
        "{}",
        refused.json
    );
    assert_eq!(created.status, 201, "{}", created.json);
    assert_eq!(
        (retarget.status, retarget.json["error"].as_str()),
        (400, Some("webhook_requires_key")),
        "{}",
        retarget.json
    );
    assert_eq!(
        renamed.json["plan"]["webhookUrl"],
        "https://merchant.example/hooks"
    );
    assert_eq!(public.json["plans"].as_array().unwrap().len(), 1);
    assert!(
        public.json["plans"][0].get("webhookUrl").is_none(),
        "{}",
        public.json
    );
    assert_eq!(
        own.json["plans"][0]["webhookUrl"],
        "https://merchant.example/hooks"
    );
    assert!(!own.json.to_string().contains("signingKey"));
    assert_eq!(removed.json["plan"]["webhookUrl"], Value::Null);
}

#[tokio::test]
async fn a_plan_webhook_url_follows_the_receipt_rules() {
    let api = Api::spawn().await;

    let reply = send(api.dev(Method::POST, "/api/subscriptions/plans").json(&json!({
        "name": "Pro", "priceUsd": 5, "period": "MONTHLY", "webhookUrl": "ftp://merchant.example/hooks"
    })))
    .await;

    assert_eq!(
        (reply.status, reply.json["field"].as_str()),
        (400, Some("webhookUrl")),
        "{}",
        reply.json
    );
}

#[tokio::test]
async fn a_charge_raises_the_customers_xp() {
    let api = Api::spawn().await;
    let plan = crate::subscription_helpers::weekly_plan(&api).await;
    let session = api.app.admin_for(CUSTOMER_KEY).await;
    let saved = put_profile(&api, &session, json!({"displayName": "Subscriber"})).await;
    assert_eq!(saved.status, 200, "{}", saved.json);
    subscribed(&api, &plan, CUSTOMER_KEY, 3 * PRICE_UNITS).await;

    run_batch(&api).await;
    advance_to(&api, TEST_START_MS + WEEK_MS).await;
    run_batch(&api).await;

    // Two charges of $9.99: 1998 cents of subscription spending, 19 xp (one per whole dollar).
    let user = get_ok(&api, &format!("/api/users/{}", customer())).await;
    assert_eq!(user["xp"], 19);
}
