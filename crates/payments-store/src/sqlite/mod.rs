//! SQLite backend: WAL, one writer thread that owns the write connection and group-commits the queued
//! transactions (per PERF-NOTES: more writers only collide in the busy handler), and a small pool of
//! read-only connections.

mod admin_sessions;
mod billing;
mod chain;
mod checkpoint;
#[cfg(test)]
mod checkpoint_tests;
mod endpoint_repos;
mod endpoints;
mod finality;
mod idempotency;
mod inventory;
mod inventory_images;
mod inventory_list;
mod ledger;
mod maintenance;
mod migrations;
#[cfg(test)]
pub(crate) use migrations::MIGRATIONS;
mod onramp_sessions;
mod order_items;
mod plan_deliveries;
mod read_cache;
#[cfg(test)]
mod read_cache_tests;
mod receipt_stock;
mod receipts;
mod reconcile;
mod recurring;
mod recurring_changes;
mod recurring_charges;
mod recurring_notices;
mod recurring_repos;
mod refunds;
mod relayer_lease;
mod repos;
mod reserve;
mod rows;
mod schema_v1;
mod schema_v10;
mod schema_v11;
mod schema_v12;
mod schema_v13;
mod schema_v14;
mod schema_v15;
mod schema_v16;
mod schema_v17;
mod schema_v18;
mod schema_v2;
mod schema_v21;
mod schema_v22;
mod schema_v3;
mod schema_v4;
mod schema_v5;
mod schema_v7;
mod schema_v8;
mod schema_v9;
mod settings;
mod shops;
mod splits;
mod subscription_hooks;
mod subscriptions;
mod use_cases;
mod users;
mod users_repos;
mod users_search;
mod webhooks;
mod writer;
mod writer_cache;
#[cfg(test)]
mod writer_cache_tests;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use r2d2::Pool;
use r2d2_sqlite::SqliteConnectionManager;
use rusqlite::hooks::Action;
use rusqlite::{Connection, ErrorCode};
use tokio::sync::oneshot;

use crate::{Availability, StoreError, StoreTiming, TxError};
use read_cache::ReceiptReadCache;
use writer::{JobDone, WriterHandle};
use writer_cache::WriterCache;

pub(crate) use maintenance::{backup, check};

const CONNECTION_PRAGMAS: &str = "PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
PRAGMA busy_timeout = 1000;
PRAGMA foreign_keys = ON;";
/// Reader connections refuse writes, so a write can never bypass the single writer by accident.
const READER_PRAGMAS: &str = "PRAGMA query_only = ON;";
const HEALTH_CHECK: &str = "SELECT 1";

const READER_CONNECTIONS: u32 = 8;
/// The `backend` label of this store's operation times.
const BACKEND: &str = "sqlite";
/// Prepared statements kept per connection: every hot statement is reused instead of parsed per request
/// (parsing a receipt SELECT costs more than running it).
const STATEMENT_CACHE: usize = 64;
/// How long a request waits for a reader connection before the datastore counts as unavailable: short, so
/// that during an outage a request still answers (503, or a degraded list) within 2 s.
const CONNECTION_TIMEOUT: Duration = Duration::from_secs(1);

type SqlResult<T> = Result<T, rusqlite::Error>;

/// The SQLite store: cheap to clone (pools and the writer handle are shared).
#[derive(Debug, Clone)]
pub struct SqliteStore {
    readers: Pool<SqliteConnectionManager>,
    writer: WriterHandle,
    /// Merchants' receipt reads answered from memory, exact for this process's writes (see its module).
    receipt_cache: Arc<ReceiptReadCache>,
    /// Products and merchant configuration read by the writer's transactions (see its module).
    lookups: Arc<WriterCache>,
    availability: Availability,
    timing: StoreTiming,
}

impl SqliteStore {
    /// Opens (creating if needed) the database, applies pending migrations and starts the writer thread.
    pub fn open(path: &Path, now_ms: i64, availability: Availability) -> Result<Self, StoreError> {
        create_private(path)?;
        let mut conn = Connection::open(path).map_err(query)?;
        conn.execute_batch(CONNECTION_PRAGMAS).map_err(query)?;
        conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
        migrations::apply(&mut conn, now_ms).map_err(query)?;
        let receipt_cache = Arc::new(ReceiptReadCache::default());
        let lookups = Arc::new(WriterCache::default());
        watch_writes(&conn, &receipt_cache, &lookups).map_err(query)?;
        let checkpoints = checkpoint::start(open_checkpointer(path)?)?;
        conn.pragma_update(None, "wal_autocheckpoint", checkpoint::WRITER_CHECKPOINT_FRAMES)
            .map_err(query)?;
        let writer = WriterHandle::start(
            conn,
            Arc::clone(&receipt_cache),
            Arc::clone(&lookups),
            checkpoints,
        )?;
        let reader_manager = SqliteConnectionManager::file(path).with_init(|conn| {
            conn.execute_batch(CONNECTION_PRAGMAS)?;
            conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
            conn.execute_batch(READER_PRAGMAS)
        });
        let readers = Pool::builder()
            .max_size(READER_CONNECTIONS)
            .min_idle(Some(1))
            .connection_timeout(CONNECTION_TIMEOUT)
            // r2d2 checks each connection on checkout by running an empty statement (prepared afresh every
            // time); a connection to a local file does not go stale, and a broken one fails its query anyway.
            .test_on_check_out(false)
            .build(reader_manager)
            .map_err(unavailable)?;
        Ok(SqliteStore {
            readers,
            writer,
            receipt_cache,
            lookups,
            availability,
            timing: StoreTiming::default(),
        })
    }

    /// Reports each operation's time to `timing` (as `read` or `write`).
    pub(crate) fn timed(mut self, timing: StoreTiming) -> Self {
        self.timing = timing;
        self
    }

    /// Runs a read on the blocking pool with a reader connection.
    async fn read<T>(
        &self,
        operation: impl FnOnce(&Connection) -> SqlResult<T> + Send + 'static,
    ) -> Result<T, StoreError>
    where
        T: Send + 'static,
    {
        self.availability.check()?;
        let readers = self.readers.clone();
        let reading = tokio::task::spawn_blocking(move || {
            let conn = readers.get().map_err(unavailable)?;
            operation(&conn).map_err(query)
        });
        self.timing
            .time(BACKEND, "read", reading)
            .await
            .map_err(|error| StoreError::Task(error.to_string()))?
    }

    /// A point read run right here when a reader connection is free (a few microseconds: cheaper than the
    /// hop to the blocking pool), else on the blocking pool.
    async fn read_point<T>(
        &self,
        operation: impl FnOnce(&Connection) -> SqlResult<T> + Send + 'static,
    ) -> Result<T, StoreError>
    where
        T: Send + 'static,
    {
        self.availability.check()?;
        match self.readers.try_get() {
            Some(conn) => {
                let started = std::time::Instant::now();
                let read = operation(&conn).map_err(query);
                self.timing.record(BACKEND, "read", started.elapsed());
                read
            }
            None => self.read(operation).await,
        }
    }

    /// Runs `operation` as one transaction of the writer (committed with whatever else was queued, inside
    /// its own savepoint); an `Err` rolls back its writes alone.
    async fn transact<T, E>(
        &self,
        operation: impl FnOnce(&Connection) -> Result<T, TxError<E>> + Send + 'static,
    ) -> Result<T, TxError<E>>
    where
        T: Send + 'static,
        E: Send + 'static,
    {
        self.availability.check()?;
        let (reply, answer) = oneshot::channel::<Result<T, TxError<E>>>();
        self.writer.submit(Box::new(move |conn| {
            let outcome = match conn {
                Ok(conn) => catch_unwind(AssertUnwindSafe(|| operation(conn))).unwrap_or_else(|_| {
                    Err(TxError::Store(StoreError::Task(
                        "a write transaction panicked".to_owned(),
                    )))
                }),
                Err(error) => Err(TxError::Store(error)),
            };
            JobDone {
                rollback: outcome.is_err(),
                answer: Box::new(move |committed| {
                    let answer = match committed {
                        Ok(()) => outcome,
                        Err(error) => Err(TxError::Store(error)),
                    };
                    let _ = reply.send(answer);
                }),
            }
        }));
        self.timing
            .time(BACKEND, "write", answer)
            .await
            .unwrap_or_else(|_| {
                Err(TxError::Store(StoreError::Unavailable(
                    "the writer thread stopped".to_owned(),
                )))
            })
    }

    /// [`Self::transact`] for plain writes, whose only failures are the datastore's.
    async fn write<T>(
        &self,
        operation: impl FnOnce(&Connection) -> SqlResult<T> + Send + 'static,
    ) -> Result<T, StoreError>
    where
        T: Send + 'static,
    {
        self.transact::<T, std::convert::Infallible>(move |conn| {
            operation(conn).map_err(|error| TxError::Store(query(error)))
        })
        .await
        .map_err(|error| match error {
            TxError::Store(error) => error,
            TxError::Refused(never) => match never {},
            TxError::IdempotencyConflict => {
                StoreError::Task("a plain write has no idempotency key".to_owned())
            }
        })
    }
}

/// The database holds key hashes, sealed signing keys and buyers' details: a new file is created readable by
/// its owner only (0600), before SQLite opens it; SQLite gives its `-wal` and `-shm` files the same mode.
/// An existing file keeps the mode its operator chose.
fn create_private(path: &Path) -> Result<(), StoreError> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(_) => Ok(()),
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(error) => Err(StoreError::Unavailable(format!(
            "creating the database file {}: {error}",
            path.display()
        ))),
    }
}

/// The writer connection's update hook (one per connection) tells both caches which rows each write touched.
fn watch_writes(
    writer: &Connection,
    receipts: &Arc<ReceiptReadCache>,
    lookups: &Arc<WriterCache>,
) -> SqlResult<()> {
    let (receipts, lookups) = (Arc::clone(receipts), Arc::clone(lookups));
    writer.update_hook(Some(move |_: Action, _: &str, table: &str, row_id: i64| {
        receipts.saw_write(table, row_id);
        lookups.saw_write(table, row_id);
    }))
}

/// The checkpoint thread's connection: the server's settings, and no automatic checkpoint of its own.
fn open_checkpointer(path: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open(path).map_err(query)?;
    conn.execute_batch(CONNECTION_PRAGMAS).map_err(query)?;
    Ok(conn)
}

fn unavailable(error: r2d2::Error) -> StoreError {
    StoreError::Unavailable(error.to_string())
}

/// Locked and busy databases are contention, answered 503 with Retry-After; corrupt values are corrupt data.
fn query(error: rusqlite::Error) -> StoreError {
    match error {
        rusqlite::Error::SqliteFailure(failure, _)
            if matches!(
                failure.code,
                ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked | ErrorCode::OperationInterrupted
            ) =>
        {
            StoreError::Busy(failure.to_string())
        }
        rusqlite::Error::FromSqlConversionFailure(_, _, source) => StoreError::Corrupt(source.to_string()),
        other => StoreError::Query(Box::new(other)),
    }
}
