//! What a handler gets: the app state and the request head, plus the steps every Dev handler shares
//! (authenticate, rate-limit, check the scope, read and decode the body).
//!
//! The body is not read before the handler asks for it, after it has authenticated the caller: a request that
//! is refused (401, 403, 404, 405, 429) is answered without waiting for its body, and each route reads at most
//! its own limit, within the body timeout.

use std::hash::Hash;
use std::net::IpAddr;
use std::sync::{Mutex, OnceLock};

use bytes::Bytes;
use http_body_util::combinators::UnsyncBoxBody;
use hyper::{HeaderMap, Request};
use serde::de::DeserializeOwned;

use crate::domain::scope::Scope;
use crate::domain::subscription::Caller;
use crate::http::body;
use crate::http::credentials;
use crate::http::error::{ApiError, BoxError};
use crate::http::metrics_access::ListenerAddr;
use crate::http::rate_limit::{PeerAddr, RateKey, RateLimits, RateStatus};
use crate::http::state::AppState;
use crate::secret::Secret;
use crate::services::auth::{self, Credentials};

/// A request body not read yet, whatever its source (a socket, or bytes for in-process calls).
pub(crate) type RequestBody = UnsyncBoxBody<Bytes, BoxError>;

/// The body before any read; what `Ctx::body` shows until a handler has read it.
static NOT_READ: Bytes = Bytes::new();

pub(crate) struct Ctx<'a> {
    pub(crate) state: &'a AppState,
    request: &'a Request<()>,
    query: Vec<(String, String)>,
    /// Taken by the one read a handler does.
    unread: Mutex<Option<RequestBody>>,
    read: OnceLock<Bytes>,
    /// Set once the caller is known, so the rate-limit headers go on the response whatever it is.
    rate: OnceLock<RateStatus>,
}

impl std::fmt::Debug for Ctx<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ctx")
            .field("request", self.request)
            .field("body_read", &self.read.get().map(Bytes::len))
            .finish_non_exhaustive()
    }
}

impl<'a> Ctx<'a> {
    pub(crate) fn new(state: &'a AppState, request: &'a Request<()>, body: RequestBody) -> Self {
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
            unread: Mutex::new(Some(body)),
            read: OnceLock::new(),
            rate: OnceLock::new(),
        }
    }

    pub(crate) fn headers(&self) -> &HeaderMap {
        self.request.headers()
    }

    /// The body a handler has read (empty before [`Ctx::read_body`]).
    pub(crate) fn body(&self) -> &Bytes {
        self.read.get().unwrap_or(&NOT_READ)
    }

    /// Reads the whole body, at most `limit` bytes (413 above it) and within the body timeout (408 after it).
    /// Handlers call it after authenticating; a second call returns the same bytes.
    pub(crate) async fn read_body(&self, limit: usize) -> Result<&Bytes, ApiError> {
        if let Some(bytes) = self.read.get() {
            return Ok(bytes);
        }
        let unread = self.unread.lock().ok().and_then(|mut slot| slot.take());
        let Some(unread) = unread else {
            return Err(ApiError::internal("the request body was taken twice"));
        };
        let timeout = self.state.config.limits.body_timeout;
        let bytes = tokio::time::timeout(timeout, body::read_limited(self.headers(), unread, limit))
            .await
            .map_err(|_| ApiError::BodyTimeout {
                timeout_ms: timeout.as_millis(),
            })??;
        Ok(self.read.get_or_init(|| bytes))
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

    /// Reads and decodes a JSON body of at most the JSON-route limit.
    pub(crate) async fn json<T: DeserializeOwned>(&self) -> Result<T, ApiError> {
        self.json_up_to(self.state.config.limits.max_json_body_bytes)
            .await
    }

    /// Reads and decodes a JSON body of at most `limit` bytes (the product upsert's own, larger limit).
    pub(crate) async fn json_up_to<T: DeserializeOwned>(&self, limit: usize) -> Result<T, ApiError> {
        body::json(self.read_body(limit).await?)
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
        let presented = credentials::dev(self.headers(), edge_configured);
        if matches!(presented, Credentials::Missing)
            && credentials::presents_bearer_instead_of_key(self.headers())
        {
            return Err(ApiError::AdminUnauthorized {
                message: "no key: the key goes in the X-Gateway-Subscription-Key header, not in Authorization: Bearer"
                    .to_owned(),
            });
        }
        let caller = self.caller(presented).await?;
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

    /// The address of the listener the request arrived on, when it came through the server's accept loop.
    pub(crate) fn listener_ip(&self) -> Option<IpAddr> {
        self.request
            .extensions()
            .get::<ListenerAddr>()
            .map(|listener| listener.0)
    }
}
