//! The payment page's "Pay with card" against each provider's documented HTTP API, mocked with wiremock:
//! Stripe (`POST /v1/crypto/onramp_sessions`, form-encoded, Bearer secret key) and Coinbase
//! (`POST /platform/v2/onramp/sessions`, JSON, CDP JWT). The session buys exactly the amount due to the
//! receipt's deposit address on the server's chain; the receipt and its webhooks carry the session id; the
//! tokens arriving pay the receipt like any transfer; provider errors map to the spec's failure categories
//! and change nothing; without a provider there is no button.

use std::time::Duration;

use payments_core::{SPEND_PERMISSION_MANAGER, Wallet};
use payments_server::testing::{TestKey, TestOptions, eventually};
use payments_server::{ChainContracts, OnrampConfig, Secret};
use reqwest::Method;
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

use crate::helpers::{Api, Reply, send};
use crate::orders::merchant_with_split;
use crate::portal::{open_page, press_continue};
use crate::webhook_receiver::Receiver;

const STRIPE_KEY: &str = "sk_test_onramp";
pub(crate) const CDP_KEY_ID: &str = "organizations/org-1/apiKeys/key-1";
/// RFC 8032 test 1 (seed, public key): the CDP Ed25519 secret is their concatenation, base64.
const ED25519_SEED: &str = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";
pub(crate) const ED25519_PUBLIC: &str = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";
const WAIT: Duration = Duration::from_secs(10);

/// Base mainnet's chain id and USDC on the test-mode chain: the providers deliver on Base, never on a
/// local test chain.
fn base_contracts() -> ChainContracts {
    ChainContracts {
        chain_id: 8453,
        token: Wallet::parse("0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913").unwrap(),
        split_factory: Wallet::parse("0x00000000000000000000000000000000000000f1").unwrap(),
        deposit_factory: Wallet::parse("0x00000000000000000000000000000000000000f2").unwrap(),
        spend_permission_manager: Some(Wallet::from_address(SPEND_PERMISSION_MANAGER)),
    }
}

fn cdp_secret() -> Secret {
    use base64::Engine as _;
    let bytes = hex::decode(format!("{ED25519_SEED}{ED25519_PUBLIC}")).unwrap();
    Secret::new(base64::engine::general_purpose::STANDARD.encode(bytes))
}

pub(crate) async fn spawn(onramp: Option<OnrampConfig>) -> Api {
    Api::spawn_with(TestOptions {
        chain_contracts: Some(base_contracts()),
        onramp,
        ..TestOptions::default()
    })
    .await
}

fn stripe(server: &MockServer) -> OnrampConfig {
    OnrampConfig::stripe(Secret::new(STRIPE_KEY), Some(server.uri().parse().unwrap())).unwrap()
}

pub(crate) fn coinbase(server: &MockServer) -> OnrampConfig {
    OnrampConfig::coinbase(CDP_KEY_ID, &cdp_secret(), Some(server.uri().parse().unwrap())).unwrap()
}

/// A receipt of $12.65 with its own deposit address (and optionally a webhook); returns that address.
pub(crate) async fn receipt(api: &Api, key: &TestKey, id: &str, webhook: Option<&str>) -> String {
    let mut body = json!({
        "id": id,
        "lineItems": [{"label": "Pour-over kettle", "priceUsd": 12.65}],
        "totalUsd": 12.65,
        "redirect_url": "https://shop.example/thanks",
    });
    if let Some(url) = webhook {
        body["webhook_url"] = json!(url);
    }
    let created = send(api.dev_as(&key.key, Method::POST, "/api/receipts").json(&body)).await;
    assert_eq!(created.status, 201, "{}", created.json);
    read(api, key, id).await["payment"]["to"]
        .as_str()
        .unwrap()
        .to_owned()
}

pub(crate) async fn read(api: &Api, key: &TestKey, id: &str) -> Value {
    send(api.dev_as(&key.key, Method::GET, &format!("/api/receipts/{id}")))
        .await
        .json
}

/// The page's script pressing "Pay with card".
pub(crate) async fn press_card(api: &Api, key: &TestKey, id: &str) -> Reply {
    let url = format!("/portal/{id}/onramp?merchant={}", key.wallet);
    send(
        api.anonymous(Method::POST, &url)
            .header("accept", "application/json"),
    )
    .await
}

fn form_of(request: &Request) -> Vec<(String, String)> {
    url::form_urlencoded::parse(&request.body).into_owned().collect()
}

fn field<'a>(form: &'a [(String, String)], name: &str) -> Option<&'a str> {
    form.iter()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.as_str())
}

fn stripe_session(id: &str) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({
        "id": id,
        "object": "crypto.onramp_session",
        "client_secret": format!("{id}_secret_x"),
        "livemode": false,
        "redirect_url": format!("https://crypto.link.com?session_hash={id}"),
        "status": "initialized",
        "transaction_details": {"destination_amount": "12.65", "destination_currency": "usdc"},
    }))
}

#[tokio::test]
async fn without_a_provider_the_page_has_no_card_button_and_the_route_is_not_found() {
    let api = spawn(None).await;
    let merchant = merchant_with_split(&api).await;
    receipt(&api, &merchant.key, "card-0", None).await;
    let page = format!("/portal/card-0?merchant={}", merchant.key.wallet);
    assert_eq!(press_continue(&api, &page).await.0, 303);

    let (status, _, html) = open_page(&api, &page).await;
    let pressed = press_card(&api, &merchant.key, "card-0").await;

    assert_eq!(status, 200);
    assert!(html.contains("Connect wallet"), "{html}");
    assert!(!html.contains("Pay with card"), "{html}");
    assert_eq!(pressed.status, 404);
    assert_eq!(pressed.json["error"], "not_found");
}

#[tokio::test]
async fn stripe_gets_a_locked_session_for_exactly_the_amount_due_at_the_receipts_deposit_address() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/crypto/onramp_sessions"))
        .respond_with(stripe_session("cos_test_1"))
        .mount(&server)
        .await;
    let api = spawn(Some(stripe(&server))).await;
    let merchant = merchant_with_split(&api).await;
    let deposit = receipt(&api, &merchant.key, "card-1", None).await;
    let page = format!("/portal/card-1?merchant={}", merchant.key.wallet);
    assert_eq!(press_continue(&api, &page).await.0, 303);

    let (_, _, html) = open_page(&api, &page).await;
    let pressed = press_card(&api, &merchant.key, "card-1").await;

    assert!(html.contains("Pay with card"), "{html}");
    assert!(
        html.contains("Buy exactly 12.65 USDC with a card through Stripe"),
        "{html}"
    );
    assert_eq!(pressed.status, 200, "{}", pressed.json);
    assert_eq!(
        pressed.json,
        json!({"provider": "stripe", "sessionId": "cos_test_1",
               "url": "https://crypto.link.com?session_hash=cos_test_1", "reused": false})
    );
    let requests = server.received_requests().await.unwrap();
    assert_eq!(requests.len(), 1);
    let request = &requests[0];
    assert_eq!(request.headers["authorization"], format!("Bearer {STRIPE_KEY}"));
    assert_eq!(
        request.headers["content-type"],
        "application/x-www-form-urlencoded"
    );
    let form = form_of(request);
    let checksummed = Wallet::parse(&deposit).unwrap().to_checksum();
    assert_eq!(field(&form, "wallet_addresses[base]"), Some(checksummed.as_str()));
    assert_eq!(field(&form, "lock_wallet_address"), Some("true"));
    assert_eq!(field(&form, "destination_amount"), Some("12.65"));
    assert_eq!(field(&form, "destination_currency"), Some("usdc"));
    assert_eq!(field(&form, "destination_currencies[0]"), Some("usdc"));
    assert_eq!(field(&form, "destination_network"), Some("base"));
    assert_eq!(field(&form, "destination_networks[0]"), Some("base"));
    assert_eq!(field(&form, "metadata[receipt_id]"), Some("card-1"));
    assert_eq!(field(&form, "customer_ip_address"), Some("127.0.0.1"));
}

#[tokio::test]
async fn a_second_press_reuses_a_fresh_stripe_session_and_an_old_one_is_replaced() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/crypto/onramp_sessions"))
        .respond_with(stripe_session("cos_test_2"))
        .mount(&server)
        .await;
    let api = spawn(Some(stripe(&server))).await;
    let merchant = merchant_with_split(&api).await;
    receipt(&api, &merchant.key, "card-2", None).await;

    let first = press_card(&api, &merchant.key, "card-2").await;
    let again = press_card(&api, &merchant.key, "card-2").await;
    api.app.clock.advance(Duration::from_secs(5 * 60));
    let later = press_card(&api, &merchant.key, "card-2").await;

    assert_eq!(first.json["reused"], false);
    assert_eq!(again.json["reused"], true);
    assert_eq!(again.json["sessionId"], "cos_test_2");
    assert_eq!(later.json["reused"], false);
    assert_eq!(server.received_requests().await.unwrap().len(), 2);
}

#[tokio::test]
async fn the_receipt_and_its_webhooks_carry_the_session_and_the_tokens_arriving_pay_it() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/crypto/onramp_sessions"))
        .respond_with(stripe_session("cos_test_3"))
        .mount(&server)
        .await;
    let api = spawn(Some(stripe(&server))).await;
    let merchant = merchant_with_split(&api).await;
    let hook = Receiver::start(&[]).await;
    let deposit = receipt(&api, &merchant.key, "card-3", Some(&hook.url)).await;
    let before = read(&api, &merchant.key, "card-3").await;

    assert_eq!(press_card(&api, &merchant.key, "card-3").await.status, 200);
    let recorded = read(&api, &merchant.key, "card-3").await;
    // The provider delivers the purchased tokens to the deposit address: a transfer like any other.
    let amount = recorded["payment"]["amount"].as_str().unwrap().parse().unwrap();
    api.app
        .chain()
        .pay(Wallet::parse(&deposit).unwrap(), amount)
        .await;

    assert_eq!(before["onrampSessionId"], Value::Null);
    assert_eq!(before["isOnrampSessionUnique"], false);
    assert_eq!(recorded["onrampSessionId"], "cos_test_3");
    assert_eq!(recorded["isOnrampSessionUnique"], true);
    assert_eq!(
        recorded["status"], before["status"],
        "a session is no status change"
    );
    assert_eq!(amount, 12_650_000);
    let paid = eventually("the paid webhook", WAIT, || async {
        hook.received()
            .into_iter()
            .map(|request| request.json())
            .find(|body| body["status"] == "paid")
    })
    .await;
    assert_eq!(paid["onrampSessionId"], "cos_test_3");
    assert_eq!(paid["isOnrampSessionUnique"], true);
    let settled = read(&api, &merchant.key, "card-3").await;
    assert!(
        ["paid", "completed"].contains(&settled["status"].as_str().unwrap()),
        "{settled}"
    );
    assert_eq!(settled["onrampSessionId"], "cos_test_3");
}

/// Mounts one answer of the provider's session route, presses the button, and returns the reply.
pub(crate) async fn refused_with(
    server: &MockServer,
    route: &str,
    answer: ResponseTemplate,
    api: &Api,
    key: &TestKey,
) -> Reply {
    server.reset().await;
    Mock::given(method("POST"))
        .and(path(route))
        .respond_with(answer)
        .mount(server)
        .await;
    press_card(api, key, "card-4").await
}

fn stripe_error(status: u16, code: &str) -> ResponseTemplate {
    ResponseTemplate::new(status).set_body_json(json!({
        "error": {"type": "invalid_request_error", "code": code, "message": "provider says no (sk_test_onramp)"}
    }))
}

#[tokio::test]
async fn stripe_errors_map_to_failure_categories_and_leave_the_receipt_unchanged() {
    let server = MockServer::start().await;
    let config = stripe(&server).with_timeout(Duration::from_millis(300));
    let api = spawn(Some(config)).await;
    let merchant = merchant_with_split(&api).await;
    receipt(&api, &merchant.key, "card-4", None).await;
    let route = "/v1/crypto/onramp_sessions";
    let cases = [
        (
            stripe_error(400, "crypto_onramp_unsupported_country"),
            "compliance",
            "PORTAL_ONRAMP_COMPLIANCE",
        ),
        (
            stripe_error(400, "amount_too_small"),
            "limits",
            "PORTAL_ONRAMP_LIMITS",
        ),
        (
            stripe_error(400, "parameter_invalid_empty"),
            "system",
            "PORTAL_ONRAMP_REJECTED",
        ),
        (
            stripe_error(401, "api_key_expired"),
            "system",
            "PORTAL_ONRAMP_NOT_AUTHORIZED",
        ),
        (stripe_error(429, "rate_limit"), "system", "PORTAL_ONRAMP_BUSY"),
        (
            ResponseTemplate::new(500),
            "system",
            "PORTAL_ONRAMP_PROVIDER_ERROR",
        ),
        (
            ResponseTemplate::new(200).set_body_json(json!({"id": "cos_x"})),
            "system",
            "PORTAL_ONRAMP_PROVIDER_ERROR",
        ),
        (
            stripe_session("cos_late").set_delay(Duration::from_secs(3)),
            "system",
            "PORTAL_ONRAMP_UNREACHABLE",
        ),
    ];

    for (answer, category, code) in cases {
        let reply = refused_with(&server, route, answer, &api, &merchant.key).await;

        assert_eq!(reply.status, 502, "{code}: {}", reply.json);
        assert_eq!(reply.json["error"], "onramp_failed");
        assert_eq!(reply.json["failureCategory"], category, "{code}");
        assert_eq!(reply.json["failureCode"], code);
        assert!(
            !reply.json["message"].as_str().unwrap().contains("sk_test"),
            "the provider's words stay in the log: {}",
            reply.json
        );
    }
    let receipt = read(&api, &merchant.key, "card-4").await;
    assert_eq!(receipt["onrampSessionId"], Value::Null);
    assert_eq!(receipt["status"], "pending");
    assert!(receipt.get("failureCategory").is_none(), "{receipt}");
}

#[tokio::test]
async fn a_paid_or_expired_receipt_refuses_a_card_session_without_asking_the_provider() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(stripe_session("cos_never"))
        .expect(0)
        .mount(&server)
        .await;
    let api = spawn(Some(stripe(&server))).await;
    let merchant = merchant_with_split(&api).await;
    let deposit = receipt(&api, &merchant.key, "card-6", None).await;
    receipt(&api, &merchant.key, "card-7", None).await;
    api.app
        .chain()
        .pay(Wallet::parse(&deposit).unwrap(), 12_650_000)
        .await;
    eventually("card-6 to be paid", WAIT, || async {
        let status = read(&api, &merchant.key, "card-6").await["status"].clone();
        (status == "paid" || status == "completed").then_some(())
    })
    .await;

    let paid = press_card(&api, &merchant.key, "card-6").await;
    api.app.clock.advance(Duration::from_secs(61 * 60));
    let expired = press_card(&api, &merchant.key, "card-7").await;
    let unknown = press_card(&api, &merchant.key, "no-such-receipt").await;

    assert_eq!(paid.status, 409, "{}", paid.json);
    assert_eq!(paid.json["error"], "invalid_transition");
    assert!(paid.json["message"].as_str().unwrap().contains("already paid"));
    assert_eq!(expired.status, 409, "{}", expired.json);
    assert!(
        expired.json["message"]
            .as_str()
            .unwrap()
            .contains("payment window")
    );
    assert_eq!(unknown.status, 404);
}

#[tokio::test]
async fn without_javascript_the_form_post_answers_a_page_linking_to_the_provider() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/crypto/onramp_sessions"))
        .respond_with(stripe_session("cos_test_8"))
        .mount(&server)
        .await;
    let api = spawn(Some(stripe(&server))).await;
    let merchant = merchant_with_split(&api).await;
    receipt(&api, &merchant.key, "card-8", None).await;
    let url = format!("/portal/card-8/onramp?merchant={}", merchant.key.wallet);

    let response = api.anonymous(Method::POST, &url).send().await.unwrap();

    assert_eq!(response.status(), 200);
    let csp = response.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(csp.contains("form-action 'self'"), "{csp}");
    let html = response.text().await.unwrap();
    assert!(
        html.contains("<a class=\"button\" href=\"https://crypto.link.com?session_hash=cos_test_8\" rel=\"noreferrer\">Continue to Stripe</a>"),
        "{html}"
    );
    assert!(
        html.contains(&format!("href=\"../card-8?merchant={}\"", merchant.key.wallet)),
        "{html}"
    );
}
