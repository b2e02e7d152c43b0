//! [`OutboxRepository`]: leasing due deliveries, recording attempts, the delivery log and redelivery.

use std::collections::HashSet;
use std::sync::Arc;

use tokio::sync::Barrier;

use crate::Repositories;
use crate::fixtures::{self, T0, wallet};
use payments_store::{AttemptRecord, Claim, DeliveryNext};

/// Receipts `r-0`.. each paid once, so each has one due `receipt.paid` delivery (enqueued at T0 + 1s).
pub(crate) async fn due_deliveries(repos: &Repositories, count: usize) {
    let merchant = wallet('a');
    for n in 0..count {
        let id = format!("r-{n}");
        let sale = fixtures::receipt_sale(fixtures::new_receipt(merchant, &id, 100));
        repos.receipts.create(sale).await.unwrap();
        let paid = fixtures::transition(merchant, &id, fixtures::mark_paid(100));
        repos.receipts.transition(paid).await.unwrap();
    }
}

pub(crate) async fn two_dispatchers_never_claim_the_same_delivery(repos: Repositories) {
    due_deliveries(&repos, 12).await;
    let now = T0 + 2_000;
    let barrier = Arc::new(Barrier::new(2));
    let dispatchers: Vec<_> = (0..2)
        .map(|_| {
            let (repos, barrier) = (repos.clone(), barrier.clone());
            tokio::spawn(async move {
                barrier.wait().await;
                let mut claimed = Vec::new();
                // Twice the rounds the 12 need: a claim passes over rows the other dispatcher is claiming
                // at that moment (SKIP LOCKED), so a round may return fewer than asked (seen behind PgBouncer).
                for _ in 0..12 {
                    claimed.extend(
                        repos
                            .outbox
                            .claim_due(&Claim::new(now, now + 60_000, 2))
                            .await
                            .unwrap(),
                    );
                }
                claimed
            })
        })
        .collect();

    let mut seen = HashSet::new();
    let mut total = 0;
    for dispatcher in dispatchers {
        for delivery in dispatcher.await.unwrap() {
            total += 1;
            assert!(
                seen.insert(delivery.rowid),
                "delivery {} claimed twice",
                delivery.id.as_str()
            );
        }
    }

    assert_eq!((total, seen.len()), (12, 12));
    assert!(
        repos
            .outbox
            .claim_due(&Claim::new(now, now + 60_000, 100))
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        repos
            .outbox
            .claim_due(&Claim::new(now + 60_000, now + 120_000, 100))
            .await
            .unwrap()
            .len(),
        12
    );
}

pub(crate) async fn claimed_deliveries_carry_their_receipt_and_key_in_due_order(repos: Repositories) {
    due_deliveries(&repos, 3).await;

    let claimed = repos
        .outbox
        .claim_due(&Claim::new(T0 + 2_000, T0 + 60_000, 2))
        .await
        .unwrap();

    assert_eq!(claimed.len(), 2);
    let receipts: Vec<&str> = claimed
        .iter()
        .map(|due| due.receipt().unwrap().as_str())
        .collect();
    assert_eq!(receipts, ["r-0", "r-1"]);
    assert_eq!(claimed[0].sealed_signing_key, Some(vec![7; 48]));
    assert_eq!((claimed[0].attempt, claimed[0].round_attempt), (1, 1));
    assert_eq!(
        (claimed[0].event.as_str(), claimed[0].url.as_str()),
        ("receipt.paid", fixtures::HOOK_URL)
    );
    assert!(claimed[0].body.starts_with(b"{\"event\":\"receipt.paid\""));
    assert!(
        repos
            .outbox
            .claim_due(&Claim::new(T0 + 500, T0 + 60_000, 10))
            .await
            .unwrap()
            .is_empty()
    );
}

pub(crate) async fn attempts_show_in_the_log_and_redelivery_starts_a_new_round(repos: Repositories) {
    let merchant = wallet('a');
    due_deliveries(&repos, 1).await;
    let due = repos
        .outbox
        .claim_due(&Claim::new(T0 + 2_000, T0 + 60_000, 10))
        .await
        .unwrap()
        .remove(0);
    let failed = AttemptRecord {
        delivery_rowid: due.rowid,
        attempt: due.attempt,
        status_code: Some(503),
        error: Some("service unavailable".to_owned()),
        started_at: T0 + 2_000,
        finished_at: T0 + 2_050,
        duration_ms: 50,
        next: DeliveryNext::Failed,
    };

    repos.outbox.record_attempt(&failed).await.unwrap();

    let receipt = due.receipt().unwrap().clone();
    let log = repos
        .outbox
        .list_deliveries(merchant, &receipt)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((log[0].state.as_str(), log[0].next_attempt_at), ("failed", None));
    assert_eq!(log[0].attempts.len(), 1);
    assert_eq!(
        (log[0].attempts[0].status_code, log[0].attempts[0].duration_ms),
        (Some(503), 50)
    );
    assert!(
        repos
            .outbox
            .list_deliveries(wallet('c'), &receipt)
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        !repos
            .outbox
            .redeliver(wallet('c'), &receipt, due.id.as_str(), T0 + 3_000)
            .await
            .unwrap()
    );
    assert!(
        !repos
            .outbox
            .redeliver(merchant, &receipt, "no-such-delivery", T0 + 3_000)
            .await
            .unwrap()
    );

    assert!(
        repos
            .outbox
            .redeliver(merchant, &receipt, due.id.as_str(), T0 + 3_000)
            .await
            .unwrap()
    );

    let again = repos
        .outbox
        .claim_due(&Claim::new(T0 + 3_000, T0 + 60_000, 10))
        .await
        .unwrap();
    assert_eq!(again.len(), 1);
    assert_eq!(
        (again[0].id.as_str(), again[0].attempt, again[0].round_attempt),
        (due.id.as_str(), 2, 1)
    );
    assert_eq!(again[0].body, due.body);
}

pub(crate) async fn a_claim_takes_at_most_the_per_endpoint_limit_counting_attempts_in_flight(
    repos: Repositories,
) {
    let merchant = wallet('a');
    let targets = ["https://slow.example"; 5]
        .into_iter()
        .chain(["https://fast.example"]);
    for (n, url) in targets.enumerate() {
        let id = format!("e-{n}");
        let sale = fixtures::receipt_sale(fixtures::new_receipt(merchant, &id, 100));
        repos.receipts.create(sale).await.unwrap();
        let paid = fixtures::transition(merchant, &id, fixtures::mark_paid_to(100, url));
        repos.receipts.transition(paid).await.unwrap();
    }
    let mut claim = Claim::new(T0 + 2_000, T0 + 60_000, 10);
    claim.per_endpoint = 2;
    claim.busy = vec![("https://slow.example".to_owned(), 1)];

    let first = repos.outbox.claim_due(&claim).await.unwrap();
    claim.busy = vec![("https://slow.example".to_owned(), 2)];
    let while_saturated = repos.outbox.claim_due(&claim).await.unwrap();
    claim.busy = Vec::new();
    let after = repos.outbox.claim_due(&claim).await.unwrap();

    let endpoints = |claimed: &[payments_store::DueDelivery]| -> Vec<(String, String)> {
        claimed
            .iter()
            .map(|due| (due.receipt().unwrap().as_str().to_owned(), due.endpoint.clone()))
            .collect()
    };
    assert_eq!(
        endpoints(&first),
        [
            ("e-0".to_owned(), "https://slow.example".to_owned()),
            ("e-5".to_owned(), "https://fast.example".to_owned())
        ]
    );
    assert!(while_saturated.is_empty(), "{:?}", endpoints(&while_saturated));
    assert_eq!(
        endpoints(&after),
        [
            ("e-1".to_owned(), "https://slow.example".to_owned()),
            ("e-2".to_owned(), "https://slow.example".to_owned())
        ]
    );
}

pub(crate) async fn a_redelivery_during_an_attempt_starts_a_new_round_when_it_ends(repos: Repositories) {
    let merchant = wallet('a');
    due_deliveries(&repos, 1).await;
    let due = repos
        .outbox
        .claim_due(&Claim::new(T0 + 2_000, T0 + 60_000, 10))
        .await
        .unwrap()
        .remove(0);
    let receipt = due.receipt().unwrap().clone();

    let queued = repos
        .outbox
        .redeliver(merchant, &receipt, due.id.as_str(), T0 + 2_500)
        .await
        .unwrap();
    let during = repos
        .outbox
        .claim_due(&Claim::new(T0 + 3_000, T0 + 60_000, 10))
        .await
        .unwrap();
    let delivered = AttemptRecord {
        delivery_rowid: due.rowid,
        attempt: due.attempt,
        status_code: Some(200),
        error: None,
        started_at: T0 + 2_000,
        finished_at: T0 + 4_000,
        duration_ms: 2_000,
        next: DeliveryNext::Delivered,
    };
    repos.outbox.record_attempt(&delivered).await.unwrap();
    let log = repos
        .outbox
        .list_deliveries(merchant, &receipt)
        .await
        .unwrap()
        .unwrap();
    let again = repos
        .outbox
        .claim_due(&Claim::new(T0 + 4_000, T0 + 60_000, 10))
        .await
        .unwrap();

    assert!(queued);
    assert!(
        during.is_empty(),
        "the attempt in flight is not sent twice at once"
    );
    assert_eq!(
        (log[0].state.as_str(), log[0].next_attempt_at),
        ("pending", Some(T0 + 4_000))
    );
    assert_eq!(again.len(), 1);
    assert_eq!(
        (again[0].id.as_str(), again[0].attempt, again[0].round_attempt),
        (due.id.as_str(), 2, 1)
    );
}

pub(crate) async fn the_depth_counts_pending_and_in_flight_deliveries_until_they_end(repos: Repositories) {
    due_deliveries(&repos, 3).await;
    let now = T0 + 2_000;

    let before = repos.outbox.depth(now).await.unwrap();
    let claimed = repos
        .outbox
        .claim_due(&Claim::new(now, now + 60_000, 2))
        .await
        .unwrap();
    let leased = repos.outbox.depth(now).await.unwrap();
    let delivered = AttemptRecord {
        delivery_rowid: claimed[0].rowid,
        attempt: claimed[0].attempt,
        status_code: Some(200),
        error: None,
        started_at: now,
        finished_at: now + 10,
        duration_ms: 10,
        next: DeliveryNext::Delivered,
    };
    repos.outbox.record_attempt(&delivered).await.unwrap();
    let after = repos.outbox.depth(now + 10).await.unwrap();
    let leases_over = repos.outbox.depth(now + 60_001).await.unwrap();

    assert_eq!((before.pending, before.in_flight), (3, 0));
    assert_eq!((leased.pending, leased.in_flight), (3, 2));
    assert_eq!((after.pending, after.in_flight), (2, 1));
    assert_eq!((leases_over.pending, leases_over.in_flight), (2, 0));
}
