//! The hosted subscribe page: server-rendered (brand, plan, price, period; a closed plan offers no
//! Subscribe; unknown plans 404), and in a real browser on anvil a customer subscribes with and without a
//! prior approval, the batch charges it, and the page cancels it. Screenshots at 390 and 1280 px
//! (scripts/screenshots.sh).

use payments_server::testing::anvil::{Anvil, BUYER, DEPLOYER_KEY};
use payments_server::testing::{TEST_CRON_SECRET, TestOptions};
use reqwest::Method;
use serde_json::{Value, json};

use crate::browser::Browser;
use crate::helpers::{Api, send};
use crate::portal_checkout::screenshot_dir;
use crate::subscription_helpers::weekly_plan;

const ANVIL_CHAIN_ID: u64 = 31_337;
/// $9.99 and its fee and net in base units.
const PRICE: u128 = 9_990_000;
const NET: u128 = 9_940_050;

/// A server on anvil whose clock is the chain's, with the test merchant's weekly $9.99 plan.
pub(crate) struct PlanOnAnvil {
    pub(crate) anvil: Anvil,
    pub(crate) api: Api,
    pub(crate) token: String,
    pub(crate) manager: String,
    pub(crate) plan_id: String,
}

pub(crate) async fn plan_on_anvil() -> Option<PlanOnAnvil> {
    let anvil = Anvil::start()?;
    let contracts = anvil.bootstrap().await;
    let api = Api::spawn_with(TestOptions {
        node: Some(anvil.node(contracts)),
        ..TestOptions::default()
    })
    .await;
    api.app.clock.set(i64::try_from(anvil.now_secs()).unwrap() * 1000);
    let plan_id = weekly_plan(&api).await;
    Some(PlanOnAnvil {
        token: contracts.token.to_string(),
        manager: contracts.spend_permission_manager.unwrap().to_string(),
        plan_id,
        anvil,
        api,
    })
}

impl PlanOnAnvil {
    fn page_config(&self, scenario: &str) -> Value {
        json!({
            "scenario": scenario,
            "url": self.api.app.url(&format!("/subscribe/{}", self.plan_id)),
            "rpcUrl": self.anvil.rpc_url,
            "account": BUYER,
            "walletChainId": ANVIL_CHAIN_ID,
            "anvilChainId": ANVIL_CHAIN_ID,
        })
    }

    fn fund_buyer(&self) {
        self.anvil.send(
            DEPLOYER_KEY,
            &self.token,
            "mint(address,uint256)",
            &[BUYER, &(2 * PRICE).to_string()],
        );
    }

    async fn buyer_subscriptions(&self) -> Vec<Value> {
        let reply = send(self.api.anonymous(
            Method::GET,
            &format!("/api/subscriptions/status?customer={BUYER}"),
        ))
        .await;
        reply.json["subscriptions"].as_array().unwrap().clone()
    }
}

fn called(report: &Value, method: &str) -> bool {
    report["calls"]
        .as_array()
        .unwrap()
        .iter()
        .any(|call| call == method)
}

#[tokio::test]
async fn the_subscribe_page_names_the_brand_plan_price_and_period_under_the_payment_pages_policy() {
    let api = Api::spawn().await;
    let plan_id = weekly_plan(&api).await;

    let page = get_text(&api, &format!("/subscribe/{plan_id}")).await;
    let script = get_text(&api, "/subscribe/assets/subscribe.js").await;
    let unknown = get_text(&api, "/subscribe/plan_0000").await;

    assert_eq!(page.0, 200);
    assert!(
        page.2.contains("<h1 id=\"plan-heading\">Weekly box</h1>"),
        "{}",
        page.2
    );
    assert!(
        page.2
            .contains("$9.99 <span class=\"amount-usd\">USDC every week</span>")
    );
    assert!(page.2.contains(">Connect wallet</button>"));
    assert!(
        page.1.contains("script-src 'self'; connect-src 'self';"),
        "{}",
        page.1
    );
    assert_eq!(script.0, 200);
    assert!(script.2.contains("eth_signTypedData_v4"));
    assert_eq!(unknown.0, 404);
    assert!(unknown.2.contains("Plan not found"));
}

/// (status, Content-Security-Policy, body) of a GET.
async fn get_text(api: &Api, path: &str) -> (u16, String, String) {
    let response = api.anonymous(Method::GET, path).send().await.unwrap();
    let policy = response
        .headers()
        .get("content-security-policy")
        .map(|value| value.to_str().unwrap().to_owned())
        .unwrap_or_default();
    (response.status().as_u16(), policy, response.text().await.unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_anvil_a_customer_subscribes_from_the_page_approving_first_then_the_batch_charges_and_the_page_cancels()
 {
    let Some(browser) = Browser::find() else { return };
    let Some(setup) = plan_on_anvil().await else {
        return;
    };
    setup.fund_buyer();

    let subscribed = browser
        .run_script("subscribe.mjs", setup.page_config("subscribe"))
        .await;

    assert_eq!(subscribed["label"], "Subscribe for $9.99 every week");
    assert!(called(&subscribed, "eth_sendTransaction"), "{subscribed}");
    assert!(called(&subscribed, "eth_signTypedData_v4"), "{subscribed}");
    assert!(
        subscribed["state"].as_str().unwrap().contains("Next charge: "),
        "{subscribed}"
    );
    assert_eq!(subscribed["cancelVisible"], true);
    let active = setup.buyer_subscriptions().await;
    assert_eq!(active.len(), 1);
    assert_eq!(active[0]["status"], "active");

    let batch = send(
        setup
            .api
            .anonymous(Method::POST, "/api/cron/charge-subscriptions")
            .header("x-cron-secret", TEST_CRON_SECRET),
    )
    .await;
    assert_eq!(batch.json["succeeded"], 1, "{}", batch.json);
    assert_eq!(setup.anvil.balance(&setup.token, BUYER), PRICE);
    assert_eq!(
        setup
            .anvil
            .balance(&setup.token, &setup.api.app.wallet.to_string()),
        NET
    );

    let canceled = browser
        .run_script("subscribe.mjs", setup.page_config("cancel"))
        .await;

    assert!(called(&canceled, "eth_signTypedData_v4"), "{canceled}");
    assert!(canceled["state"].as_str().unwrap().contains("Canceled"));
    assert_eq!(setup.buyer_subscriptions().await[0]["status"], "canceled");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_anvil_a_customer_who_already_approved_subscribes_from_the_page_with_one_signature() {
    let Some(browser) = Browser::find() else { return };
    let Some(setup) = plan_on_anvil().await else {
        return;
    };
    setup.fund_buyer();
    setup.anvil.send(
        payments_server::testing::anvil::BUYER_KEY,
        &setup.token,
        "approve(address,uint256)",
        &[&setup.manager, &PRICE.to_string()],
    );

    let subscribed = browser
        .run_script("subscribe.mjs", setup.page_config("subscribe"))
        .await;

    assert!(!called(&subscribed, "eth_sendTransaction"), "{subscribed}");
    assert!(called(&subscribed, "eth_signTypedData_v4"), "{subscribed}");
    assert_eq!(setup.buyer_subscriptions().await[0]["status"], "active");
    let batch = send(
        setup
            .api
            .anonymous(Method::POST, "/api/cron/charge-subscriptions")
            .header("x-cron-secret", TEST_CRON_SECRET),
    )
    .await;
    assert_eq!(batch.json["succeeded"], 1, "{}", batch.json);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_subscribe_page_is_screenshotted_at_phone_and_desktop_widths() {
    let Some(browser) = Browser::find() else { return };
    let Some(setup) = plan_on_anvil().await else {
        return;
    };
    let dir = screenshot_dir();
    std::fs::create_dir_all(&dir).unwrap();
    let mut config = setup.page_config("screenshots");
    config["screenshots"] = [390, 1280]
        .iter()
        .map(|width| json!({"width": width, "path": dir.join(format!("subscribe-page-{width}.png"))}))
        .collect();

    let report = browser.run_script("subscribe.mjs", config).await;

    for path in report["written"].as_array().unwrap() {
        let png = std::fs::read(path.as_str().unwrap()).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "{path}");
        assert!(png.len() > 8 * 1024, "{path} looks blank");
    }
}
