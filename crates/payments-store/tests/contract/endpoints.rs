//! [`WebhookEndpointRepository`]: every event of a merchant fans out to its enabled, matching endpoints in
//! the transaction that records it; the per-merchant limit holds under a race; rotation, recovery,
//! disabling and deletion.

use std::sync::Arc;

use tokio::sync::Barrier;

use crate::Repositories;
use crate::fixtures::{T0, wallet};
use crate::outbox::due_deliveries;
use payments_core::Wallet;
use payments_domain::webhook_endpoint::EndpointId;
use payments_store::{
    AttemptRecord, Claim, DeliveryNext, DeliveryOwner, DeliveryQuery, DueDelivery, EndpointChange,
    EndpointRefused, NewEndpoint,
};

fn new_endpoint(merchant: Wallet, events: &[&str], secret: u8) -> NewEndpoint {
    NewEndpoint {
        id: EndpointId::generate(),
        wallet: merchant,
        url: format!("https://hooks.example.com/{secret}"),
        events: events.iter().map(|event| (*event).to_owned()).collect(),
        description: None,
        enabled: true,
        sealed_secret: vec![secret; 48],
        now_ms: T0,
    }
}

async fn created(repos: &Repositories, endpoint: &NewEndpoint) -> EndpointId {
    repos
        .endpoints
        .create_endpoint(endpoint, 16)
        .await
        .unwrap()
        .unwrap();
    endpoint.id.clone()
}

async fn claim(repos: &Repositories, now: i64) -> Vec<DueDelivery> {
    repos
        .outbox
        .claim_due(&Claim::new(now, now + 60_000, 100))
        .await
        .unwrap()
}

fn endpoint_of(due: &DueDelivery) -> Option<&str> {
    match &due.owner {
        DeliveryOwner::Endpoint { endpoint, .. } => Some(endpoint.as_str()),
        _ => None,
    }
}

fn all() -> DeliveryQuery {
    DeliveryQuery {
        limit: 100,
        ..DeliveryQuery::default()
    }
}

pub(crate) async fn an_event_reaches_each_enabled_matching_endpoint_of_its_merchant_only(
    repos: Repositories,
) {
    let merchant = wallet('a');
    let receipts = created(&repos, &new_endpoint(merchant, &["receipt.*"], 1)).await;
    let subscriptions = created(&repos, &new_endpoint(merchant, &["subscription.*"], 2)).await;
    let mut off = new_endpoint(merchant, &["*"], 3);
    off.enabled = false;
    created(&repos, &off).await;
    let others = created(&repos, &new_endpoint(wallet('b'), &["*"], 4)).await;

    due_deliveries(&repos, 1).await;
    let due = claim(&repos, T0 + 2_000).await;

    let to_endpoints: Vec<&DueDelivery> = due.iter().filter(|due| endpoint_of(due).is_some()).collect();
    assert_eq!(due.len(), 2, "the receipt's own delivery and one endpoint's");
    assert_eq!(to_endpoints.len(), 1);
    let delivery = to_endpoints[0];
    assert_eq!(endpoint_of(delivery), Some(receipts.as_str()));
    assert_eq!(delivery.sealed_signing_key, Some(vec![1; 48]));
    assert_eq!(delivery.previous_signing_key, None);
    assert_eq!(delivery.url, "https://hooks.example.com/1");
    let body: serde_json::Value = serde_json::from_slice(&delivery.body).unwrap();
    assert_eq!(body["type"], "receipt.paid");
    assert_eq!(body["createdAt"], T0 + 1_000);
    assert_eq!(body["data"]["receiptId"], "r-0");
    let log = repos
        .endpoints
        .endpoint_deliveries(merchant, &receipts, &all())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(log.len(), 1);
    assert_eq!(
        (log[0].event_type.as_str(), log[0].state.as_str()),
        ("receipt.paid", "pending")
    );
    assert!(
        repos
            .endpoints
            .endpoint_deliveries(merchant, &subscriptions, &all())
            .await
            .unwrap()
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        repos
            .endpoints
            .endpoint_deliveries(merchant, &others, &all())
            .await
            .unwrap(),
        None
    );
}

pub(crate) async fn parallel_creates_never_pass_the_per_merchant_limit(repos: Repositories) {
    let merchant = wallet('a');
    let barrier = Arc::new(Barrier::new(6));
    let creates: Vec<_> = (0..6)
        .map(|n| {
            let (repos, barrier) = (repos.clone(), barrier.clone());
            tokio::spawn(async move {
                barrier.wait().await;
                repos
                    .endpoints
                    .create_endpoint(&new_endpoint(merchant, &["*"], n), 3)
                    .await
                    .unwrap()
            })
        })
        .collect();

    let mut refused = 0;
    for create in creates {
        if create.await.unwrap() == Err(EndpointRefused::LimitReached) {
            refused += 1;
        }
    }

    assert_eq!(refused, 3);
    assert_eq!(repos.endpoints.list_endpoints(merchant).await.unwrap().len(), 3);
}

pub(crate) async fn a_rotation_keeps_the_previous_secret_and_recover_queues_failed_deliveries_again(
    repos: Repositories,
) {
    let merchant = wallet('a');
    let id = created(&repos, &new_endpoint(merchant, &["*"], 1)).await;
    let rotated = repos
        .endpoints
        .rotate_endpoint_secret(merchant, &id, &[9; 48], T0 + 86_400_000, T0)
        .await
        .unwrap()
        .unwrap();
    due_deliveries(&repos, 1).await;
    let due = claim(&repos, T0 + 2_000).await;
    let delivery = due.iter().find(|due| endpoint_of(due).is_some()).unwrap();
    repos
        .outbox
        .record_attempt(&AttemptRecord {
            delivery_rowid: delivery.rowid,
            attempt: delivery.attempt,
            status_code: Some(500),
            error: Some("receiver answered 500".to_owned()),
            started_at: T0 + 2_000,
            finished_at: T0 + 2_010,
            duration_ms: 10,
            next: DeliveryNext::Failed,
        })
        .await
        .unwrap();

    let failing = repos
        .endpoints
        .fetch_endpoint(merchant, &id)
        .await
        .unwrap()
        .unwrap();
    let recovered = repos
        .endpoints
        .recover_endpoint(merchant, &id, T0, T0 + 3_000)
        .await
        .unwrap();
    let again = claim(&repos, T0 + 3_000).await;

    assert_eq!(rotated.previous_secret_expires_at, Some(T0 + 86_400_000));
    assert_eq!(delivery.sealed_signing_key, Some(vec![9; 48]));
    assert_eq!(
        delivery
            .previous_signing_key
            .as_ref()
            .map(|key| (key.sealed.clone(), key.until_ms)),
        Some((vec![1; 48], T0 + 86_400_000))
    );
    assert_eq!(failing.failing_since, Some(T0 + 2_010));
    assert_eq!(recovered, Some(1));
    assert_eq!(again.len(), 1);
    assert_eq!(
        (again[0].rowid, again[0].attempt, again[0].round_attempt),
        (delivery.rowid, 2, 1)
    );
}

pub(crate) async fn a_disabled_endpoint_is_not_claimed_and_a_deleted_one_takes_its_deliveries(
    repos: Repositories,
) {
    let merchant = wallet('a');
    let id = created(&repos, &new_endpoint(merchant, &["*"], 1)).await;
    due_deliveries(&repos, 1).await;
    let disable = EndpointChange {
        enabled: Some(false),
        ..EndpointChange::default()
    };

    repos
        .endpoints
        .update_endpoint(merchant, &id, &disable, T0 + 1_500)
        .await
        .unwrap()
        .unwrap();
    let while_disabled = claim(&repos, T0 + 2_000).await;
    let deleted = repos.endpoints.delete_endpoint(merchant, &id).await.unwrap();
    let deleted_again = repos.endpoints.delete_endpoint(merchant, &id).await.unwrap();

    assert!(while_disabled.iter().all(|due| endpoint_of(due).is_none()));
    assert_eq!(while_disabled.len(), 1);
    assert!(deleted);
    assert!(!deleted_again);
    assert_eq!(repos.endpoints.fetch_endpoint(merchant, &id).await.unwrap(), None);
    // Only the receipt's own delivery is left.
    assert_eq!(repos.outbox.depth(T0 + 100_000).await.unwrap().pending, 1);
}
