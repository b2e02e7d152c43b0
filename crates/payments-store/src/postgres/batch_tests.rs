//! The statements concurrent requests share ([`super::batches`]) on a real database: a shared insert
//! refuses only a taken id, one that fails writes nothing and sends each sale back to run alone, and a
//! shared stamp read answers each key with its own receipt.

use std::sync::Arc;

use tokio::sync::Barrier;

use crate::postgres::batches::{insert_together, read_stamps};
use crate::postgres::{PgStore, PgTestDatabase};
use crate::testing::fixtures::{self, Refusal, Repositories, T0, receipt_id, wallet};
use crate::{Committed, ReceiptStamp, Sale, SaleRefused, StoreError, TxError};
use payments_domain::receipt::NewReceipt;

async fn store() -> Option<(PgTestDatabase, Arc<PgStore>, Repositories)> {
    let database = PgTestDatabase::create().await?;
    let store = Arc::new(PgStore::open(database.url(), T0).await.unwrap());
    let repos = Repositories::of(store.clone(), store.availability().clone());
    Some((database, store, repos))
}

/// The outcomes of sales of `receipts` made at the same time (each from its own task), in order.
async fn sell_at_once(
    repos: &Repositories,
    receipts: Vec<NewReceipt>,
) -> Vec<Result<Committed<Sale>, TxError<SaleRefused<Refusal>>>> {
    let barrier = Arc::new(Barrier::new(receipts.len()));
    let tasks: Vec<_> = receipts
        .into_iter()
        .map(|receipt| {
            let (repos, barrier) = (repos.clone(), barrier.clone());
            tokio::spawn(async move {
                barrier.wait().await;
                repos.receipts.create(fixtures::receipt_sale(receipt)).await
            })
        })
        .collect();
    let mut outcomes = Vec::new();
    for task in tasks {
        outcomes.push(task.await.unwrap());
    }
    outcomes
}

#[tokio::test]
async fn a_shared_insert_refuses_only_the_receipt_whose_id_an_earlier_one_took() {
    let Some((database, store, repos)) = store().await else {
        return;
    };
    let merchant = wallet('a');
    let receipts = ["first", "first", "second"]
        .iter()
        .zip([100, 200, 300])
        .map(|(id, total)| Arc::new(fixtures::new_receipt(merchant, id, total)))
        .collect();

    let answers = insert_together(store.connections.clone(), receipts)
        .await
        .unwrap();

    let stored: Vec<_> = answers
        .iter()
        .map(|answer| answer.as_ref().unwrap().is_some())
        .collect();
    assert_eq!(stored, [true, false, true]);
    let first = repos
        .receipts
        .fetch(Some(merchant), &receipt_id("first"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(first.amounts.total.as_i64(), 100);
    assert_eq!(repos.receipts.list(merchant, 10).await.unwrap().len(), 2);
    drop((repos, store));
    database.drop_database().await;
}

#[tokio::test]
async fn a_shared_insert_that_fails_writes_nothing_and_each_sale_then_stores_alone() {
    let Some((database, store, repos)) = store().await else {
        return;
    };
    let merchant = wallet('a');
    // PostgreSQL refuses a NUL character in text; SQLite would store it.
    let unstorable = |id: &str| {
        let mut receipt = fixtures::new_receipt(merchant, id, 100);
        receipt.brand_name = "Cafe\0".to_owned();
        receipt
    };
    let together = vec![
        Arc::new(fixtures::new_receipt(merchant, "good-0", 100)),
        Arc::new(unstorable("bad")),
        Arc::new(fixtures::new_receipt(merchant, "good-1", 100)),
    ];
    assert!(
        insert_together(store.connections.clone(), together)
            .await
            .is_none()
    );
    assert!(repos.receipts.list(merchant, 10).await.unwrap().is_empty());

    let sales = 24;
    let receipts = (0..sales)
        .map(|sale| match sale {
            5 => unstorable("bad"),
            _ => fixtures::new_receipt(merchant, &format!("good-{sale}"), 100),
        })
        .collect();
    for (sale, outcome) in sell_at_once(&repos, receipts).await.into_iter().enumerate() {
        match outcome {
            Ok(Committed::Fresh(stored)) if sale != 5 => {
                assert_eq!(stored.receipt.id.as_str(), format!("good-{sale}"))
            }
            Err(TxError::Store(StoreError::Query(_))) if sale == 5 => {}
            other => panic!("sale {sale}: {other:?}"),
        }
    }
    assert_eq!(repos.receipts.list(merchant, 100).await.unwrap().len(), sales - 1);
    drop((repos, store));
    database.drop_database().await;
}

#[tokio::test]
async fn a_shared_stamp_read_answers_each_key_with_its_own_receipt_or_none() {
    let Some((database, store, repos)) = store().await else {
        return;
    };
    let (merchant, other) = (wallet('a'), wallet('b'));
    for (id, total) in [("one", 100), ("two", 200)] {
        let sale = fixtures::receipt_sale(fixtures::new_receipt(merchant, id, total));
        repos.receipts.create(sale).await.unwrap();
    }
    let keys = vec![
        (merchant, receipt_id("two")),
        (other, receipt_id("one")),
        (merchant, receipt_id("one")),
        (merchant, receipt_id("missing")),
        (merchant, receipt_id("two")),
    ];

    let stamps = read_stamps(store.connections.clone(), keys.clone())
        .await
        .unwrap();

    let mut expected = Vec::new();
    for (wallet, id) in &keys {
        let found = repos.receipts.fetch_with_split(Some(*wallet), id).await.unwrap();
        expected.push(found.map(|(receipt, split)| ReceiptStamp::of(&receipt, split.as_ref())));
    }
    assert_eq!(stamps, expected);
    assert_eq!(stamps.iter().filter(|stamp| stamp.is_some()).count(), 3);
    drop((repos, store));
    database.drop_database().await;
}

/// A trigger that refuses, at commit time, a receipt whose brand is `REFUSED_AT_COMMIT`.
const REFUSED_AT_COMMIT: &str = "Refused at commit";
const REFUSE_AT_COMMIT: &str = "CREATE FUNCTION refuse_at_commit() RETURNS trigger LANGUAGE plpgsql
        AS $$ BEGIN RAISE EXCEPTION 'refused at commit'; END $$;
    CREATE CONSTRAINT TRIGGER refuse_at_commit AFTER INSERT ON receipts
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
        WHEN (NEW.brand_name = 'Refused at commit') EXECUTE FUNCTION refuse_at_commit();";

#[tokio::test]
async fn a_shared_commit_that_fails_answers_each_of_its_sales_unavailable_and_stores_none_of_them() {
    let Some((database, store, repos)) = store().await else {
        return;
    };
    super::tests::connect(&database)
        .await
        .batch_execute(REFUSE_AT_COMMIT)
        .await
        .unwrap();
    let merchant = wallet('a');
    let refused = |id: &str| {
        let mut receipt = fixtures::new_receipt(merchant, id, 100);
        receipt.brand_name = REFUSED_AT_COMMIT.to_owned();
        receipt
    };
    let together = vec![
        Arc::new(fixtures::new_receipt(merchant, "good-0", 100)),
        Arc::new(refused("refused")),
    ];
    let answers = insert_together(store.connections.clone(), together)
        .await
        .unwrap();
    assert!(answers.iter().all(Result::is_err), "{answers:?}");
    assert!(repos.receipts.list(merchant, 10).await.unwrap().is_empty());

    // Many sales at once: each is answered created and stored, or unavailable and not stored; the one the
    // commit refuses is never created.
    let receipts = (0..24)
        .map(|sale| match sale {
            7 => refused("sale-7"),
            _ => fixtures::new_receipt(merchant, &format!("sale-{sale}"), 100),
        })
        .collect();
    let mut created = Vec::new();
    for (sale, outcome) in sell_at_once(&repos, receipts).await.into_iter().enumerate() {
        match outcome {
            Ok(Committed::Fresh(made)) if sale != 7 => created.push(made.receipt.id.as_str().to_owned()),
            Err(TxError::Store(StoreError::Unavailable(why))) => {
                assert!(why.contains("the commit did not complete"), "{why}");
            }
            other => panic!("sale {sale}: {other:?}"),
        }
    }
    let mut stored: Vec<String> = repos
        .receipts
        .list(merchant, 100)
        .await
        .unwrap()
        .into_iter()
        .map(|receipt| receipt.id.as_str().to_owned())
        .collect();
    stored.sort();
    created.sort();
    assert_eq!(stored, created);
    drop((repos, store));
    database.drop_database().await;
}
