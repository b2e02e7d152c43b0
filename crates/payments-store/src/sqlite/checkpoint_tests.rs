//! The checkpoint thread: commits reach the database file itself without the committing connection copying
//! them. Each test reads a copy of the database file alone (no `-wal` beside it), which shows exactly what a
//! checkpoint has copied so far.

use std::path::Path;
use std::time::{Duration, Instant};

use rusqlite::Connection;
use tempfile::TempDir;

use super::SqliteStore;
use super::checkpoint::{self, WRITER_CHECKPOINT_FRAMES};
use crate::testing::fixtures::{Refusal, new_receipt, receipt_sale, wallet};
use crate::{Availability, ReceiptRepository};

/// The store's receipts as the fixtures' transactions use them (the backend serves any decision type).
fn receipts(store: &SqliteStore) -> &dyn ReceiptRepository<Refusal, Refusal> {
    store
}

/// Receipts found in the database file alone, as a checkpoint has left it (`None`: no such table there yet).
fn receipts_in_database_file(dir: &TempDir, database: &Path) -> Option<i64> {
    let copy = dir.path().join("file-only.db");
    let _ = std::fs::remove_file(&copy);
    std::fs::copy(database, &copy).unwrap();
    let conn = Connection::open(&copy).unwrap();
    conn.query_row("SELECT count(*) FROM receipts", [], |row| row.get(0))
        .ok()
}

fn eventually(mut done: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

#[test]
fn a_signalled_commit_is_copied_into_the_database_file_by_the_thread() {
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("wal.db");
    let writer = Connection::open(&database).unwrap();
    writer
        .execute_batch(
            "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;
             CREATE TABLE receipts (id INTEGER PRIMARY KEY);
             INSERT INTO receipts (id) VALUES (1), (2), (3);",
        )
        .unwrap();
    assert_eq!(receipts_in_database_file(&dir, &database), None);

    let signal = checkpoint::start(Connection::open(&database).unwrap()).unwrap();
    signal.committed();

    assert!(eventually(
        || receipts_in_database_file(&dir, &database) == Some(3)
    ));
    let state = checkpoint::passive_checkpoint(&writer).unwrap();
    assert_eq!(state.copied_frames, state.wal_frames);
}

#[tokio::test]
async fn the_stores_commits_reach_the_database_file_long_before_the_writer_would_copy_them() {
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("store.db");
    let store = SqliteStore::open(&database, 0, Availability::default()).unwrap();

    for n in 0..3 {
        receipts(&store)
            .create(receipt_sale(new_receipt(wallet('a'), &format!("r{n}"), 1000)))
            .await
            .unwrap();
    }

    // Three commits are a few dozen pages, far from the writer's own checkpoint threshold.
    const { assert!(WRITER_CHECKPOINT_FRAMES > 100) };
    assert!(eventually(
        || receipts_in_database_file(&dir, &database) == Some(3)
    ));
}
