//! The read-only GraphQL endpoint (`GET`/`POST /api/graphql`, scope `graphql:read`; user fields also need
//! `users:read`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::client::{Auth, Client};
use crate::error::Error;

/// A GraphQL answer: `data` and the errors. A GraphQL error (a refused mutation, a too deep or too costly
/// query, a field the key may not read) is an answer, not an [`Error`].
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[non_exhaustive]
pub struct GraphqlResponse {
    /// `null` when the query did not run.
    #[serde(default)]
    pub data: Value,
    /// Empty when everything resolved.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<GraphqlError>,
}

/// One GraphQL error.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[non_exhaustive]
pub struct GraphqlError {
    /// What went wrong.
    pub message: String,
    /// The field it happened in, when one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<Value>,
    /// `code` carries the REST error code (`forbidden`, `invalid_input`, `datastore_unavailable`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extensions: Option<Value>,
}

impl GraphqlError {
    /// `extensions.code`, when the server set one.
    pub fn code(&self) -> Option<&str> {
        self.extensions.as_ref()?.get("code")?.as_str()
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct GraphqlBody<'a> {
    query: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    variables: Option<&'a Value>,
}

impl Client {
    /// Runs `query` with `variables` (`POST /api/graphql`).
    ///
    /// ```no_run
    /// # async fn run(client: payments_client::Client) -> Result<(), payments_client::Error> {
    /// let answer = client.graphql("{ leaderboard(first: 3) { wallet xp } }", None).await?;
    /// println!("{}", answer.data);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::Api`]: `forbidden` (403, no `graphql:read`), `rate_limited` (429); [`Error::Transport`] or
    /// [`Error::Decode`] as for every call.
    pub async fn graphql(&self, query: &str, variables: Option<&Value>) -> Result<GraphqlResponse, Error> {
        let request = self
            .http()
            .post(self.url("api/graphql")?)
            .json(&GraphqlBody { query, variables });
        self.send_json(self.authorize(request, Auth::Subscription)).await
    }

    /// Runs `query` through `GET /api/graphql?query=` (cacheable by proxies; queries only).
    ///
    /// # Errors
    /// As [`Client::graphql`].
    pub async fn graphql_get(&self, query: &str) -> Result<GraphqlResponse, Error> {
        let mut url = self.url("api/graphql")?;
        url.query_pairs_mut().append_pair("query", query);
        self.get_json(url, Auth::Subscription).await
    }
}
