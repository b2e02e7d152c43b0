//! The store's view of a pooled connection, in the two statement modes a PostgreSQL URL can ask for.
//!
//! - Direct (the default): each connection prepares a statement once and keeps it in its cache, so a
//!   repeated query costs one round trip (Bind/Execute) and no parse or plan.
//! - Behind a transaction pooler (`pooler=transaction` in the URL, e.g. PgBouncer's `pool_mode =
//!   transaction`): consecutive transactions of one client connection run on different server connections,
//!   so nothing may outlive a transaction on the server. Named prepared statements would (and their names,
//!   `s0`, `s1`, ..., are per process, so two instances would collide on one server connection); instead
//!   every query is an unnamed statement sent with its parameter types (Parse/Bind/Execute/Sync in one
//!   round trip). The types are learned once per SQL text and process by preparing it inside a
//!   transaction and closing it before that transaction ends, so even that leaves nothing behind.
//!   Session settings do not survive either: each transaction sets its `lock_timeout` with `SET LOCAL`.
//!
//! Every repository function takes `&impl Queries` (a connection or a transaction) and calls it exactly
//! as it would call `tokio-postgres`, so the SQL code does not know which mode it runs in.

use std::collections::HashMap;
use std::sync::{Arc, PoisonError, RwLock};

use async_trait::async_trait;
use deadpool_postgres::{Object, StatementCache};
use futures_util::{TryStreamExt, pin_mut};
use tokio_postgres::types::{ToSql, Type};
use tokio_postgres::{Client, Error, Row, Statement};

use super::config::LOCK_TIMEOUT_MS;

/// How statements reach the server (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum StatementMode {
    /// Named statements prepared once per connection and cached.
    #[default]
    Cached,
    /// Unnamed statements with their parameter types, nothing kept on the server between transactions.
    Unnamed,
}

/// What the store's transactions and statements need besides the connection: the mode, and (unnamed
/// mode) the parameter types learned so far, shared by every connection of the store.
#[derive(Debug, Clone, Default)]
pub(super) struct Statements {
    mode: StatementMode,
    param_types: Arc<RwLock<HashMap<String, Arc<[Type]>>>>,
}

impl Statements {
    pub(super) fn new(mode: StatementMode) -> Self {
        Statements {
            mode,
            param_types: Arc::default(),
        }
    }

    pub(super) fn mode(&self) -> StatementMode {
        self.mode
    }

    fn known_types(&self, sql: &str) -> Option<Arc<[Type]>> {
        let known = self.param_types.read().unwrap_or_else(PoisonError::into_inner);
        known.get(sql).cloned()
    }

    fn learn_types(&self, sql: &str, types: Arc<[Type]>) {
        let mut known = self.param_types.write().unwrap_or_else(PoisonError::into_inner);
        known.insert(sql.to_owned(), types);
    }
}

/// A statement ready to run: a cached named one, or the SQL text with its parameter types.
#[derive(Debug, Clone)]
pub(super) enum Prepared {
    Named(Statement),
    Unnamed { sql: Arc<str>, types: Arc<[Type]> },
}

/// A pooled connection outside any transaction.
pub(super) struct PgClient {
    object: Object,
    statements: Statements,
}

impl std::fmt::Debug for PgClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgClient")
            .field("mode", &self.statements.mode)
            .finish()
    }
}

impl PgClient {
    pub(super) fn new(object: Object, statements: Statements) -> Self {
        PgClient { object, statements }
    }

    /// Starts a transaction (READ COMMITTED), which ends with [`PgTransaction::commit`] or rolls back when
    /// dropped.
    ///
    /// # Errors
    /// When the server refuses or the connection breaks.
    pub(super) async fn transaction(&mut self) -> Result<PgTransaction<'_>, Error> {
        let transaction = self.object.transaction().await?;
        if self.statements.mode == StatementMode::Unnamed {
            // The startup option that sets it on a direct connection is not sent through a pooler.
            transaction
                .batch_execute(&format!("SET LOCAL lock_timeout = {LOCK_TIMEOUT_MS}"))
                .await?;
        }
        Ok(PgTransaction {
            transaction,
            statements: &self.statements,
        })
    }
}

/// An open transaction on a pooled connection.
pub(super) struct PgTransaction<'a> {
    transaction: deadpool_postgres::Transaction<'a>,
    statements: &'a Statements,
}

impl std::fmt::Debug for PgTransaction<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgTransaction")
            .field("mode", &self.statements.mode)
            .finish()
    }
}

impl PgTransaction<'_> {
    /// Commits.
    ///
    /// # Errors
    /// When the commit fails (the transaction is then rolled back by the server).
    pub(super) async fn commit(self) -> Result<(), Error> {
        self.transaction.commit().await
    }
}

/// What a repository function runs its SQL through: a connection ([`PgClient`]) or a transaction
/// ([`PgTransaction`]). The methods mirror `tokio-postgres`'s.
#[async_trait]
pub(super) trait Queries: Sync {
    /// The connection, its statement cache, the store's statement settings, and whether a transaction
    /// is open.
    fn session(&self) -> Session<'_>;

    /// The statement for `sql`: cached per connection (direct), or the text with its types (pooler).
    async fn prepare_cached(&self, sql: &str) -> Result<Prepared, Error> {
        self.session().prepare(sql).await
    }

    async fn query(&self, statement: &Prepared, params: &[&(dyn ToSql + Sync)]) -> Result<Vec<Row>, Error> {
        self.session().query(statement, params).await
    }

    async fn query_opt(
        &self,
        statement: &Prepared,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Option<Row>, Error> {
        let session = self.session();
        match statement {
            Prepared::Named(named) => session.client.query_opt(named, params).await,
            Prepared::Unnamed { sql, types } => {
                session.client.query_typed_opt(sql, &typed(params, types)).await
            }
        }
    }

    async fn query_one(&self, statement: &Prepared, params: &[&(dyn ToSql + Sync)]) -> Result<Row, Error> {
        let session = self.session();
        match statement {
            Prepared::Named(named) => session.client.query_one(named, params).await,
            Prepared::Unnamed { sql, types } => {
                session.client.query_typed_one(sql, &typed(params, types)).await
            }
        }
    }

    /// The number of rows the statement changed.
    async fn execute(&self, statement: &Prepared, params: &[&(dyn ToSql + Sync)]) -> Result<u64, Error> {
        let session = self.session();
        match statement {
            Prepared::Named(named) => session.client.execute(named, params).await,
            Prepared::Unnamed { sql, types } => {
                let stream = session.client.query_typed_raw(sql, typed(params, types)).await?;
                pin_mut!(stream);
                while stream.try_next().await?.is_some() {}
                Ok(stream.rows_affected().unwrap_or(0))
            }
        }
    }

    /// Runs `sql` (one or more statements, no parameters) with the simple protocol.
    async fn batch_execute(&self, sql: &str) -> Result<(), Error> {
        self.session().client.batch_execute(sql).await
    }
}

impl Queries for PgClient {
    fn session(&self) -> Session<'_> {
        Session {
            client: &self.object,
            cache: &self.object.statement_cache,
            statements: &self.statements,
            in_transaction: false,
        }
    }
}

impl Queries for PgTransaction<'_> {
    fn session(&self) -> Session<'_> {
        Session {
            client: self.transaction.client(),
            cache: &self.transaction.statement_cache,
            statements: self.statements,
            in_transaction: true,
        }
    }
}

/// See [`Queries::session`].
#[derive(Debug)]
pub(super) struct Session<'a> {
    client: &'a Client,
    cache: &'a StatementCache,
    statements: &'a Statements,
    in_transaction: bool,
}

impl Session<'_> {
    async fn prepare(&self, sql: &str) -> Result<Prepared, Error> {
        if self.statements.mode == StatementMode::Cached {
            return Ok(Prepared::Named(self.cache.prepare(self.client, sql).await?));
        }
        let types = match self.statements.known_types(sql) {
            Some(types) => types,
            None => {
                let types = self.learn_types(sql).await?;
                self.statements.learn_types(sql, types.clone());
                types
            }
        };
        Ok(Prepared::Unnamed {
            sql: Arc::from(sql),
            types,
        })
    }

    /// Prepares `sql` as a named statement and closes it again before the transaction around it ends, so
    /// the server connection the pooler lent keeps nothing. Outside a transaction it opens one: without it
    /// the pooler may hand the prepare and the close to different server connections.
    async fn learn_types(&self, sql: &str) -> Result<Arc<[Type]>, Error> {
        if self.in_transaction {
            return self.prepare_and_close(sql).await;
        }
        self.client.batch_execute("BEGIN").await?;
        match self.prepare_and_close(sql).await {
            Ok(types) => {
                self.client.batch_execute("COMMIT").await?;
                Ok(types)
            }
            Err(error) => {
                // The prepare's own error is the one to report; a failed rollback means a broken
                // connection, which the pool discards.
                let _ = self.client.batch_execute("ROLLBACK").await;
                Err(error)
            }
        }
    }

    async fn prepare_and_close(&self, sql: &str) -> Result<Arc<[Type]>, Error> {
        let statement = self.client.prepare(sql).await?;
        let types = Arc::from(statement.params());
        // Dropping the last handle sends the Close now, ahead of anything this transaction sends next.
        drop(statement);
        Ok(types)
    }

    async fn query(&self, statement: &Prepared, params: &[&(dyn ToSql + Sync)]) -> Result<Vec<Row>, Error> {
        match statement {
            Prepared::Named(named) => self.client.query(named, params).await,
            Prepared::Unnamed { sql, types } => self.client.query_typed(sql, &typed(params, types)).await,
        }
    }
}

/// Pairs each parameter with its type for an unnamed statement. A count mismatch is left to the server,
/// which refuses it as the prepared path would.
fn typed<'a>(params: &[&'a (dyn ToSql + Sync)], types: &[Type]) -> Vec<(&'a (dyn ToSql + Sync), Type)> {
    params
        .iter()
        .zip(types.iter().chain(std::iter::repeat(&Type::UNKNOWN)))
        .map(|(param, ty)| (*param, ty.clone()))
        .collect()
}
