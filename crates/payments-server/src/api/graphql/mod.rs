//! The read-only GraphQL endpoint (`/api/graphql`), built with `async-graphql` over the same user service
//! as the REST routes.
//!
//! - Queries: `user(wallet)`, `follows(wallet, first, after)`, `liveUsers(first)`, `leaderboard(first)`,
//!   and `User.follows` to walk the follow graph. There is no mutation type: a mutation is a GraphQL error
//!   and changes nothing.
//! - One query cannot scan the database: pages are 1..=[`MAX_PAGE`] (a larger `first` is an error, not a
//!   clamp), documents deeper than [`MAX_DEPTH`] or costlier than [`MAX_COMPLEXITY`] (a list field costs
//!   `first` times its selection) are refused before anything runs.
//! - Every user field needs the key's `users:read` scope besides the endpoint's `graphql:read`: a key without
//!   it gets a `forbidden` error for the field, never a silent `null`.
//! - Introspection is on (the standard introspection query fits the limits).

mod errors;
mod schema;

use std::fmt;

use async_graphql::{EmptyMutation, EmptySubscription, Request, Response, Schema};

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

/// The schema, built once at start.
#[derive(Clone)]
pub(crate) struct GraphqlEndpoint {
    schema: Schema<Query, EmptyMutation, EmptySubscription>,
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
    /// Builds the schema over the user service.
    pub(crate) fn new(users: UserService) -> Self {
        let schema = Schema::build(Query, EmptyMutation, EmptySubscription)
            .data(users)
            .limit_depth(MAX_DEPTH)
            .limit_complexity(MAX_COMPLEXITY)
            .finish();
        GraphqlEndpoint { schema }
    }

    /// Runs one request for a caller holding `scopes`.
    pub(crate) async fn execute(&self, request: Request, scopes: Scopes) -> Response {
        self.schema.execute(request.data(scopes)).await
    }
}

/// The app's endpoint, built over its user service on first use and kept in its state.
pub(crate) fn endpoint(state: &AppState) -> Option<&GraphqlEndpoint> {
    state
        .graphql
        .get_or_init(|| GraphqlEndpoint::new(state.services.users.clone()))
}
