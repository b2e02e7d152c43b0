//! The merchant's receipt reads (`GET /api/receipts/{id}`: the receipt and its merchant's split), answered
//! from memory while nothing has changed them.
//!
//! Why it is exact for this process: every write of this process goes through the one writer connection, whose
//! update hook names each changed receipt row (and any split change). After the writer's batch has committed,
//! and before any of its callers hears "done", the changed entries are dropped and the cache's generation moves
//! on. A read that started before that moment may have seen the old rows, so it stores its result only if the
//! generation it started under is still current. A reader can therefore never put back a value older than a
//! commit whose caller has been answered.
//!
//! Another process writing the same file (the documented deployment runs one server per SQLite file; a second
//! one only adds lock waits) is not seen by the hook, so an entry is also trusted for [`ENTRY_LIFETIME`] at
//! most: such writes are visible within that bound, the same contract as the key cache.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use payments_core::Wallet;

use payments_domain::receipt::{Receipt, ReceiptId};
use payments_domain::split::StoredSplit;

/// How long an entry is trusted without a write of this process touching it (bounds what another process's
/// write to the same file can leave stale).
pub(super) const ENTRY_LIFETIME: Duration = Duration::from_secs(1);
/// Past this many entries the cache starts over, so its memory stays bounded (a few MB).
const MAX_ENTRIES: usize = 4096;

const RECEIPTS_TABLE: &str = "receipts";
const SPLITS_TABLE: &str = "splits";

/// A merchant's receipt with its split, as [`super::repos`]'s `fetch_with_split` returns it.
pub(super) type ReceiptWithSplit = (Receipt, Option<StoredSplit>);

type Key = (Wallet, ReceiptId);

struct Entry {
    value: ReceiptWithSplit,
    row_id: i64,
    stored_at: Instant,
}

#[derive(Default)]
struct Entries {
    generation: u64,
    by_key: HashMap<Key, Entry>,
    key_of_row: HashMap<i64, Key>,
}

/// Writes the writer's update hook saw in the batch under way, applied once it has committed.
#[derive(Debug, Default)]
struct Pending {
    receipt_rows: Vec<i64>,
    splits_changed: bool,
}

/// The cache, shared by the readers and the writer thread.
#[derive(Default)]
pub(super) struct ReceiptReadCache {
    entries: Mutex<Entries>,
    pending: Mutex<Pending>,
}

impl std::fmt::Debug for ReceiptReadCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReceiptReadCache").finish_non_exhaustive()
    }
}

/// What a read must show to store its result: the generation it started under.
#[derive(Debug, Clone, Copy)]
pub(super) struct ReadTicket(u64);

impl ReceiptReadCache {
    /// A fresh entry for `wallet`'s receipt `id`.
    pub(super) fn get(&self, wallet: Wallet, id: &ReceiptId) -> Option<ReceiptWithSplit> {
        let entries = self.entries();
        let entry = entries.by_key.get(&(wallet, id.clone()))?;
        (entry.stored_at.elapsed() < ENTRY_LIFETIME).then(|| entry.value.clone())
    }

    /// Taken before reading the database.
    pub(super) fn ticket(&self) -> ReadTicket {
        ReadTicket(self.entries().generation)
    }

    /// Keeps what a read found, unless a commit of this process was applied since its ticket.
    pub(super) fn store(&self, ticket: ReadTicket, row_id: i64, value: &ReceiptWithSplit) {
        let mut entries = self.entries();
        if entries.generation != ticket.0 {
            return;
        }
        if entries.by_key.len() >= MAX_ENTRIES {
            entries.by_key.clear();
            entries.key_of_row.clear();
        }
        let key = (value.0.wallet, value.0.id.clone());
        entries.key_of_row.insert(row_id, key.clone());
        entries.by_key.insert(
            key,
            Entry {
                value: value.clone(),
                row_id,
                stored_at: Instant::now(),
            },
        );
    }

    /// The writer's update hook: a row of `table` changed (applied once the batch has ended).
    pub(super) fn saw_write(&self, table: &str, row_id: i64) {
        let mut pending = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
        match table {
            RECEIPTS_TABLE => pending.receipt_rows.push(row_id),
            SPLITS_TABLE => pending.splits_changed = true,
            _ => {}
        }
    }

    /// Called by the writer after each batch ended (committed or rolled back: dropping entries is always
    /// safe), before the batch's callers are answered.
    pub(super) fn batch_ended(&self) {
        let pending = std::mem::take(&mut *self.pending.lock().unwrap_or_else(PoisonError::into_inner));
        if pending.receipt_rows.is_empty() && !pending.splits_changed {
            return;
        }
        let mut entries = self.entries();
        entries.generation = entries.generation.wrapping_add(1);
        if pending.splits_changed {
            // A split change touches every receipt of its merchant; splits change rarely.
            entries.by_key.clear();
            entries.key_of_row.clear();
            return;
        }
        for row_id in pending.receipt_rows {
            if let Some(key) = entries.key_of_row.remove(&row_id) {
                let stale = entries
                    .by_key
                    .get(&key)
                    .is_some_and(|entry| entry.row_id == row_id);
                if stale {
                    entries.by_key.remove(&key);
                }
            }
        }
    }

    fn entries(&self) -> MutexGuard<'_, Entries> {
        // The maps stay consistent whatever panicked while holding the lock (each change is one insert or
        // remove), so a poisoned lock is still usable.
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
