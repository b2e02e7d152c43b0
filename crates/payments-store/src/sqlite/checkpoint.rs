//! WAL checkpoints on a thread and connection of their own, so that the writer does not stall in them.
//!
//! In WAL mode a commit appends its pages to the `-wal` file; a checkpoint copies them back into the database
//! file and syncs it. By default SQLite runs one on the committing connection each time the WAL passes 1,000
//! pages, and the writer waits for the copy and two `fsync`s meanwhile (PERF-NOTES: about 21 ms; under a
//! stream of orders every request queues behind the stalled writer, and it halved their throughput).
//!
//! Here a thread checkpoints after commits, at most once per [`PAUSE`], in `PASSIVE` mode: it copies whatever
//! readers no longer need without blocking the writer or any reader, and syncs on its own time. That alone
//! would let the WAL grow without end under steady writes: the WAL starts over from its beginning only when
//! a write transaction begins with every page copied, and with commits streaming in, a new one always lands
//! before a background copy completes. So the writer keeps SQLite's own automatic checkpoint, at
//! [`WRITER_CHECKPOINT_FRAMES`]: by then the thread has copied nearly everything, the writer's checkpoint
//! copies the last few pages, and its next transaction starts the WAL over. The file stays near that size.

use std::sync::mpsc::{self, Receiver, SyncSender};
use std::thread;
use std::time::Duration;

use rusqlite::Connection;

use crate::StoreError;

/// The WAL size (in pages, 8 MiB of 4 KiB pages) at which the writer checkpoints itself so that the WAL can
/// start over. Measured on the 2-core machine (docs/benchmarks.md, session 6): orders ran as fast with 2,048
/// as with 4,096, and the file stays smaller.
pub(super) const WRITER_CHECKPOINT_FRAMES: i64 = 2048;
/// Commits during this pause share the next checkpoint, so a stream of small commits costs a few syncs a
/// second, not one each.
const PAUSE: Duration = Duration::from_millis(50);

/// Tells the checkpoint thread that a commit added pages to the WAL; the thread ends when every handle is
/// dropped.
#[derive(Debug, Clone)]
pub(super) struct CheckpointSignal {
    due: SyncSender<()>,
}

impl CheckpointSignal {
    /// Never blocks: when a wake-up is already pending it covers this commit too, and when the thread is gone
    /// the writer's own checkpoint keeps the WAL bounded.
    pub(super) fn committed(&self) {
        let _ = self.due.try_send(());
    }
}

/// What one checkpoint reported: pages in the WAL, and how many of them are copied into the database.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct WalState {
    pub(super) wal_frames: i64,
    pub(super) copied_frames: i64,
}

/// Starts the checkpoint thread on `conn`, a connection of its own to the database.
pub(super) fn start(conn: Connection) -> Result<CheckpointSignal, StoreError> {
    let (due, wakeups) = mpsc::sync_channel::<()>(1);
    thread::Builder::new()
        .name("sqlite-checkpoint".to_owned())
        .spawn(move || run(&conn, &wakeups))
        .map_err(|error| StoreError::Unavailable(format!("starting the checkpoint thread: {error}")))?;
    Ok(CheckpointSignal { due })
}

fn run(conn: &Connection, wakeups: &Receiver<()>) {
    while wakeups.recv().is_ok() {
        if let Err(error) = passive_checkpoint(conn) {
            tracing::warn!(%error, "SQLite checkpoint failed; the next commit tries again");
        }
        thread::sleep(PAUSE);
    }
}

/// One `PASSIVE` checkpoint: copies what no reader needs from the WAL, blocking nobody.
pub(super) fn passive_checkpoint(conn: &Connection) -> rusqlite::Result<WalState> {
    // Columns: busy (always 0 in this mode), pages in the WAL, pages copied.
    conn.prepare_cached("PRAGMA wal_checkpoint(PASSIVE)")?
        .query_row([], |row| {
            Ok(WalState {
                wal_frames: row.get(1)?,
                copied_frames: row.get(2)?,
            })
        })
}
