//! [`ReceiptRepository::transition`]: the locked read, the decision on what it read, and the state,
//! history, outbox and refund rows written with it.

use std::sync::Arc;

use payments_core::{Authority, Cents, ReceiptStatus, TransitionError};
use tokio::sync::Barrier;

use crate::Repositories;
use crate::fixtures::{self, wallet};
use payments_store::testing::fixtures::Refusal;
use payments_store::testing::keeping;
use payments_store::{Committed, TransitionRefused, TxError};

/// Creates merchant `a`'s receipt `id` and marks it paid `paid_cents`.
pub(crate) async fn paid_receipt(repos: &Repositories, id: &str, paid_cents: i64) {
    let merchant = wallet('a');
    let sale = fixtures::receipt_sale(fixtures::new_receipt(merchant, id, paid_cents));
    repos.receipts.create(sale).await.unwrap();
    let paid = fixtures::transition(merchant, id, fixtures::mark_paid(paid_cents));
    repos.receipts.transition(paid).await.unwrap();
}

pub(crate) async fn a_transition_writes_its_state_and_enqueues_its_webhook(repos: Repositories) {
    let merchant = wallet('a');
    let sale = fixtures::receipt_sale(fixtures::new_receipt(merchant, "order-1", 3_000));
    repos.receipts.create(sale).await.unwrap();

    let change = fixtures::transition(merchant, "order-1", fixtures::mark_paid(3_000));
    let Committed::Fresh(done) = repos.receipts.transition(change).await.unwrap() else {
        panic!("expected a fresh transition")
    };

    assert_eq!(
        (done.before.status, done.before.status_authority),
        (ReceiptStatus::Pending, Authority::Buyer)
    );
    let (from, to) = done.moved.unwrap();
    assert_eq!(
        (from, to.status, to.paid),
        (ReceiptStatus::Pending, ReceiptStatus::Paid, Cents::new(3_000))
    );
    assert!(done.enqueued);
    let id = done.before.id.clone();
    let stored = repos.receipts.fetch(Some(merchant), &id).await.unwrap().unwrap();
    assert_eq!(
        (
            stored.status,
            stored.version,
            stored.paid,
            stored.status_authority
        ),
        (ReceiptStatus::Paid, 1, Cents::new(3_000), Authority::Chain)
    );
    assert_eq!(stored.transaction_hash, Some(format!("0x{}", "ab".repeat(32))));
    assert_eq!(stored.transaction_timestamp, Some(fixtures::T0 + 1_000));
    assert_eq!(stored.buyer_wallet, Some(wallet('b')));
    let log = repos
        .outbox
        .list_deliveries(merchant, &id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(log.len(), 1);
    assert_eq!(
        (log[0].event.as_str(), log[0].state.as_str()),
        ("receipt.paid", "pending")
    );
}

pub(crate) async fn a_transition_of_another_merchants_receipt_is_not_found(repos: Repositories) {
    let sale = fixtures::receipt_sale(fixtures::new_receipt(wallet('a'), "order-1", 3_000));
    repos.receipts.create(sale).await.unwrap();

    let theirs = fixtures::transition(wallet('c'), "order-1", fixtures::mark_paid(3_000));
    let outcome = repos.receipts.transition(theirs).await;

    assert!(
        matches!(&outcome, Err(TxError::Refused(TransitionRefused::NotFound(id))) if id.as_str() == "order-1"),
        "{outcome:?}"
    );
    let stored = repos.receipts.list(wallet('a'), 1).await.unwrap();
    assert_eq!((stored[0].status, stored[0].version), (ReceiptStatus::Pending, 0));
}

pub(crate) async fn an_acknowledged_event_writes_nothing_but_keeps_its_response(repos: Repositories) {
    let merchant = wallet('a');
    let sale = fixtures::receipt_sale(fixtures::new_receipt(merchant, "order-1", 3_000));
    repos.receipts.create(sale).await.unwrap();
    let ack = || {
        fixtures::with_transition_claim(
            fixtures::transition(merchant, "order-1", fixtures::acknowledge()),
            "ack-1",
            "h",
        )
    };

    let first = keeping::transition(&repos, ack()).await.unwrap();
    let second = keeping::transition(&repos, ack()).await.unwrap();

    let Committed::Fresh(done) = first else {
        panic!("expected a fresh transition")
    };
    assert!(done.moved.is_none() && !done.enqueued);
    let Committed::Replayed(kept) = second else {
        panic!("expected a replay")
    };
    assert_eq!((kept.status, kept.body.as_slice()), (200, b"None".as_slice()));
    let stored = repos.receipts.list(merchant, 1).await.unwrap();
    assert_eq!((stored[0].status, stored[0].version), (ReceiptStatus::Pending, 0));
}

pub(crate) async fn a_refused_transition_writes_nothing(repos: Repositories) {
    let merchant = wallet('a');
    paid_receipt(&repos, "order-1", 1_000).await;

    let too_much = fixtures::with_transition_claim(
        fixtures::transition(merchant, "order-1", fixtures::refund(1_001)),
        "refund-1",
        "h",
    );
    let outcome = repos.receipts.transition(too_much).await;

    assert!(
        matches!(
            outcome,
            Err(TxError::Refused(TransitionRefused::Decision(
                Refusal::Transition(TransitionError::RefundExceedsPaid { .. })
            )))
        ),
        "{outcome:?}"
    );
    let stored = repos.receipts.list(merchant, 1).await.unwrap();
    assert_eq!((stored[0].version, stored[0].refunded), (1, Cents::ZERO));
    let id = stored[0].id.clone();
    assert_eq!(
        repos
            .outbox
            .list_deliveries(merchant, &id)
            .await
            .unwrap()
            .unwrap()
            .len(),
        1
    );
}

pub(crate) async fn parallel_transitions_see_each_others_results(repos: Repositories) {
    let merchant = wallet('a');
    paid_receipt(&repos, "order-1", 3_000).await;
    let barrier = Arc::new(Barrier::new(40));
    let racers: Vec<_> = (0..40)
        .map(|_| {
            let (repos, barrier) = (repos.clone(), barrier.clone());
            tokio::spawn(async move {
                let change = fixtures::transition(merchant, "order-1", fixtures::refund(100));
                barrier.wait().await;
                repos.receipts.transition(change).await
            })
        })
        .collect();

    let (mut refunded, mut refused) = (0, 0);
    for racer in racers {
        match racer.await.unwrap() {
            Ok(Committed::Fresh(_)) => refunded += 1,
            Err(TxError::Refused(TransitionRefused::Decision(Refusal::Transition(
                TransitionError::RefundExceedsPaid { .. },
            )))) => refused += 1,
            other => panic!("unexpected outcome {other:?}"),
        }
    }

    assert_eq!((refunded, refused), (30, 10));
    let stored = repos.receipts.list(merchant, 1).await.unwrap().remove(0);
    assert_eq!(
        (stored.status, stored.refunded, stored.version),
        (ReceiptStatus::Refunded, Cents::new(3_000), 31)
    );
    let log = repos
        .outbox
        .list_deliveries(merchant, &stored.id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        log.iter()
            .filter(|delivery| delivery.event == "receipt.refunded")
            .count(),
        30
    );
}

pub(crate) async fn parallel_transitions_with_one_key_have_one_effect(repos: Repositories) {
    let merchant = wallet('a');
    paid_receipt(&repos, "order-1", 3_000).await;
    let barrier = Arc::new(Barrier::new(10));
    let racers: Vec<_> = (0..10)
        .map(|_| {
            let (repos, barrier) = (repos.clone(), barrier.clone());
            tokio::spawn(async move {
                let change = fixtures::transition(merchant, "order-1", fixtures::refund(500));
                let change = fixtures::with_transition_claim(change, "refund-1", "h");
                barrier.wait().await;
                keeping::transition(&repos, change).await
            })
        })
        .collect();

    let mut replays = Vec::new();
    let mut fresh = 0;
    for racer in racers {
        match racer.await.unwrap().unwrap() {
            Committed::Fresh(_) => fresh += 1,
            Committed::Replayed(kept) => replays.push(kept),
            Committed::Recovered(done) => replays.push(fixtures::transition_response(&done, "h")),
        }
    }

    assert_eq!((fresh, replays.len()), (1, 9));
    assert!(
        replays.iter().all(|kept| kept.body == b"Some(RefundPartial)"),
        "{replays:?}"
    );
    let stored = repos.receipts.list(merchant, 1).await.unwrap().remove(0);
    assert_eq!((stored.refunded, stored.version), (Cents::new(500), 2));
}
