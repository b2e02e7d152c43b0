//! A charge accepted by the node but not mined when its run's lease ran out (a congested chain, or a run that
//! died waiting) is not sent again: the next run finds the relayer's transaction still in flight and leaves
//! the claim pending, and the run after it, once the transaction is mined, records the charge from the chain.
//! anvil stops mining to hold the transaction back. Skipped without anvil, except under `CI=true`.

use std::time::Duration;

use serde_json::{Value, json};

use crate::subscriptions_batch_anvil::{Chain, PRICE, batch, create_plan, customer, server, subscribe};

/// The server's default `--subscription-lease-secs`, and a second more.
const PAST_LEASE: Duration = Duration::from_secs(301);

/// One JSON-RPC call to the node at `rpc_url`; panics on an error answer.
pub(crate) async fn rpc(rpc_url: &str, method: &str, params: Value) -> Value {
    let answer: Value = reqwest::Client::new()
        .post(rpc_url)
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(answer.get("error").is_none(), "{method}: {answer}");
    answer["result"].clone()
}

/// (nonce, hash) of every transaction anvil at `rpc_url` holds unmined, by nonce.
pub(crate) async fn unmined(rpc_url: &str) -> Vec<(u64, String)> {
    let pool = rpc(rpc_url, "txpool_content", json!([])).await;
    let mut unmined = Vec::new();
    for by_nonce in pool["pending"]
        .as_object()
        .into_iter()
        .flat_map(|senders| senders.values())
    {
        for (nonce, transaction) in by_nonce.as_object().into_iter().flatten() {
            let hash = transaction["hash"].as_str().unwrap_or_default().to_owned();
            unmined.push((nonce.parse().unwrap(), hash));
        }
    }
    unmined.sort();
    unmined
}

#[tokio::test(flavor = "multi_thread")]
async fn on_anvil_a_charge_still_unmined_after_its_lease_is_recorded_from_the_chain_not_sent_again() {
    let Some(chain) = Chain::start() else { return };
    let api = server(&chain, None).await;
    let plan_id = create_plan(&api, 9.99).await;
    let customers: Vec<_> = (400..403).map(customer).collect();
    chain.fund(&customers, 3 * PRICE).await;
    let mut permissions = Vec::new();
    for customer in &customers {
        // The allowance would let a second charge through: only the server's exactly-once keeps it at one.
        permissions.push(subscribe(&api, &chain, &plan_id, customer, 2 * PRICE).await);
    }
    let rpc_url = chain.anvil.rpc_url.clone();

    rpc(&rpc_url, "evm_setAutomine", json!([false])).await;
    let stuck = tokio::spawn({
        let url = api.app.url("/api/cron/charge-subscriptions");
        async move {
            reqwest::Client::new()
                .post(url)
                .header("x-cron-secret", payments_server::testing::TEST_CRON_SECRET)
                .send()
                .await
        }
    });
    payments_server::testing::eventually(
        "the first run's chargeBatch transaction",
        Duration::from_secs(30),
        || async { (unmined(&rpc_url).await.len() == 1).then_some(()) },
    )
    .await;
    api.app.clock.advance(PAST_LEASE);
    let next = tokio::time::timeout(Duration::from_secs(10), batch(&api))
        .await
        .unwrap_or_else(|_| panic!("the next run sent the charges again while the first's were unmined"));
    let still_unmined = unmined(&rpc_url).await.len();
    rpc(&rpc_url, "anvil_mine", json!(["0x1"])).await;
    rpc(&rpc_url, "evm_setAutomine", json!([true])).await;
    let first = stuck.await.unwrap().unwrap();
    api.app.clock.advance(PAST_LEASE);
    let last = batch(&api).await;

    assert_eq!(still_unmined, 1, "nothing more was sent");
    let statuses: Vec<&Value> = next["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|result| &result["status"])
        .collect();
    assert_eq!(statuses, [&json!("pending"); 3], "{next}");
    // The first run's claims were taken over: it records nothing.
    let first: Value = first.json().await.unwrap();
    assert_eq!(first["processed"], 0, "{first}");
    assert_eq!(last["succeeded"], 3, "{last}");
    for (customer, permission) in customers.iter().zip(&permissions) {
        assert_eq!(chain.spent(permission), PRICE, "{}", customer.address);
        assert_eq!(
            chain.balance(&customer.address),
            2 * PRICE,
            "{}",
            customer.address
        );
    }
}
