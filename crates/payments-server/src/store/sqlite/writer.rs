//! The single SQLite writer: one thread owns the write connection and commits the jobs that queued up while
//! the previous commit ran as one transaction (group commit), each job inside its own savepoint so that a
//! refused or failed job rolls back alone. SQLite allows one writer at a time anyway (PERF-NOTES: more writer
//! connections only collide in the busy handler); batching turns N commits into one.
//!
//! A job's answer is released only after the batch committed: a caller never hears "done" for a write that
//! could still be lost.

use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;

use rusqlite::Connection;

use super::read_cache::ReceiptReadCache;
use crate::store::StoreError;

/// At most this many jobs share one commit, so one commit stays short.
const MAX_BATCH: usize = 64;

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

/// Sends jobs to the writer thread; the thread ends when every handle is dropped.
#[derive(Debug, Clone)]
pub(super) struct WriterHandle {
    jobs: Sender<Job>,
}

impl WriterHandle {
    /// Starts the writer thread on `conn`, whose update hook feeds `cache`.
    pub(super) fn start(conn: Connection, cache: Arc<ReceiptReadCache>) -> Result<Self, StoreError> {
        let (jobs, inbox) = mpsc::channel::<Job>();
        thread::Builder::new()
            .name("sqlite-writer".to_owned())
            .spawn(move || run(&conn, &inbox, &cache))
            .map_err(|error| StoreError::Unavailable(format!("starting the writer thread: {error}")))?;
        Ok(WriterHandle { jobs })
    }

    /// Queues a job; when the writer is gone the job is told so at once.
    pub(super) fn submit(&self, job: Job) {
        if let Err(mpsc::SendError(job)) = self.jobs.send(job) {
            let done = job(Err(StoreError::Unavailable(
                "the writer thread stopped".to_owned(),
            )));
            (done.answer)(Err(StoreError::Unavailable(
                "the writer thread stopped".to_owned(),
            )));
        }
    }
}

fn run(conn: &Connection, inbox: &Receiver<Job>, cache: &ReceiptReadCache) {
    while let Ok(first) = inbox.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match inbox.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        commit_batch(conn, batch, cache);
    }
}

/// Another process (a `keys` command, a second server) may hold the write lock; each try waits up to the
/// connection's `busy_timeout` before the batch is refused as busy.
const BEGIN_TRIES: usize = 3;

fn begin(conn: &Connection) -> rusqlite::Result<()> {
    let mut outcome = conn.execute_batch(BEGIN);
    for _ in 1..BEGIN_TRIES {
        match &outcome {
            Err(rusqlite::Error::SqliteFailure(failure, _))
                if failure.code == rusqlite::ErrorCode::DatabaseBusy =>
            {
                outcome = conn.execute_batch(BEGIN);
            }
            _ => break,
        }
    }
    outcome
}

fn commit_batch(conn: &Connection, batch: Vec<Job>, cache: &ReceiptReadCache) {
    if let Err(error) = begin(conn) {
        let error = super::query(error);
        for job in batch {
            let done = job(Err(clone_error(&error)));
            (done.answer)(Err(clone_error(&error)));
        }
        return;
    }
    let mut answers = Vec::with_capacity(batch.len());
    let mut broken: Option<StoreError> = None;
    for job in batch {
        if let Some(error) = &broken {
            let done = job(Err(clone_error(error)));
            answers.push(done.answer);
            continue;
        }
        if let Err(error) = conn.execute_batch(SAVEPOINT) {
            broken = Some(super::query(error));
            let done = job(Err(broken.as_ref().map_or_else(unavailable, clone_error)));
            answers.push(done.answer);
            continue;
        }
        let done = job(Ok(conn));
        let closed = if done.rollback {
            conn.execute_batch(ROLLBACK_JOB)
                .and_then(|()| conn.execute_batch(RELEASE_JOB))
        } else {
            conn.execute_batch(RELEASE_JOB)
        };
        if let Err(error) = closed {
            broken = Some(super::query(error));
        }
        answers.push(done.answer);
    }
    let outcome = match broken {
        Some(error) => Err(error),
        None => conn.execute_batch(COMMIT).map_err(super::query),
    };
    if outcome.is_err() {
        // Whatever failed, leave the connection outside any transaction for the next batch.
        let _ = conn.execute_batch(ROLLBACK);
    }
    // Before anyone hears "done": a caller that reads its own write next must not get the cached old value.
    cache.batch_ended();
    for answer in answers {
        answer(outcome.as_ref().map(|_| ()).map_err(clone_error));
    }
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
