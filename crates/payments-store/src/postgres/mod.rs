//! PostgreSQL backend: a `deadpool` pool of `tokio-postgres` connections, READ COMMITTED transactions, and
//! concurrency handled by the database rather than by a single writer: row locks (`FOR UPDATE`), atomic
//! conditional updates (stock), `ON CONFLICT` on unique constraints (receipt ids, idempotency keys, one
//! split per merchant) and `SKIP LOCKED` leases (outbox), so several server instances can share a database.
//!
//! Every operation checks [`Availability`] first, then runs as one transaction; transient failures
//! (serialization failures, deadlocks, lock timeouts) run it again, see [`retry`].

mod admin_sessions;
#[cfg(test)]
mod batch_tests;
mod batcher;
mod batches;
mod billing;
mod chain;
mod config;
mod connection;
mod endpoint_repos;
mod endpoints;
mod error;
mod finality;
mod idempotency;
mod inventory;
mod inventory_images;
mod inventory_list;
mod ledger;
mod maintenance;
mod merchant;
#[cfg(test)]
mod migration_tests;
mod migrations;
#[cfg(test)]
pub(crate) use migrations::MIGRATIONS;
mod onramp_sessions;
mod outbox;
#[cfg(any(test, feature = "testing"))]
mod pgbouncer;
mod plan_deliveries;
#[cfg(test)]
mod pooler_tests;
mod receipt_stamp;
mod receipts;
mod reconcile;
mod recurring;
mod recurring_changes;
mod recurring_charges;
mod recurring_create;
mod recurring_notices;
mod recurring_repos;
mod refunds;
mod relayer_lease;
mod reserve;
mod retry;
mod rows;
mod sale;
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
mod stock;
mod subscription_hooks;
mod subscriptions;
#[cfg(any(test, feature = "testing"))]
mod test_support;
#[cfg(test)]
mod tests;
#[cfg(any(test, feature = "testing"))]
mod throwaway_cluster;
mod tls;
#[cfg(test)]
mod tls_tests;
mod transition;
mod users;
mod users_repos;
mod users_search;

use std::fmt;
use std::time::Duration;

use async_trait::async_trait;
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use futures_util::future::BoxFuture;

use crate::{Availability, HealthRepository, StoreError, StoreTiming};
use batches::Batches;
use connection::{PgClient, Queries, Statements};
use error::PgError;

pub(crate) use config::PgPoolOptions;
pub(crate) use maintenance::check;
#[cfg(any(test, feature = "testing"))]
pub use pgbouncer::PgBouncer;
#[cfg(any(test, feature = "testing"))]
pub use test_support::PgTestDatabase;
#[cfg(any(test, feature = "testing"))]
pub use throwaway_cluster::ThrowawayCluster;

const HEALTH_CHECK: &str = "SELECT 1";
/// The `backend` label of this store's operation times.
const BACKEND: &str = "postgres";

/// The PostgreSQL store.
#[derive(Clone)]
pub struct PgStore {
    connections: Connections,
    availability: Availability,
    timing: StoreTiming,
    /// The statements that concurrent requests share (see [`batcher`]).
    batches: Batches,
}

/// Where pooled connections come from.
#[derive(Clone)]
struct Connections {
    pool: Pool,
    /// The longest a request waits for a connection in all (see [`PgPoolOptions::wait_timeout`]).
    wait: Duration,
    /// Cached named statements, or unnamed ones behind a transaction pooler.
    statements: Statements,
}

impl fmt::Debug for PgStore {
    /// The pool's numbers only: the connection settings hold the password.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let status = self.connections.pool.status();
        f.debug_struct("PgStore")
            .field("max_size", &status.max_size)
            .field("size", &status.size)
            .field("available", &status.available)
            .field("availability", &self.availability)
            .field("statements", &self.connections.statements.mode())
            .finish()
    }
}

impl PgStore {
    /// Connects with the default pool (16 connections) and applies pending migrations.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] when the URL is invalid, TLS cannot be set up as it asks (said in the
    /// operator's terms: no TLS on the server, a certificate for another host, an untrusted chain), or the
    /// server does not answer;
    /// another [`StoreError`] when a migration fails.
    pub async fn open(url: &str, now_ms: i64) -> Result<Self, StoreError> {
        Self::open_with(url, now_ms, PgPoolOptions::default(), Availability::default()).await
    }

    /// Like [`PgStore::open`], with pool settings and an [`Availability`] switch shared with the server.
    ///
    /// # Errors
    /// As [`PgStore::open`].
    pub(crate) async fn open_with(
        url: &str,
        now_ms: i64,
        options: PgPoolOptions,
        availability: Availability,
    ) -> Result<Self, StoreError> {
        let config::ConnectionSettings {
            config,
            tls,
            statements,
        } = config::connection_config(url, options)?;
        let manager = Manager::from_config(
            config,
            tls.connector()?,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(options.max_size)
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(options.wait_timeout))
            .create_timeout(Some(options.wait_timeout))
            .recycle_timeout(Some(options.wait_timeout))
            .build()
            .map_err(|error| StoreError::Unavailable(error.to_string()))?;
        let mut client = pool
            .get()
            .await
            .map_err(|error| tls.connect_failure(error.into()))?;
        let applied = migrations::apply(&mut client, now_ms)
            .await
            .map_err(PgError::into_store)?;
        if !applied.is_empty() {
            tracing::info!(?applied, "applied PostgreSQL migrations");
        }
        let connections = Connections {
            pool,
            wait: options.wait_timeout,
            statements: Statements::new(statements),
        };
        Ok(PgStore {
            batches: Batches::new(&connections),
            connections,
            availability,
            timing: StoreTiming::default(),
        })
    }

    /// Reports each operation's time to `timing` (`query` for one repository call, `sale` and
    /// `transition` for the use-case transactions).
    pub(crate) fn timed(mut self, timing: StoreTiming) -> Self {
        self.timing = timing;
        self
    }

    /// The switch checked by every operation.
    pub fn availability(&self) -> &Availability {
        &self.availability
    }

    /// Runs `operation` (one transaction on its own pooled connection) until it succeeds, fails for good,
    /// or has been tried [`retry::MAX_ATTEMPTS`] times ([`StoreError::Busy`]).
    async fn run<'a, T: Send>(
        &self,
        operation: impl Fn(PgClient) -> BoxFuture<'a, Result<T, PgError>> + Send,
    ) -> Result<T, StoreError> {
        self.availability.check()?;
        let attempts = async {
            let mut attempt = 0;
            loop {
                let client = self.client().await?;
                match operation(client).await {
                    Ok(value) => return Ok(value),
                    Err(error) => {
                        let pause = retry::pause_after(error, attempt, false)?;
                        tokio::time::sleep(pause).await;
                        attempt += 1;
                    }
                }
            }
        };
        self.timing.time(BACKEND, "query", attempts).await
    }

    /// A pooled connection (see [`Connections::get`]).
    async fn client(&self) -> Result<PgClient, StoreError> {
        self.connections.get().await
    }
}

impl Connections {
    /// A pooled connection inside an attempt, whose failure is the attempt's (bounded by the pool's own
    /// wait and create timeouts).
    async fn for_attempt(&self) -> Result<PgClient, PgError> {
        let object = self.pool.get().await?;
        Ok(PgClient::new(object, self.statements.clone()))
    }

    /// A pooled connection; none within the wait timeout is [`StoreError::Unavailable`]. The pool bounds its
    /// wait for a free slot and the opening of a new connection each; this bounds the two together, so a
    /// request never waits longer than one timeout for the server.
    async fn get(&self) -> Result<PgClient, StoreError> {
        match tokio::time::timeout(self.wait, self.for_attempt()).await {
            Ok(pooled) => pooled.map_err(PgError::into_store),
            Err(_) => Err(StoreError::Unavailable(format!(
                "no PostgreSQL connection within {} ms",
                self.wait.as_millis()
            ))),
        }
    }
}

#[async_trait]
impl HealthRepository for PgStore {
    async fn check_health(&self) -> Result<(), StoreError> {
        self.run(|client| {
            Box::pin(async move {
                let statement = client.prepare_cached(HEALTH_CHECK).await?;
                client.execute(&statement, &[]).await?;
                Ok(())
            })
        })
        .await
    }
}
