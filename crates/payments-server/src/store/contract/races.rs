//! Contract bodies: every repository operation the use cases rely on, and the races between them.

use std::sync::Arc;

use futures_util::future::join_all;
use payments_core::{Cents, PaymentProof, ReceiptEvent, ReceiptStatus};

use crate::domain::api_key::{KeyHash, SubscriptionId};
use crate::domain::receipt::{OrderError, ReceiptError, ReceiptId};
use crate::domain::scope::Scopes;
use crate::domain::subscription::NewSubscription;
use crate::store::contract::fixtures::{claim, product, sale, transition, wallet};
use crate::store::{Committed, Repositories, StoreError, TxError};

/// Ten concurrent creates under one claim: one does the work, nine replay its kept response, one row.
pub(super) async fn parallel_creates_with_one_claim_have_one_effect(repos: &Repositories) {
    let merchant = wallet(0x11);
    let outcomes = join_all((0..10).map(|attempt| {
        let receipts = Arc::clone(&repos.receipts);
        let tx = sale(
            merchant,
            &format!("r-{attempt}"),
            Vec::new(),
            Some(claim(merchant, "k", "body")),
        );
        async move { receipts.create(tx).await }
    }))
    .await;

    let fresh: Vec<_> = outcomes
        .iter()
        .filter_map(|outcome| match outcome {
            Ok(Committed::Fresh(sale)) => Some(sale.receipt.id.as_str().to_owned()),
            _ => None,
        })
        .collect();
    let replayed: Vec<_> = outcomes
        .iter()
        .filter_map(|outcome| match outcome {
            Ok(Committed::Replayed(stored)) => Some(String::from_utf8(stored.body.clone()).unwrap()),
            _ => None,
        })
        .collect();
    assert_eq!((fresh.len(), replayed.len()), (1, 9), "{outcomes:?}");
    assert!(replayed.iter().all(|body| body == &fresh[0]));
    assert_eq!(repos.receipts.list(merchant, 100).await.unwrap().len(), 1);
}

pub(super) async fn a_claim_with_another_body_is_a_conflict_and_writes_nothing(repos: &Repositories) {
    let merchant = wallet(0x12);
    let first = repos
        .receipts
        .create(sale(
            merchant,
            "first",
            Vec::new(),
            Some(claim(merchant, "k", "one")),
        ))
        .await;
    let second = repos
        .receipts
        .create(sale(
            merchant,
            "second",
            Vec::new(),
            Some(claim(merchant, "k", "two")),
        ))
        .await;

    assert!(matches!(first, Ok(Committed::Fresh(_))), "{first:?}");
    assert!(matches!(second, Err(TxError::IdempotencyConflict)), "{second:?}");
    let second_id = ReceiptId::parse("id", "second").unwrap();
    assert_eq!(
        repos.receipts.fetch(Some(merchant), &second_id).await.unwrap(),
        None
    );
}

/// Twelve concurrent sales each reserving one of five: five succeed, seven are out of stock, stock ends at 0.
pub(super) async fn parallel_reservations_never_take_stock_below_zero(repos: &Repositories) {
    let merchant = wallet(0x13);
    let lamp = product(repos, merchant, "lamp", 5).await;
    let outcomes = join_all((0..12).map(|attempt| {
        let receipts = Arc::clone(&repos.receipts);
        let tx = sale(
            merchant,
            &format!("lamp-{attempt}"),
            vec![(lamp.clone(), 1)],
            None,
        );
        async move { receipts.create(tx).await }
    }))
    .await;

    let sold = outcomes.iter().filter(|outcome| outcome.is_ok()).count();
    let refused = outcomes
        .iter()
        .filter(|outcome| {
            matches!(
                outcome,
                Err(TxError::Refused(OrderError::OutOfStock { available: 0, .. }))
            )
        })
        .count();
    assert_eq!((sold, refused), (5, 7), "{outcomes:?}");
    let page = repos
        .inventory
        .list(
            merchant,
            &crate::domain::inventory::InventoryQuery::parse(|_| None).unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(page.items[0].fields.stock_qty, 0);
    assert_eq!(repos.receipts.list(merchant, 100).await.unwrap().len(), 5);
}

/// Forty concurrent refunds of 0.25 on 7.75 paid: each decision sees the ones before it, so exactly 31 fit.
pub(super) async fn parallel_transitions_see_each_other(repos: &Repositories) {
    let merchant = wallet(0x14);
    repos
        .receipts
        .create(sale(merchant, "paid", Vec::new(), None))
        .await
        .unwrap();
    let paid = ReceiptEvent::PaymentConfirmed {
        proof: PaymentProof::AdminAttestation {
            admin: merchant,
            transaction_hash: None,
        },
        amount: Cents::new(775),
    };
    repos
        .receipts
        .transition(transition(merchant, "paid", paid))
        .await
        .unwrap();

    let outcomes = join_all((0..40).map(|_| {
        let receipts = Arc::clone(&repos.receipts);
        let refund = ReceiptEvent::Refunded {
            amount: Cents::new(25),
        };
        async move { receipts.transition(transition(merchant, "paid", refund)).await }
    }))
    .await;

    let applied = outcomes.iter().filter(|outcome| outcome.is_ok()).count();
    let refused = outcomes
        .iter()
        .filter(|outcome| matches!(outcome, Err(TxError::Refused(ReceiptError::Transition(_)))))
        .count();
    assert_eq!((applied, refused), (31, 9), "{outcomes:?}");
    let id = ReceiptId::parse("id", "paid").unwrap();
    let stored = repos.receipts.fetch(Some(merchant), &id).await.unwrap().unwrap();
    assert_eq!(
        (stored.status, stored.refunded),
        (ReceiptStatus::Refunded, Cents::new(775))
    );
}

/// Two dispatchers claiming the same outbox at once never get the same delivery.
pub(super) async fn two_dispatchers_never_claim_the_same_delivery(repos: &Repositories) {
    let merchant = wallet(0x15);
    for index in 0..6 {
        let id = format!("hook-{index}");
        repos
            .receipts
            .create(sale(merchant, &id, Vec::new(), None))
            .await
            .unwrap();
        let opened = ReceiptEvent::Tracking(payments_core::TrackingStatus::LinkOpened);
        repos
            .receipts
            .transition(transition(merchant, &id, opened))
            .await
            .unwrap();
    }

    let (first, second) = tokio::join!(
        repos.outbox.claim_due(100, 10_000, 4),
        repos.outbox.claim_due(100, 10_000, 4)
    );

    let mut claimed: Vec<i64> = first
        .unwrap()
        .iter()
        .chain(second.unwrap().iter())
        .map(|due| due.rowid)
        .collect();
    assert_eq!(claimed.len(), 6);
    claimed.sort_unstable();
    claimed.dedup();
    assert_eq!(claimed.len(), 6, "a delivery was claimed twice");
    assert!(
        repos.outbox.claim_due(100, 10_000, 4).await.unwrap().is_empty(),
        "leased deliveries were claimed again"
    );
}

pub(super) async fn a_switched_off_datastore_is_unavailable_and_keeps_its_data(repos: &Repositories) {
    let merchant = wallet(0x16);
    repos
        .receipts
        .create(sale(merchant, "kept", Vec::new(), None))
        .await
        .unwrap();

    repos.availability.set_available(false);
    let read = repos.receipts.list(merchant, 10).await;
    let write = repos
        .receipts
        .create(sale(merchant, "lost", Vec::new(), None))
        .await;
    repos.availability.set_available(true);

    assert!(matches!(read, Err(StoreError::Unavailable(_))), "{read:?}");
    assert!(
        matches!(write, Err(TxError::Store(StoreError::Unavailable(_)))),
        "{write:?}"
    );
    let ids: Vec<_> = repos
        .receipts
        .list(merchant, 10)
        .await
        .unwrap()
        .into_iter()
        .map(|receipt| receipt.id.as_str().to_owned())
        .collect();
    assert_eq!(ids, vec!["kept".to_owned()]);
}

pub(super) async fn keys_are_found_by_hash_until_revoked_and_rotation_is_atomic(repos: &Repositories) {
    let merchant = wallet(0x17);
    let (id, hash) = (SubscriptionId::generate(), KeyHash::of("sk_contract_key"));
    let new = NewSubscription {
        id: id.clone(),
        key_hash: hash.clone(),
        wallet: merchant,
        scopes: Scopes::all(),
        name: Some("contract".to_owned()),
        created_at: 1,
    };
    repos.keys.create(&new).await.unwrap();
    assert!(
        !repos.keys.create_first(&new).await.unwrap(),
        "a second first key was created"
    );
    assert_eq!(
        repos
            .keys
            .fetch_active_by_key(&hash)
            .await
            .unwrap()
            .unwrap()
            .wallet,
        merchant
    );

    let (replacement, replacement_hash) = (SubscriptionId::generate(), KeyHash::of("sk_contract_next"));
    let rotated = repos
        .keys
        .rotate(&id, &replacement, &replacement_hash, 2)
        .await
        .unwrap();

    assert_eq!(rotated.unwrap().id, replacement);
    assert_eq!(repos.keys.fetch_active_by_key(&hash).await.unwrap(), None);
    assert!(
        repos
            .keys
            .fetch_active_by_key(&replacement_hash)
            .await
            .unwrap()
            .is_some()
    );
    assert!(repos.keys.revoke(&replacement, 3).await.unwrap());
    assert!(!repos.keys.revoke(&replacement, 4).await.unwrap());
    assert_eq!(repos.keys.fetch_active(&replacement).await.unwrap(), None);
}
