//! [`ReceiptRepository::create`]: the sale transaction, its idempotency and its stock reservation.

use std::sync::Arc;

use payments_core::{Cents, ReceiptStatus};
use tokio::sync::Barrier;

use crate::Repositories;
use crate::fixtures::{self, T0, wallet};
use crate::{all_items, product_id};
use payments_domain::inventory::ProductId;
use payments_store::testing::fixtures::Refusal;
use payments_store::testing::keeping;
use payments_store::{Committed, Sale, SaleRefused, TxError};

pub(crate) async fn a_created_receipt_reads_back_with_its_initial_status(repos: Repositories) {
    let merchant = wallet('a');
    let sale = fixtures::receipt_sale(fixtures::new_receipt(merchant, "order-1", 1_250));

    let created = repos.receipts.create(sale).await.unwrap();

    let Committed::Fresh(Sale { receipt, .. }) = created else {
        panic!("expected a fresh receipt")
    };
    assert_eq!(receipt.status, ReceiptStatus::Pending);
    assert_eq!((receipt.version, receipt.amounts.total), (0, Cents::new(1_250)));
    let id = receipt.id.clone();
    assert_eq!(
        repos.receipts.fetch(Some(merchant), &id).await.unwrap(),
        Some(receipt.clone())
    );
    assert_eq!(
        repos.receipts.fetch(None, &id).await.unwrap(),
        Some(receipt.clone())
    );
    assert_eq!(repos.receipts.fetch(Some(wallet('c')), &id).await.unwrap(), None);
    assert_eq!(repos.receipts.list(merchant, 10).await.unwrap(), vec![receipt]);
}

pub(crate) async fn receipts_list_newest_first_within_the_limit(repos: Repositories) {
    let merchant = wallet('a');
    for (n, at) in [(1, T0), (2, T0 + 5), (3, T0 + 5)] {
        let mut receipt = fixtures::new_receipt(merchant, &format!("r-{n}"), 100);
        receipt.now_ms = at;
        repos
            .receipts
            .create(fixtures::receipt_sale(receipt))
            .await
            .unwrap();
    }
    let other = fixtures::new_receipt(wallet('c'), "r-other", 100);
    repos
        .receipts
        .create(fixtures::receipt_sale(other))
        .await
        .unwrap();

    let listed = repos.receipts.list(merchant, 2).await.unwrap();

    let ids: Vec<&str> = listed.iter().map(|receipt| receipt.id.as_str()).collect();
    assert_eq!(ids, ["r-3", "r-2"]);
}

pub(crate) async fn parallel_idempotent_creates_have_one_effect(repos: Repositories) {
    let merchant = wallet('a');
    let barrier = Arc::new(Barrier::new(10));
    let racers: Vec<_> = (0..10)
        .map(|_| {
            let (repos, barrier) = (repos.clone(), barrier.clone());
            tokio::spawn(async move {
                let sale = fixtures::receipt_sale(fixtures::new_receipt(merchant, "order-1", 500));
                let sale = fixtures::with_claim(sale, "key-1", "hash-1");
                barrier.wait().await;
                keeping::create(&repos, sale).await
            })
        })
        .collect();

    let mut fresh = Vec::new();
    let mut replayed = Vec::new();
    for racer in racers {
        match racer.await.unwrap().unwrap() {
            Committed::Fresh(sale) => fresh.push(sale.receipt),
            Committed::Replayed(response) => replayed.push(response),
            // Answered from the receipt the key names: rendered as the edge would.
            Committed::Recovered(sale) => replayed.push(fixtures::created_response(&sale.receipt, "hash-1")),
        }
    }

    assert_eq!((fresh.len(), replayed.len()), (1, 9));
    let kept = fixtures::created_response(&fresh[0], "hash-1");
    assert!(replayed.iter().all(|response| *response == kept), "{replayed:?}");
    assert_eq!(repos.receipts.list(merchant, 100).await.unwrap().len(), 1);
}

/// Without a key a sale that reserves nothing is one insert outside any transaction (PostgreSQL): racing
/// creates of one id still store exactly one receipt, and the others are refused and write nothing, while
/// creates of other ids running at the same time all succeed.
pub(crate) async fn parallel_creates_of_one_id_without_a_key_store_one_receipt_and_refuse_the_rest(
    repos: Repositories,
) {
    let merchant = wallet('a');
    let racers = 12_i64;
    let barrier = Arc::new(Barrier::new(usize::try_from(2 * racers).unwrap()));
    let tasks: Vec<_> = (0..2 * racers)
        .map(|racer| {
            let (repos, barrier) = (repos.clone(), barrier.clone());
            // Even racers share one id, each with its own total; odd ones have ids of their own.
            let id = if racer % 2 == 0 {
                "shared".to_owned()
            } else {
                format!("own-{racer}")
            };
            tokio::spawn(async move {
                let sale = fixtures::receipt_sale(fixtures::new_receipt(merchant, &id, 100 + racer));
                barrier.wait().await;
                (id, repos.receipts.create(sale).await)
            })
        })
        .collect();

    let (mut shared_fresh, mut shared_taken, mut own_fresh) = (Vec::new(), 0, 0);
    for task in tasks {
        match task.await.unwrap() {
            (id, Ok(Committed::Fresh(sale))) if id == "shared" => shared_fresh.push(sale.receipt),
            (_, Ok(Committed::Fresh(_))) => own_fresh += 1,
            (id, Err(TxError::Refused(SaleRefused::IdTaken(taken)))) if id == "shared" => {
                assert_eq!(taken.as_str(), "shared");
                shared_taken += 1;
            }
            (id, other) => panic!("{id}: {other:?}"),
        }
    }

    assert_eq!(
        (shared_fresh.len(), shared_taken, own_fresh),
        (1, racers - 1, racers)
    );
    let stored = repos.receipts.list(merchant, 100).await.unwrap();
    assert_eq!(stored.len(), usize::try_from(racers + 1).unwrap());
    let shared: Vec<_> = stored
        .iter()
        .filter(|receipt| receipt.id.as_str() == "shared")
        .collect();
    assert_eq!(shared.len(), 1);
    assert_eq!(shared[0].amounts.total, shared_fresh[0].amounts.total);
}

pub(crate) async fn an_idempotency_key_reused_with_another_body_conflicts(repos: Repositories) {
    let merchant = wallet('a');
    let first = fixtures::receipt_sale(fixtures::new_receipt(merchant, "order-1", 500));
    keeping::create(&repos, fixtures::with_claim(first, "key-1", "hash-1"))
        .await
        .unwrap();
    let second = fixtures::receipt_sale(fixtures::new_receipt(merchant, "order-2", 700));

    let outcome = repos
        .receipts
        .create(fixtures::with_claim(second, "key-1", "hash-2"))
        .await;

    assert!(
        matches!(outcome, Err(TxError::IdempotencyConflict)),
        "{outcome:?}"
    );
    let ids: Vec<_> = repos
        .receipts
        .list(merchant, 10)
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.id)
        .collect();
    assert_eq!(ids.len(), 1);
    assert_eq!(ids[0].as_str(), "order-1");
}

pub(crate) async fn a_taken_receipt_id_is_refused_and_writes_nothing(repos: Repositories) {
    let merchant = wallet('a');
    let first = fixtures::new_receipt(merchant, "taken-id", 500);
    repos
        .receipts
        .create(fixtures::receipt_sale(first))
        .await
        .unwrap();
    let second = fixtures::receipt_sale(fixtures::new_receipt(merchant, "taken-id", 900));

    let outcome = repos
        .receipts
        .create(fixtures::with_claim(second, "key-9", "hash-9"))
        .await;

    assert!(
        matches!(&outcome, Err(TxError::Refused(SaleRefused::IdTaken(id))) if id.as_str() == "taken-id"),
        "{outcome:?}"
    );
    let stored = repos.receipts.list(merchant, 10).await.unwrap();
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0].amounts.total, Cents::new(500));
    // The refused request kept no response: the key is free for a corrected request.
    let retry = fixtures::receipt_sale(fixtures::new_receipt(merchant, "other-id", 900));
    let retried = repos
        .receipts
        .create(fixtures::with_claim(retry, "key-9", "hash-9"))
        .await;
    assert!(matches!(retried, Ok(Committed::Fresh(_))), "{retried:?}");
}

pub(crate) async fn two_merchants_create_the_same_receipt_id_and_each_sees_only_its_own(repos: Repositories) {
    let (a, c) = (wallet('a'), wallet('c'));
    repos
        .receipts
        .create(fixtures::receipt_sale(fixtures::new_receipt(
            a,
            "order-1001",
            500,
        )))
        .await
        .unwrap();
    let unique = repos
        .receipts
        .fetch(None, &fixtures::receipt_id("order-1001"))
        .await
        .unwrap();
    assert_eq!(unique.map(|receipt| receipt.wallet), Some(a));

    let theirs = repos
        .receipts
        .create(fixtures::receipt_sale(fixtures::new_receipt(
            c,
            "order-1001",
            900,
        )))
        .await;

    assert!(matches!(theirs, Ok(Committed::Fresh(_))), "{theirs:?}");
    let id = fixtures::receipt_id("order-1001");
    let total_of =
        |receipt: Option<payments_domain::receipt::Receipt>| receipt.map(|r| (r.wallet, r.amounts.total));
    assert_eq!(
        total_of(repos.receipts.fetch(Some(a), &id).await.unwrap()),
        Some((a, Cents::new(500)))
    );
    assert_eq!(
        total_of(repos.receipts.fetch(Some(c), &id).await.unwrap()),
        Some((c, Cents::new(900)))
    );
    // By id alone the id is now ambiguous: it names neither receipt.
    assert_eq!(repos.receipts.fetch(None, &id).await.unwrap(), None);
    let paid = repos
        .receipts
        .transition(fixtures::transition(c, "order-1001", fixtures::mark_paid(900)))
        .await;
    assert!(paid.is_ok(), "{paid:?}");
    let mine = repos.receipts.fetch(Some(a), &id).await.unwrap().unwrap();
    let theirs = repos.receipts.fetch(Some(c), &id).await.unwrap().unwrap();
    assert_eq!((mine.status, mine.version), (ReceiptStatus::Pending, 0));
    assert_eq!((theirs.status, theirs.version), (ReceiptStatus::Paid, 1));
    let listed: Vec<_> = repos.receipts.list(a, 10).await.unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].amounts.total, Cents::new(500));
    let (a_log, c_log) = (
        repos.outbox.list_deliveries(a, &id).await.unwrap().unwrap(),
        repos.outbox.list_deliveries(c, &id).await.unwrap().unwrap(),
    );
    assert!(a_log.is_empty(), "{a_log:?}");
    assert_eq!(c_log.len(), 1, "{c_log:?}");
}

pub(crate) async fn parallel_orders_never_oversell_finite_stock(repos: Repositories) {
    let merchant = wallet('a');
    let id = product_id(&repos, fixtures::product(merchant, "BEAN-1", 5, &[])).await;
    let barrier = Arc::new(Barrier::new(10));
    let racers: Vec<_> = (0..10)
        .map(|n| {
            let (repos, barrier, id) = (repos.clone(), barrier.clone(), id.clone());
            tokio::spawn(async move {
                let sale = fixtures::order_sale(merchant, &format!("order-{n}"), &id, 1);
                barrier.wait().await;
                repos.receipts.create(sale).await
            })
        })
        .collect();

    let (mut sold, mut out_of_stock) = (0, 0);
    for racer in racers {
        match racer.await.unwrap() {
            Ok(Committed::Fresh(_)) => sold += 1,
            // The decision read the stock short, or the reservation found it taken since.
            Err(TxError::Refused(
                SaleRefused::Decision(Refusal::OutOfStock { sku, available })
                | SaleRefused::OutOfStock { sku, available },
            )) => {
                assert_eq!((sku.as_str(), available), ("BEAN-1", 0));
                out_of_stock += 1;
            }
            other => panic!("unexpected outcome {other:?}"),
        }
    }

    assert_eq!((sold, out_of_stock), (5, 5));
    assert_eq!(stock_of(&repos, &id).await, 0);
    assert_eq!(repos.receipts.list(merchant, 100).await.unwrap().len(), 5);
}

pub(crate) async fn an_order_past_the_stock_reserves_nothing(repos: Repositories) {
    let merchant = wallet('a');
    let id = product_id(&repos, fixtures::product(merchant, "BEAN-2", 2, &[])).await;

    let outcome = repos
        .receipts
        .create(fixtures::order_sale(merchant, "order-1", &id, 3))
        .await;

    assert!(
        matches!(
            &outcome,
            Err(TxError::Refused(SaleRefused::Decision(Refusal::OutOfStock {
                available: 2,
                ..
            })))
        ),
        "{outcome:?}"
    );
    assert_eq!(stock_of(&repos, &id).await, 2);
    assert!(repos.receipts.list(merchant, 10).await.unwrap().is_empty());
}

pub(crate) async fn unlimited_stock_is_never_reserved(repos: Repositories) {
    let merchant = wallet('a');
    let id = product_id(&repos, fixtures::product(merchant, "TEA-1", -1, &[])).await;

    for n in 0..3 {
        let sale = fixtures::order_sale(merchant, &format!("order-{n}"), &id, 50);
        assert!(matches!(
            repos.receipts.create(sale).await,
            Ok(Committed::Fresh(_))
        ));
    }

    assert_eq!(stock_of(&repos, &id).await, -1);
}

pub(crate) async fn stock_of(repos: &Repositories, id: &ProductId) -> i64 {
    let items = all_items(repos, wallet('a')).await;
    items.iter().find(|item| &item.id == id).unwrap().fields.stock_qty
}

pub(crate) async fn a_created_receipt_with_every_field_set_is_what_a_read_returns(repos: Repositories) {
    let merchant = wallet('a');
    let mut receipt = fixtures::new_receipt(merchant, "order-full", 2_165);
    receipt.source = payments_domain::receipt::ReceiptSource::Order;
    receipt.tax = payments_domain::receipt::ReceiptTax {
        jurisdiction_code: Some("US-CA".to_owned()),
        rate: payments_core::TaxRate::parse("0.0825").unwrap(),
        components: vec!["state".to_owned(), "county".to_owned()],
    };
    receipt.options.redirect_url = Some("https://shop.example/thanks".to_owned());
    receipt.options.buyer_email = Some("buyer@example.com".to_owned());
    receipt.options.transaction_id = Some("tx-9".to_owned());
    receipt.options.metadata = Some(
        serde_json::json!({ "cart": "c-1", "n": 2 })
            .as_object()
            .unwrap()
            .clone(),
    );
    receipt.options.billing.city = Some("Fresno".to_owned());

    let Committed::Fresh(Sale { receipt, .. }) = repos
        .receipts
        .create(fixtures::receipt_sale(receipt))
        .await
        .unwrap()
    else {
        panic!("expected a fresh receipt")
    };

    assert_eq!(receipt.status, ReceiptStatus::Generated);
    assert_eq!(
        repos.receipts.fetch(Some(merchant), &receipt.id).await.unwrap(),
        Some(receipt)
    );
}
