//! What a handler gets: the app state and the request, plus the steps every Dev handler shares
//! (authenticate, rate-limit, check the scope, decode the body).

use std::hash::Hash;
use std::net::IpAddr;
use std::sync::OnceLock;

use bytes::Bytes;
use hyper::{HeaderMap, Request};
use serde::de::DeserializeOwned;

use crate::app::AppState;
use crate::domain::scope::Scope;
use crate::domain::subscription::Caller;
use crate::http::body;
use crate::http::credentials;
use crate::http::error::ApiError;
use crate::http::rate_limit::{PeerAddr, RateKey, RateLimits, RateStatus};
use crate::secret::Secret;
use crate::services::auth::{self, Credentials};

#[derive(Debug)]
pub(crate) struct Ctx<'a> {
    pub(crate) state: &'a AppState,
    request: &'a Request<Bytes>,
    query: Vec<(String, String)>,
    /// Set once the caller is known, so the rate-limit headers go on the response whatever it is.
    rate: OnceLock<RateStatus>,
}

impl<'a> Ctx<'a> {
    pub(crate) fn new(state: &'a AppState, request: &'a Request<Bytes>) -> Self {
        let query = request
            .uri()
            .query()
            .map(|query| {
                url::form_urlencoded::parse(query.as_bytes())
                    .into_owned()
                    .collect()
            })
            .unwrap_or_default();
        Ctx {
            state,
            request,
            query,
            rate: OnceLock::new(),
        }
    }

    pub(crate) fn headers(&self) -> &HeaderMap {
        self.request.headers()
    }

    pub(crate) fn body(&self) -> &Bytes {
        self.request.body()
    }

    /// The raw (still percent-encoded) query string, empty when there is none.
    pub(crate) fn raw_query(&self) -> &str {
        self.request.uri().query().unwrap_or_default()
    }

    /// The first value of a query parameter.
    pub(crate) fn query(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    /// A required query parameter (e.g. `id` of DELETE /api/inventory).
    pub(crate) fn required_query(&self, name: &str) -> Result<&str, ApiError> {
        self.query(name)
            .filter(|value| !value.trim().is_empty())
            .ok_or_else(|| ApiError::invalid_input(Some(name.to_owned()), format!("{name}: is required")))
    }

    pub(crate) fn json<T: DeserializeOwned>(&self) -> Result<T, ApiError> {
        body::json(self.body())
    }

    pub(crate) fn rate_status(&self) -> Option<&RateStatus> {
        self.rate.get()
    }

    /// The subscription key this Dev request presented (`None` on the edge path): a receipt keeps it,
    /// sealed, to sign its webhooks.
    pub(crate) fn presented_key(&self) -> Option<Secret> {
        match credentials::dev(self.headers(), self.state.config.edge_secret.is_some()) {
            Credentials::Key(key) => Some(key),
            Credentials::Edge { .. } | Credentials::Missing => None,
        }
    }

    /// Whether the request presents Dev credentials (a subscription key, or the edge path when configured).
    pub(crate) fn has_dev_credentials(&self) -> bool {
        let edge_configured = self.state.config.edge_secret.is_some();
        !matches!(
            credentials::dev(self.headers(), edge_configured),
            Credentials::Missing
        )
    }

    /// A Dev route: subscription key (or edge path), then the rate limit, then the scope.
    pub(crate) async fn dev_caller(&self, scope: Scope) -> Result<Caller, ApiError> {
        let edge_configured = self.state.config.edge_secret.is_some();
        let caller = self
            .caller(credentials::dev(self.headers(), edge_configured))
            .await?;
        auth::require_scope(&caller, scope)?;
        Ok(caller)
    }

    /// The status ping: the same keys, presented as `x-api-key` or Bearer; no scope needed.
    pub(crate) async fn api_key_caller(&self) -> Result<Caller, ApiError> {
        self.caller(credentials::api_key(self.headers())).await
    }

    async fn caller(&self, credentials: Credentials) -> Result<Caller, ApiError> {
        let caller = self.state.services.auth.authenticate(credentials).await?;
        let key = RateKey::Subscription(caller.subscription_id.clone());
        self.count_against(&self.state.rate_limits, &key)?;
        Ok(caller)
    }

    /// Counts this request against `key`'s quota and remembers the quota state for the response headers.
    ///
    /// # Errors
    /// 429 `rate_limited` when the quota is spent.
    pub(crate) fn count_against<K: Hash + Eq + Clone>(
        &self,
        limits: &RateLimits<K>,
        key: &K,
    ) -> Result<(), ApiError> {
        let checked = limits.check(key);
        let status = match checked {
            Ok(status) | Err(status) => status,
        };
        self.rate.set(status).ok();
        checked.map(|_| ()).map_err(|status| ApiError::RateLimited {
            reset_at_ms: status.reset_at_ms,
        })
    }

    /// The client's address, when the request came through the server's accept loop.
    pub(crate) fn peer_ip(&self) -> Option<IpAddr> {
        self.request.extensions().get::<PeerAddr>().map(|peer| peer.0)
    }
}
