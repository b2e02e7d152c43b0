//! The read-only GraphQL endpoint (`/api/graphql`), built with `async-graphql` over the same user service
//! as the REST routes.
//!
//! - Queries: `user(wallet)`, `follows(wallet, first, after)`, `liveUsers(first)`, `leaderboard(first)`,
//!   and `User.follows` to walk the follow graph. There is no mutation type: a mutation is a GraphQL error
//!   and changes nothing.
//! - One query cannot scan the database: pages are 1..=[`MAX_PAGE`] (a larger `first` is an error, not a
//!   clamp), documents larger than [`cost::MAX_NODES`] fields once expanded, deeper than [`MAX_DEPTH`] or
//!   costlier than [`MAX_COMPLEXITY`] (a list field costs `first` times its selection) are refused before
//!   anything expands or runs them ([`cost`] costs each fragment once).
//! - One query cannot hold the server: documents are parsed, costed and run on the blocking pool (never on
//!   the workers that serve other requests), at most [`CONCURRENT_QUERIES`] at once, each within
//!   [`QUERY_BUDGET`].
//! - Every user field needs the key's `users:read` scope besides the endpoint's `graphql:read`: a key without
//!   it gets a `forbidden` error for the field, never a silent `null`.
//! - Introspection is on in development mode and with `--graphql-introspection`, off otherwise.

mod cost;
mod errors;
mod schema;

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use async_graphql::{EmptyMutation, EmptySubscription, Request, Response, Schema, ServerError};
use payments_core::ErrorCode;
use tokio::sync::Semaphore;

use crate::domain::scope::Scopes;
use crate::http::state::AppState;
use crate::services::users::UserService;

pub(crate) use schema::Query;

/// Deepest selection a document may nest (the standard introspection query needs 13 levels).
pub(crate) const MAX_DEPTH: usize = 15;
/// Largest cost of one document: each field costs 1, a paged field `first` times its selection.
pub(crate) const MAX_COMPLEXITY: usize = 1_000;
/// Largest `first` of a page.
pub(crate) const MAX_PAGE: i32 = 100;
/// `first` when a page does not say.
pub(crate) const DEFAULT_PAGE: i32 = 25;
/// Time one query may take from its permit to its answer; a query still running then is dropped at its
/// next await and answered with a `deadline_exceeded` error.
pub(crate) const QUERY_BUDGET: Duration = Duration::from_secs(2);
/// Queries running at once; one more waits (at most [`QUERY_BUDGET`]) for a place. Two: the machine's
/// cores, so queries can never take every thread while the workers keep serving everything else.
pub(crate) const CONCURRENT_QUERIES: usize = 2;

type GraphqlSchema = Schema<Query, EmptyMutation, EmptySubscription>;

/// The schema, built once at start.
#[derive(Clone)]
pub(crate) struct GraphqlEndpoint {
    schema: GraphqlSchema,
    places: Arc<Semaphore>,
    introspection: bool,
}

impl fmt::Debug for GraphqlEndpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GraphqlEndpoint")
            .field("max_depth", &MAX_DEPTH)
            .field("max_complexity", &MAX_COMPLEXITY)
            .finish_non_exhaustive()
    }
}

impl GraphqlEndpoint {
    /// Builds the schema over the user service; `introspection` answers `__schema` and `__type`.
    pub(crate) fn new(users: UserService, introspection: bool) -> Self {
        let builder = Schema::build(Query, EmptyMutation, EmptySubscription)
            .data(users)
            .limit_depth(MAX_DEPTH)
            .limit_complexity(MAX_COMPLEXITY);
        let builder = if introspection {
            builder
        } else {
            builder.disable_introspection()
        };
        GraphqlEndpoint {
            schema: builder.finish(),
            places: Arc::new(Semaphore::new(CONCURRENT_QUERIES)),
            introspection,
        }
    }

    /// Runs one request for a caller holding `scopes`: waits for a place, then parses, costs and (when
    /// admitted) runs it on the blocking pool within [`QUERY_BUDGET`].
    pub(crate) async fn execute(&self, request: Request, scopes: Scopes) -> Response {
        let place = match tokio::time::timeout(QUERY_BUDGET, Arc::clone(&self.places).acquire_owned()).await {
            Ok(Ok(place)) => place,
            Ok(Err(_)) | Err(_) => {
                return refused(
                    ErrorCode::Overloaded,
                    "too many GraphQL queries are running; retry later",
                );
            }
        };
        let schema = self.schema.clone();
        let introspection = self.introspection;
        let runtime = tokio::runtime::Handle::current();
        let running = tokio::task::spawn_blocking(move || {
            let _place = place;
            run(&runtime, &schema, introspection, request.data(scopes))
        });
        running.await.unwrap_or_else(|error| {
            tracing::error!(error = %error, "graphql query task failed");
            refused(ErrorCode::Failed, "internal server error")
        })
    }
}

/// Parses and costs the document (the work a hostile document could make large, bounded by [`cost`]), then
/// runs it within the budget. Called on a blocking thread.
fn run(
    runtime: &tokio::runtime::Handle,
    schema: &GraphqlSchema,
    introspection: bool,
    mut request: Request,
) -> Response {
    let document = match async_graphql::parser::parse_query(&request.query) {
        Ok(document) => document,
        Err(error) => return refused(ErrorCode::InvalidInput, &error.to_string()),
    };
    match cost::admit(&document, &request.variables) {
        Err(refusal) => return refused(ErrorCode::InvalidInput, &refusal.message()),
        // The schema without introspection answers `__schema` with a silent null; say why instead.
        Ok(cost) if cost.introspects && !introspection => {
            return refused(
                ErrorCode::Forbidden,
                "introspection is off on this server (start it with --graphql-introspection to allow it)",
            );
        }
        Ok(_) => {}
    }
    request.set_parsed_query(document);
    runtime.block_on(async {
        match tokio::time::timeout(QUERY_BUDGET, schema.execute(request)).await {
            Ok(response) => response,
            Err(_) => refused(
                ErrorCode::DeadlineExceeded,
                &format!(
                    "the query took longer than its {} ms budget",
                    QUERY_BUDGET.as_millis()
                ),
            ),
        }
    })
}

/// A response with one error (for the whole document: no location) and no data.
fn refused(code: ErrorCode, message: &str) -> Response {
    let mut error = ServerError::new(message, None);
    error.extensions = errors::coded(code, message).extensions;
    Response::from_errors(vec![error])
}

/// The app's endpoint, built over its user service on first use and kept in its state.
pub(crate) fn endpoint(state: &AppState) -> Option<&GraphqlEndpoint> {
    state.graphql.get_or_init(|| {
        let introspection = state.config.dev_mode || state.config.graphql_introspection;
        GraphqlEndpoint::new(state.services.users.clone(), introspection)
    })
}
