//! The payment page's wallet checkout in a real browser on anvil: connect, pay, and the page shows Paid
//! without a reload; the receipt's webhooks tell buyer_logged_in, checkout_initialized, checkout_success
//! (with the real hash) and paid; tokens move exactly; a wallet on another chain is switched (and the chain
//! added); a refusal leaves the receipt unpaid with Pay available; a forged hash records nothing; without
//! JavaScript the page still shows the QR code. Screenshots at 390 and 1280 px (scripts/screenshots.sh).

use std::path::PathBuf;
use std::time::Duration;

use payments_server::testing::eventually;
use reqwest::Method;
use serde_json::{Value, json};

use crate::anvil::{BUYER, BUYER_KEY};
use crate::browser::Browser;
use crate::chain_anvil::{Shop, shop};
use crate::helpers::send;
use crate::webhook_receiver::Receiver;

const ANVIL_CHAIN_ID: u64 = 31_337;

/// A receipt of $12.50 with a webhook to `hook`; returns (page URL, deposit address, base units).
pub(crate) async fn receipt(shop: &Shop, id: &str, hook: &str) -> (String, String, u128) {
    let body = json!({
        "id": id,
        "lineItems": [{"label": "Pour-over kettle", "priceUsd": 12.5}],
        "totalUsd": 12.5,
        "webhook_url": hook,
        "redirect_url": "https://shop.example/thanks",
    });
    let created = send(
        shop.api
            .dev_as(&shop.key.key, Method::POST, "/api/receipts")
            .json(&body),
    )
    .await;
    assert_eq!(created.status, 201, "{}", created.json);
    let read = send(
        shop.api
            .dev_as(&shop.key.key, Method::GET, &format!("/api/receipts/{id}")),
    )
    .await;
    let payment = &read.json["payment"];
    assert_eq!(payment["chainId"], ANVIL_CHAIN_ID);
    (
        shop.api
            .app
            .url(&format!("/portal/{id}?merchant={}", shop.key.wallet)),
        payment["to"].as_str().unwrap().to_owned(),
        payment["amount"].as_str().unwrap().parse().unwrap(),
    )
}

fn mint_to_buyer(shop: &Shop, amount: u128) {
    shop.anvil.send(
        BUYER_KEY,
        &shop.token(),
        "mint(address,uint256)",
        &[BUYER, &amount.to_string()],
    );
}

/// The statuses the receipt's webhooks reported, in delivery order, once at least `count` arrived.
async fn statuses(hook: &Receiver, count: usize) -> Vec<Value> {
    hook.wait_for(count)
        .await
        .iter()
        .map(|received| received.json())
        .collect()
}

fn wallet_config(scenario: &str, url: &str, shop: &Shop, wallet_chain: u64) -> Value {
    json!({
        "scenario": scenario,
        "url": url,
        "rpcUrl": shop.anvil.rpc_url,
        "account": BUYER,
        "walletChainId": wallet_chain,
        "knownChains": [wallet_chain],
        "anvilChainId": ANVIL_CHAIN_ID,
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_buyer_connects_pays_from_another_chain_and_sees_paid_without_reloading() {
    let Some(browser) = Browser::find() else { return };
    // One confirmation: the transfer counts only once a block is mined on top of it, as on a real chain, so
    // the page's posted hash is verified while the transfer is not yet paid.
    let Some(shop) = shop(1).await else { return };
    let hook = Receiver::start(&[]).await;
    let (url, deposit, amount) = receipt(&shop, "kettle-1", &hook.url).await;
    mint_to_buyer(&shop, amount);
    let before = shop.anvil.balance(&shop.token(), BUYER);
    let confirm = async {
        eventually(
            "the checkout_success webhook",
            Duration::from_secs(60),
            || async {
                let received = hook.received();
                received
                    .iter()
                    .any(|request| request.json()["status"] == "checkout_success")
                    .then_some(())
            },
        )
        .await;
        shop.anvil.mine(1);
    };

    // The wallet starts on chain 1 and does not know anvil's chain: the page must add it and switch.
    let (report, ()) = tokio::join!(browser.run(wallet_config("pay", &url, &shop, 1)), confirm);

    assert_eq!(report["payLabel"], "Pay 12.50 USDC");
    let calls: Vec<&str> = report["calls"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(calls.contains(&"wallet_switchEthereumChain"), "{calls:?}");
    assert!(calls.contains(&"wallet_addEthereumChain"), "{calls:?}");
    assert_eq!(report["walletChainId"], ANVIL_CHAIN_ID);
    assert_eq!(report["badge"], "Paid");
    assert!(
        report["section"].as_str().unwrap().contains("Return to shop"),
        "{report}"
    );
    let shown = report["paidShownMs"].as_u64().unwrap();
    eprintln!("Paid shown {shown} ms after the wallet returned the hash (one block mined in between)");
    assert!(shown < 15_000, "Paid took {shown} ms to show");
    let hash = report["hash"].as_str().unwrap().to_lowercase();
    assert_eq!(
        before - shop.anvil.balance(&shop.token(), BUYER),
        amount,
        "the buyer paid exactly the total"
    );
    let paid = shop.wait_for("kettle-1", "completed").await;
    assert_eq!(
        paid["transactionHash"].as_str().map(str::to_lowercase),
        Some(hash.clone())
    );
    assert_eq!(
        shop.anvil.balance(&shop.token(), &deposit),
        0,
        "the deposit was forwarded in full"
    );

    let bodies = statuses(&hook, 5).await;
    let names: Vec<&str> = bodies.iter().filter_map(|body| body["status"].as_str()).collect();
    for expected in [
        "link_opened",
        "buyer_logged_in",
        "checkout_initialized",
        "checkout_success",
        "paid",
    ] {
        assert!(names.contains(&expected), "{expected} missing from {names:?}");
    }
    let connected = bodies
        .iter()
        .find(|body| body["status"] == "buyer_logged_in")
        .unwrap();
    assert_eq!(connected["buyerWallet"], BUYER);
    let submitted = bodies
        .iter()
        .find(|body| body["status"] == "checkout_success")
        .unwrap();
    assert_eq!(
        submitted["transactionHash"].as_str().map(str::to_lowercase),
        Some(hash)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refusal_in_the_wallet_leaves_the_receipt_unpaid_with_pay_available() {
    let Some(browser) = Browser::find() else { return };
    let Some(shop) = shop(0).await else { return };
    let hook = Receiver::start(&[]).await;
    let (url, deposit, amount) = receipt(&shop, "kettle-2", &hook.url).await;
    mint_to_buyer(&shop, amount);

    let report = browser
        .run(wallet_config("refuse", &url, &shop, ANVIL_CHAIN_ID))
        .await;

    assert!(
        report["message"].as_str().unwrap().contains("Nothing was sent"),
        "{report}"
    );
    assert_eq!(report["payVisible"], true);
    let calls = report["calls"].to_string();
    assert!(!calls.contains("wallet_switchEthereumChain"), "{calls}");
    let read = send(
        shop.api
            .dev_as(&shop.key.key, Method::GET, "/api/receipts/kettle-2"),
    )
    .await;
    assert_eq!(read.json["status"], "checkout_initialized");
    assert_eq!(shop.anvil.balance(&shop.token(), &deposit), 0);
    assert_eq!(
        shop.anvil.balance(&shop.token(), BUYER),
        amount,
        "nothing left the wallet"
    );
}

#[tokio::test]
async fn a_forged_or_foreign_hash_posted_to_the_page_records_nothing() {
    let Some(shop) = shop(0).await else { return };
    let hook = Receiver::start(&[]).await;
    let (_, deposit, amount) = receipt(&shop, "kettle-3", &hook.url).await;
    mint_to_buyer(&shop, amount);
    // A real transaction of the token, but to someone else; and one that pays this deposit in another token
    // cannot be made here, so a transfer of the right token to the wrong address stands for both.
    let elsewhere = shop.anvil.send(
        BUYER_KEY,
        &shop.token(),
        "transfer(address,uint256)",
        &["0x000000000000000000000000000000000000dead", "1"],
    );
    let path = format!("/portal/kettle-3/payment?merchant={}", shop.key.wallet);

    for hash in [
        format!("0x{}", "42".repeat(32)),
        elsewhere,
        "not-a-hash".to_owned(),
    ] {
        let posted = send(
            shop.api
                .anonymous(Method::POST, &path)
                .json(&json!({"transactionHash": hash})),
        )
        .await;
        assert_eq!(posted.status, 400, "{hash}: {}", posted.json);
        assert_eq!(posted.json["error"], "invalid_input");
    }

    let read = send(
        shop.api
            .dev_as(&shop.key.key, Method::GET, "/api/receipts/kettle-3"),
    )
    .await;
    assert_eq!(read.json["status"], "pending");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(hook.received().is_empty(), "no webhook for a refused hash");
    assert_eq!(shop.anvil.balance(&shop.token(), &deposit), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_javascript_the_page_still_shows_the_qr_code_and_hides_the_wallet_buttons() {
    let Some(browser) = Browser::find() else { return };
    let Some(shop) = shop(0).await else { return };
    let hook = Receiver::start(&[]).await;
    let (url, _, _) = receipt(&shop, "kettle-4", &hook.url).await;
    let path = format!("/portal/kettle-4?merchant={}", shop.key.wallet);
    assert_eq!(crate::portal::press_continue(&shop.api, &path).await.0, 303);

    let report = browser
        .run(wallet_config("noscript", &url, &shop, ANVIL_CHAIN_ID))
        .await;

    assert_eq!(report["hasQr"], true, "{report}");
    assert_eq!(report["hasUri"], true, "{report}");
    assert_eq!(report["checkoutHidden"], true, "{report}");
}

/// Where screenshots go: `$PAYMENTS_SCREENSHOT_DIR` (scripts/screenshots.sh sets docs/screenshots), else the
/// test's temp dir.
pub(crate) fn screenshot_dir() -> PathBuf {
    std::env::var_os("PAYMENTS_SCREENSHOT_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("screenshots"),
        PathBuf::from,
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_checkout_page_is_screenshotted_at_phone_and_desktop_widths() {
    let Some(browser) = Browser::find() else { return };
    let Some(shop) = shop(0).await else { return };
    let hook = Receiver::start(&[]).await;
    let (url, _, _) = receipt(&shop, "kettle-5", &hook.url).await;
    let dir = screenshot_dir();
    std::fs::create_dir_all(&dir).unwrap();
    let shots: Vec<Value> = [390, 1280]
        .iter()
        .map(|width| json!({"width": width, "path": dir.join(format!("payment-page-{width}.png"))}))
        .collect();
    let mut config = wallet_config("screenshots", &url, &shop, ANVIL_CHAIN_ID);
    config["screenshots"] = Value::Array(shots);

    let report = browser.run(config).await;

    for path in report["written"].as_array().unwrap() {
        let png = std::fs::read(path.as_str().unwrap()).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "{path}");
        assert!(png.len() > 8 * 1024, "{path} looks blank");
    }
}
