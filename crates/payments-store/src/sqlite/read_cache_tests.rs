//! The receipt read cache through the store's own API: what a merchant reads after a write is the write.

use std::sync::Arc;
use std::time::Duration;

use payments_core::ReceiptStatus;
use tempfile::TempDir;

use super::SqliteStore;
use super::read_cache::ENTRY_LIFETIME;
use crate::testing::fixtures::{
    Refusal, T0, mark_paid, new_receipt, receipt_id, receipt_sale, transition, wallet,
};
use crate::testing::split;
use crate::{Availability, ReceiptRepository, ShopRepository};

/// The store's receipts as the fixtures' transactions use them (the backend serves any decision type).
fn receipts(store: &SqliteStore) -> &dyn ReceiptRepository<Refusal, Refusal> {
    store
}

async fn store_with_receipt() -> (Arc<SqliteStore>, TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(&dir.path().join("cache.db"), 0, Availability::default()).unwrap();
    receipts(&store)
        .create(receipt_sale(new_receipt(wallet('a'), "r1", 1000)))
        .await
        .unwrap();
    (Arc::new(store), dir)
}

async fn status_read(store: &SqliteStore) -> ReceiptStatus {
    let (receipt, _) = receipts(store)
        .fetch_with_split(Some(wallet('a')), &receipt_id("r1"))
        .await
        .unwrap()
        .unwrap();
    receipt.status
}

#[tokio::test]
async fn a_receipt_read_again_after_its_transition_shows_the_new_status() {
    let (store, _dir) = store_with_receipt().await;
    assert_eq!(status_read(&store).await, ReceiptStatus::Pending);

    receipts(&store)
        .transition(transition(wallet('a'), "r1", mark_paid(1000)))
        .await
        .unwrap();

    assert_eq!(status_read(&store).await, ReceiptStatus::Paid);
}

#[tokio::test]
async fn a_read_that_began_before_a_commit_does_not_keep_what_it_saw() {
    let (store, _dir) = store_with_receipt().await;
    let ticket = store.receipt_cache.ticket();
    let seen_before = receipts(&store)
        .fetch_with_split(Some(wallet('a')), &receipt_id("r1"))
        .await
        .unwrap()
        .unwrap();
    receipts(&store)
        .transition(transition(wallet('a'), "r1", mark_paid(1000)))
        .await
        .unwrap();

    // The slow reader finishes now, with the value from before the commit.
    store.receipt_cache.store(ticket, 1, &seen_before);

    assert_eq!(status_read(&store).await, ReceiptStatus::Paid);
}

#[tokio::test]
async fn a_changed_split_is_read_at_once() {
    let (store, _dir) = store_with_receipt().await;
    store
        .save_split(wallet('a'), &split('1', '2'), false, T0)
        .await
        .unwrap();
    let first = receipts(&store)
        .fetch_with_split(Some(wallet('a')), &receipt_id("r1"))
        .await
        .unwrap()
        .unwrap();

    store
        .save_split(wallet('a'), &split('3', '4'), true, T0 + 1)
        .await
        .unwrap();

    let second = receipts(&store)
        .fetch_with_split(Some(wallet('a')), &receipt_id("r1"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(first.1, Some(split('1', '2')));
    assert_eq!(second.1, Some(split('3', '4')));
}

#[tokio::test]
async fn another_processs_write_to_the_file_is_read_within_the_entry_lifetime() {
    let (store, dir) = store_with_receipt().await;
    assert_eq!(status_read(&store).await, ReceiptStatus::Pending);

    let other_process = rusqlite::Connection::open(dir.path().join("cache.db")).unwrap();
    other_process
        .execute("UPDATE receipts SET status = 'failed' WHERE public_id = 'r1'", [])
        .unwrap();
    tokio::time::sleep(ENTRY_LIFETIME + Duration::from_millis(50)).await;

    assert_eq!(status_read(&store).await, ReceiptStatus::Failed);
}

#[tokio::test]
async fn a_datastore_taken_out_of_service_is_not_hidden_by_the_cache() {
    let dir = tempfile::tempdir().unwrap();
    let availability = Availability::default();
    let store = SqliteStore::open(&dir.path().join("cache.db"), 0, availability.clone()).unwrap();
    receipts(&store)
        .create(receipt_sale(new_receipt(wallet('a'), "r1", 1000)))
        .await
        .unwrap();
    assert_eq!(status_read(&store).await, ReceiptStatus::Pending);

    availability.set_available(false);

    assert!(
        receipts(&store)
            .fetch_with_split(Some(wallet('a')), &receipt_id("r1"))
            .await
            .is_err()
    );
}
