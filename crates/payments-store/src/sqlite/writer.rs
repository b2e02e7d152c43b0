//! The single SQLite writer: one thread owns the write connection and commits the jobs that queued up while
//! the previous commit ran as one transaction (group commit), each job inside its own savepoint so that a
//! refused or failed job rolls back alone. SQLite allows one writer at a time anyway (PERF-NOTES: more writer
//! connections only collide in the busy handler); batching turns N commits into one.
//!
//! A job's answer is released only after the batch committed: a caller never hears "done" for a write that
//! could still be lost.
//!
//! Another process may hold the database's write lock (a `keys` command, a backup tool, an operator's
//! `sqlite3` shell). A job waits for it at most [`WRITE_LOCK_WAIT`] from the moment it was queued, counting
//! the time spent behind earlier batches that waited too; then it is answered [`StoreError::Busy`] without
//! having run, so the request answers 503 within its bound and nothing of it is written.

use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;
use std::time::{Duration, Instant};

use rusqlite::Connection;

use super::checkpoint::CheckpointSignal;
use super::read_cache::ReceiptReadCache;
use super::writer_cache::WriterCache;
use crate::StoreError;

/// At most this many jobs share one commit, so one commit stays short.
const MAX_BATCH: usize = 64;
/// How long a queued job waits for the database's write lock when another process holds it, before it is
/// refused as busy (answered 503 with `Retry-After`). Requests must answer within 2 s during an outage; the
/// rest of that is for the request's reads and the answer.
pub(super) const WRITE_LOCK_WAIT: Duration = Duration::from_secs(1);
/// Between two tries of `BEGIN` that SQLite refused without waiting (its busy handler is not called in every
/// busy case), so the retry does not spin.
const BEGIN_RETRY_PAUSE: Duration = Duration::from_millis(5);

const BEGIN: &str = "BEGIN IMMEDIATE";
const COMMIT: &str = "COMMIT";
const ROLLBACK: &str = "ROLLBACK";
const SAVEPOINT: &str = "SAVEPOINT job";
const ROLLBACK_JOB: &str = "ROLLBACK TO job";
const RELEASE_JOB: &str = "RELEASE job";

/// What a job did: whether its writes must be undone, and how to answer its caller once the batch's fate
/// (committed, or the error that stopped it) is known.
pub(super) struct JobDone {
    pub(super) rollback: bool,
    pub(super) answer: Box<dyn FnOnce(Result<(), StoreError>) + Send>,
}

/// A unit of work for the writer: given the connection inside a transaction, or the error that prevents
/// running it.
pub(super) type Job = Box<dyn FnOnce(Result<&Connection, StoreError>) -> JobDone + Send>;

/// A job with the moment it must have started by: past it, a write lock held elsewhere refuses it.
struct Queued {
    job: Job,
    lock_deadline: Instant,
}

/// Sends jobs to the writer thread; the thread ends when every handle is dropped.
#[derive(Debug, Clone)]
pub(super) struct WriterHandle {
    jobs: Sender<Queued>,
}

impl WriterHandle {
    /// Starts the writer thread on `conn`, whose update hook feeds `cache` and `lookups`; each commit wakes
    /// `checkpoints`.
    pub(super) fn start(
        conn: Connection,
        cache: Arc<ReceiptReadCache>,
        lookups: Arc<WriterCache>,
        checkpoints: CheckpointSignal,
    ) -> Result<Self, StoreError> {
        let (jobs, inbox) = mpsc::channel::<Queued>();
        let writer = Writer {
            conn,
            cache,
            lookups,
            checkpoints,
        };
        thread::Builder::new()
            .name("sqlite-writer".to_owned())
            .spawn(move || writer.run(&inbox))
            .map_err(|error| StoreError::Unavailable(format!("starting the writer thread: {error}")))?;
        Ok(WriterHandle { jobs })
    }

    /// Queues a job; when the writer is gone the job is told so at once.
    pub(super) fn submit(&self, job: Job) {
        let queued = Queued {
            job,
            lock_deadline: Instant::now() + WRITE_LOCK_WAIT,
        };
        if let Err(mpsc::SendError(Queued { job, .. })) = self.jobs.send(queued) {
            let done = job(Err(StoreError::Unavailable(
                "the writer thread stopped".to_owned(),
            )));
            (done.answer)(Err(StoreError::Unavailable(
                "the writer thread stopped".to_owned(),
            )));
        }
    }
}

/// The writer thread's state: its connection and what it tells about each batch.
struct Writer {
    conn: Connection,
    cache: Arc<ReceiptReadCache>,
    lookups: Arc<WriterCache>,
    checkpoints: CheckpointSignal,
}

impl Writer {
    fn run(&self, inbox: &Receiver<Queued>) {
        while let Ok(first) = inbox.recv() {
            let mut batch = vec![first];
            while batch.len() < MAX_BATCH {
                match inbox.try_recv() {
                    Ok(job) => batch.push(job),
                    Err(_) => break,
                }
            }
            if self.commit_batch(batch) {
                self.checkpoints.committed();
            }
        }
    }

    /// Runs and commits one batch; true when it committed.
    fn commit_batch(&self, batch: Vec<Queued>) -> bool {
        let conn = &self.conn;
        // The first job queued first: the batch waits for the lock no longer than it may.
        let lock_deadline = batch
            .iter()
            .map(|queued| queued.lock_deadline)
            .min()
            .unwrap_or_else(Instant::now);
        let batch: Vec<Job> = batch.into_iter().map(|queued| queued.job).collect();
        if let Err(error) = begin(conn, lock_deadline) {
            let error = super::query(error);
            for job in batch {
                let done = job(Err(clone_error(&error)));
                (done.answer)(Err(clone_error(&error)));
            }
            return false;
        }
        if self.lookups.batch_began(conn).is_err() {
            // Without the data version another process's commit could go unseen: read everything afresh.
            self.lookups.forget_all();
        }
        let mut answers = Vec::with_capacity(batch.len());
        let mut broken: Option<StoreError> = None;
        for job in batch {
            if let Some(error) = &broken {
                let done = job(Err(clone_error(error)));
                answers.push(done.answer);
                continue;
            }
            if let Err(error) = control(conn, SAVEPOINT) {
                broken = Some(super::query(error));
                let done = job(Err(broken.as_ref().map_or_else(unavailable, clone_error)));
                answers.push(done.answer);
                continue;
            }
            let done = job(Ok(conn));
            let closed = if done.rollback {
                // What the job read after its own writes may be cached; those writes are gone now.
                self.lookups.forget_all();
                control(conn, ROLLBACK_JOB).and_then(|()| control(conn, RELEASE_JOB))
            } else {
                control(conn, RELEASE_JOB)
            };
            if let Err(error) = closed {
                broken = Some(super::query(error));
            }
            answers.push(done.answer);
        }
        let outcome = match broken {
            Some(error) => Err(error),
            None => control(conn, COMMIT).map_err(super::query),
        };
        if outcome.is_err() {
            // Whatever failed, leave the connection outside any transaction for the next batch.
            let _ = control(conn, ROLLBACK);
            self.lookups.forget_all();
        }
        // Before anyone hears "done": a caller that reads its own write next must not get the cached old value.
        self.cache.batch_ended();
        let committed = outcome.is_ok();
        for answer in answers {
            answer(outcome.as_ref().map(|_| ()).map_err(clone_error));
        }
        committed
    }
}

/// Begins the batch's transaction, waiting for a write lock another process holds until `lock_deadline`
/// (at least one try, so a free lock is always taken). The wait is SQLite's busy handler, given what is left
/// of the deadline; afterwards the handler gets its usual bound back for the statements of the batch.
fn begin(conn: &Connection, lock_deadline: Instant) -> rusqlite::Result<()> {
    let outcome = loop {
        let left = lock_deadline.saturating_duration_since(Instant::now());
        conn.busy_timeout(left)?;
        match control(conn, BEGIN) {
            Err(rusqlite::Error::SqliteFailure(failure, _))
                if failure.code == rusqlite::ErrorCode::DatabaseBusy && Instant::now() < lock_deadline =>
            {
                thread::sleep(BEGIN_RETRY_PAUSE.min(left));
            }
            outcome => break outcome,
        }
    };
    // Only a closed connection refuses a new timeout, and then the batch's statements fail anyway.
    let _ = conn.busy_timeout(WRITE_LOCK_WAIT);
    outcome
}

/// Runs one of the writer's transaction-control statements, prepared once per connection (parsing them
/// again for every job costs more than running them).
fn control(conn: &Connection, statement: &str) -> rusqlite::Result<()> {
    conn.prepare_cached(statement)?.execute([]).map(|_| ())
}

fn unavailable() -> StoreError {
    StoreError::Unavailable("the write transaction broke".to_owned())
}

/// Store errors carry boxed sources; every job of a failed batch gets its own copy of the reason.
fn clone_error(error: &StoreError) -> StoreError {
    match error {
        StoreError::Unavailable(reason) => StoreError::Unavailable(reason.clone()),
        StoreError::Busy(reason) => StoreError::Busy(reason.clone()),
        StoreError::Corrupt(reason) => StoreError::Corrupt(reason.clone()),
        StoreError::Task(reason) => StoreError::Task(reason.clone()),
        StoreError::Query(source) => StoreError::Task(format!("the batch's transaction failed: {source}")),
    }
}
