//! The split transactions and reserve balances read from a real node (anvil) through JSON-RPC: the same
//! answers as on the test-mode chain, from `eth_getLogs`, block headers and `balanceOf`.

use std::time::Duration;

use payments_server::testing::eventually;
use reqwest::Method;
use serde_json::{Value, json};

use crate::chain_anvil::{PARTNER, PLATFORM, shop};
use crate::helpers::send;

const WAIT: Duration = Duration::from_secs(30);

fn usd(units: u128) -> Value {
    json!(units as f64 / 1_000_000.0)
}

#[tokio::test]
async fn on_anvil_the_split_lists_the_forwarded_deposit_and_its_distribution_and_balances_match_the_node() {
    let Some(shop) = shop(1).await else { return };
    let (id, deposit, amount) = shop.order("mug", 12.37).await;
    shop.pay(&deposit, amount);
    shop.anvil.mine(1);
    shop.wait_for(&id, "completed").await;
    // One more block confirms the distribution (the listing reads confirmed blocks only).
    shop.anvil.mine(1);

    let listed = eventually("the inflow and the payout", WAIT, || async {
        let reply = send(
            shop.api
                .dev_as(&shop.key.key, Method::GET, "/api/split/transactions"),
        )
        .await;
        assert_eq!(reply.status, 200, "{}", reply.json);
        (reply.json.as_array().map(Vec::len) == Some(2)).then_some(reply.json)
    })
    .await;
    let balances = send(
        shop.api
            .dev_as(&shop.key.key, Method::GET, "/api/reserve/balances"),
    )
    .await;

    let token = shop.token();
    let platform = shop.anvil.balance(&token, PLATFORM);
    let owner = shop.anvil.balance(&token, &shop.admin.wallet.to_string());
    let (payout, inflow) = (&listed[0], &listed[1]);
    assert_eq!(payout["status"], "distributed");
    assert_eq!(payout["amount"], usd(amount));
    assert_eq!(payout["fees"], usd(platform));
    assert_eq!(inflow["status"], "received");
    assert_eq!(inflow["receiptId"], json!(id));
    assert_eq!(inflow["amount"], usd(amount));
    assert_eq!(inflow["fees"], usd(platform));
    let timestamp = payout["timestamp"].as_str().unwrap();
    assert!(timestamp.len() == 20 && timestamp.ends_with('Z'), "{timestamp}");
    assert_eq!(balances.status, 200, "{}", balances.json);
    assert_eq!(balances.json["split"]["balance"], "0");
    assert_eq!(balances.json["wallet"]["balance"], json!(owner.to_string()));
    assert!(shop.anvil.balance(&token, PARTNER) > 0);
}
