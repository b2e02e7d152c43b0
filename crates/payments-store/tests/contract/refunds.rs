//! Refunds proven on chain in the store (schema v18): one transaction proves one refund, whatever the
//! receipt and however concurrent the requests; a refund whose transaction waits for confirmations is listed
//! as pending until a transition confirms it.

use std::sync::Arc;

use payments_core::{Cents, ReceiptStatus};
use tokio::sync::Barrier;

use crate::Repositories;
use crate::fixtures::{self, wallet};
use crate::transitions::paid_receipt;
use payments_store::{Committed, PendingRefund, TransitionRefused, TxError};

fn tx(byte: &str) -> String {
    format!("0x{}", byte.repeat(32))
}

pub(crate) async fn a_transaction_that_proves_one_refund_is_refused_for_another_receipt(repos: Repositories) {
    let merchant = wallet('a');
    paid_receipt(&repos, "order-1", 3_000).await;
    paid_receipt(&repos, "order-2", 3_000).await;
    let refund = |id: &str| fixtures::transition(merchant, id, fixtures::refund_in(1_000, tx("e1"), true));

    repos.receipts.transition(refund("order-1")).await.unwrap();
    let second = repos.receipts.transition(refund("order-2")).await;

    assert!(
        matches!(&second, Err(TxError::Refused(TransitionRefused::RefundTxTaken(hash))) if *hash == tx("e1")),
        "{second:?}"
    );
    let untouched = repos
        .receipts
        .fetch(Some(merchant), &fixtures::receipt_id("order-2"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (untouched.status, untouched.refunded, untouched.version),
        (ReceiptStatus::Paid, Cents::ZERO, 1)
    );
    assert!(repos.receipts.refund_tx_recorded(&tx("e1")).await.unwrap());
    assert!(!repos.receipts.refund_tx_recorded(&tx("e2")).await.unwrap());
}

pub(crate) async fn parallel_refunds_of_many_receipts_with_one_transaction_record_exactly_one(
    repos: Repositories,
) {
    let merchant = wallet('a');
    let ids: Vec<String> = (0..8).map(|n| format!("order-{n}")).collect();
    for id in &ids {
        paid_receipt(&repos, id, 3_000).await;
    }
    let barrier = Arc::new(Barrier::new(ids.len()));
    let racers: Vec<_> = ids
        .iter()
        .map(|id| {
            let (repos, barrier) = (repos.clone(), barrier.clone());
            let change = fixtures::transition(merchant, id, fixtures::refund_in(1_000, tx("e3"), true));
            tokio::spawn(async move {
                barrier.wait().await;
                repos.receipts.transition(change).await
            })
        })
        .collect();

    let (mut recorded, mut taken) = (0, 0);
    for racer in racers {
        match racer.await.unwrap() {
            Ok(Committed::Fresh(_)) => recorded += 1,
            Err(TxError::Refused(TransitionRefused::RefundTxTaken(_))) => taken += 1,
            other => panic!("unexpected outcome {other:?}"),
        }
    }

    assert_eq!((recorded, taken), (1, 7));
    let refunded: Vec<Cents> = repos
        .receipts
        .list(merchant, 10)
        .await
        .unwrap()
        .iter()
        .map(|receipt| receipt.refunded)
        .filter(|refunded| *refunded > Cents::ZERO)
        .collect();
    assert_eq!(refunded, [Cents::new(1_000)]);
}

pub(crate) async fn a_pending_refund_is_listed_until_a_transition_confirms_it(repos: Repositories) {
    let merchant = wallet('a');
    paid_receipt(&repos, "order-1", 3_000).await;
    let pending = fixtures::transition(merchant, "order-1", fixtures::refund_in(3_000, tx("e4"), false));
    repos.receipts.transition(pending).await.unwrap();

    let listed = repos.receipts.pending_refunds(10).await.unwrap();
    let confirm = fixtures::transition(merchant, "order-1", fixtures::confirm_refund(tx("e4")));
    repos.receipts.transition(confirm).await.unwrap();

    assert_eq!(
        listed,
        [PendingRefund {
            wallet: merchant,
            receipt_id: fixtures::receipt_id("order-1"),
            tx_hash: tx("e4"),
            block_number: 7,
            amount: Cents::new(3_000),
        }]
    );
    assert!(repos.receipts.pending_refunds(10).await.unwrap().is_empty());
    let stored = repos
        .receipts
        .fetch(Some(merchant), &fixtures::receipt_id("order-1"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (stored.status, stored.refunded),
        (ReceiptStatus::Refunded, Cents::new(3_000))
    );
}
