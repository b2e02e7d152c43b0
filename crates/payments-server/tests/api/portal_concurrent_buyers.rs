//! Several buyers paying at the same time, on anvil: five receipts of the same amount, five buyers each with
//! an anvil account of their own, the five payments mined in one block. Through the payment page (five tabs
//! of one headless chromium, each with its own injected wallet, all pressing Pay at once) and through plain
//! token transfers. Every
//! receipt ends paid exactly once, by its own buyer's transaction; each receipt's webhooks carry its own
//! buyer and hash (no checkout_success lands on another receipt); tokens move exactly.

use std::time::Duration;

use payments_server::testing::eventually;
use serde_json::{Value, json};

use crate::anvil::BUYER_KEY;
use crate::browser::Browser;
use crate::chain_anvil::{Shop, shop};
use crate::portal_checkout::receipt;
use crate::webhook_receiver::Receiver;

const ANVIL_CHAIN_ID: u64 = 31_337;

/// anvil's default accounts 1 to 5 (0 is the relayer) with their keys: anvil signs for them unlocked, as
/// the page's wallet asks, and `cast` signs with the keys.
const BUYERS: [(&str, &str); 5] = [
    (
        "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
        "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
    ),
    (
        "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
        "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
    ),
    (
        "0x90f79bf6eb2c4f870365e785982e1f101e93b906",
        "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
    ),
    (
        "0x15d34aaf54267db7d7c367839aaf71a00a2c6a65",
        "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a",
    ),
    (
        "0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc",
        "0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba",
    ),
];

/// One receipt per buyer, all of the same amount, each with a webhook receiver of its own.
struct Sale {
    id: String,
    url: String,
    deposit: String,
    amount: u128,
    hook: Receiver,
}

async fn sales(shop: &Shop, prefix: &str) -> Vec<Sale> {
    let mut sales = Vec::new();
    for (index, (buyer, _)) in BUYERS.iter().enumerate() {
        let hook = Receiver::start(&[]).await;
        let id = format!("{prefix}-{index}");
        let (url, deposit, amount) = receipt(shop, &id, &hook.url).await;
        shop.anvil.send(
            BUYER_KEY,
            &shop.token(),
            "mint(address,uint256)",
            &[buyer, &amount.to_string()],
        );
        sales.push(Sale {
            id,
            url,
            deposit,
            amount,
            hook,
        });
    }
    assert!(sales.windows(2).all(|pair| pair[0].amount == pair[1].amount));
    sales
}

/// Each receipt was paid once, by its own buyer's transaction `hashes[i]`, and everything moved exactly:
/// every buyer spent exactly the amount, every deposit was forwarded in full; each receipt's webhooks tell
/// `paid` once with that hash, and `checkout_success` (when the page was used) once with that hash and
/// buyer.
async fn each_paid_once_by_its_own_buyer(shop: &Shop, sales: &[Sale], hashes: &[String], through_page: bool) {
    let distinct: std::collections::HashSet<&String> = hashes.iter().collect();
    assert_eq!(
        distinct.len(),
        BUYERS.len(),
        "one transaction per buyer: {hashes:?}"
    );
    let blocks: std::collections::HashSet<String> = hashes
        .iter()
        .map(|hash| shop.anvil.cast(&["receipt", hash, "blockNumber"]))
        .collect();
    assert_eq!(
        blocks.len(),
        1,
        "the five payments were not mined together: {blocks:?}"
    );
    for ((sale, hash), (buyer, _)) in sales.iter().zip(hashes).zip(BUYERS) {
        let done = shop.wait_for(&sale.id, "completed").await;
        assert_eq!(
            done["transactionHash"].as_str().map(str::to_lowercase),
            Some(hash.to_lowercase()),
            "{} was paid by another transaction",
            sale.id
        );
        assert_eq!(
            shop.anvil.balance(&shop.token(), buyer),
            0,
            "{buyer} spent exactly the amount"
        );
        assert_eq!(
            shop.anvil.balance(&shop.token(), &sale.deposit),
            0,
            "{} forwarded",
            sale.id
        );
        let bodies: Vec<Value> = eventually(
            &format!("the paid webhook of {}", sale.id),
            Duration::from_secs(60),
            || async {
                let bodies: Vec<Value> = sale
                    .hook
                    .received()
                    .iter()
                    .map(|request| request.json())
                    .collect();
                bodies
                    .iter()
                    .any(|body| body["status"] == "paid")
                    .then_some(bodies)
            },
        )
        .await;
        let with =
            |status: &str| -> Vec<&Value> { bodies.iter().filter(|body| body["status"] == status).collect() };
        let paid = with("paid");
        assert_eq!(paid.len(), 1, "{}: {bodies:?}", sale.id);
        assert_eq!(
            paid[0]["transactionHash"].as_str().map(str::to_lowercase),
            Some(hash.to_lowercase()),
            "{}",
            sale.id
        );
        assert_eq!(paid[0]["buyerWallet"].as_str(), Some(buyer), "{}", sale.id);
        for body in &bodies {
            assert_eq!(
                body["receiptId"].as_str(),
                Some(sale.id.as_str()),
                "another receipt's webhook: {body}"
            );
        }
        if through_page {
            let submitted = with("checkout_success");
            assert_eq!(submitted.len(), 1, "{}: {bodies:?}", sale.id);
            assert_eq!(
                submitted[0]["transactionHash"].as_str().map(str::to_lowercase),
                Some(hash.to_lowercase()),
                "{}",
                sale.id
            );
            let connected = with("buyer_logged_in");
            assert_eq!(connected.len(), 1, "{}: {bodies:?}", sale.id);
            assert_eq!(connected[0]["buyerWallet"].as_str(), Some(buyer), "{}", sale.id);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn five_buyers_paying_on_the_page_at_once_each_pay_their_own_receipt_exactly_once() {
    let Some(browser) = Browser::find() else { return };
    let Some(shop) = shop(0).await else { return };
    let sales = sales(&shop, "rush").await;
    let buyers: Vec<Value> = sales
        .iter()
        .zip(BUYERS)
        .map(|(sale, (account, _))| json!({"url": sale.url, "account": account}))
        .collect();

    // No block is mined while the buyers pay: the five transfers wait in the node's pool, each page posts
    // its pending hash (checkout_success), and only then do all five land in one block.
    shop.anvil.cast(&["rpc", "evm_setAutomine", "false"]);
    let one_block = async {
        for sale in &sales {
            eventually(
                &format!("the checkout_success webhook of {}", sale.id),
                Duration::from_secs(60),
                || async {
                    let received = sale.hook.received();
                    received
                        .iter()
                        .any(|request| request.json()["status"] == "checkout_success")
                        .then_some(())
                },
            )
            .await;
        }
        shop.anvil.cast(&["rpc", "evm_setAutomine", "true"]);
        shop.anvil.mine(1);
    };

    let (report, ()) = tokio::join!(
        browser.run(json!({
            "scenario": "concurrent",
            "rpcUrl": shop.anvil.rpc_url,
            "anvilChainId": ANVIL_CHAIN_ID,
            "buyers": buyers,
        })),
        one_block
    );

    let tabs = report["buyers"].as_array().unwrap();
    assert_eq!(tabs.len(), BUYERS.len(), "{report}");
    let mut hashes = Vec::new();
    for (tab, sale) in tabs.iter().zip(&sales) {
        assert_eq!(tab["url"].as_str(), Some(sale.url.as_str()));
        assert!(tab["section"].as_str().unwrap().contains("Paid"), "{tab}");
        hashes.push(tab["hash"].as_str().unwrap().to_owned());
    }
    each_paid_once_by_its_own_buyer(&shop, &sales, &hashes, true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn five_buyers_transferring_at_once_each_pay_their_own_receipt_exactly_once() {
    let Some(shop) = shop(0).await else { return };
    let sales = sales(&shop, "wire").await;
    let token = shop.token();

    // Five transfers sent without waiting, each from its own account to its own receipt's deposit, mined
    // together in one block.
    shop.anvil.cast(&["rpc", "evm_setAutomine", "false"]);
    let hashes: Vec<String> = sales
        .iter()
        .zip(BUYERS)
        .map(|(sale, (_, key))| {
            shop.anvil.cast(&[
                "send",
                "--async",
                "--private-key",
                key,
                &token,
                "transfer(address,uint256)",
                &sale.deposit,
                &sale.amount.to_string(),
            ])
        })
        .collect();
    shop.anvil.cast(&["rpc", "evm_setAutomine", "true"]);
    shop.anvil.mine(1);

    each_paid_once_by_its_own_buyer(&shop, &sales, &hashes, false).await;
}
