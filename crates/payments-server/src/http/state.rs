//! The state every request may use, shared by all connections: services, limits, rate limiters, caches.
//! It lives here, under the API and the app, so that the request context ([`super::context::Ctx`]) and every
//! handler can name it without depending on the app that builds it.

use std::any::Any;
use std::net::IpAddr;
use std::sync::{Arc, OnceLock};

use crate::http::rate_limit::{RateKey, RateLimits};
use crate::http::receipt_bodies::ReceiptBodies;
use crate::runtime::clock::Clock;
use crate::runtime::config::ServerConfig;
use crate::runtime::metrics::Metrics;
use crate::services::Services;

/// Everything a request may use; shared by all connections.
#[derive(Debug)]
pub(crate) struct AppState {
    pub(crate) config: ServerConfig,
    pub(crate) services: Services,
    pub(crate) clock: Arc<dyn Clock>,
    /// Per subscription key and per admin wallet.
    pub(crate) rate_limits: RateLimits<RateKey>,
    /// The unauthenticated sign-in routes, per client address.
    pub(crate) sign_in_limits: RateLimits<IpAddr>,
    /// The payment page script's writes (buyer steps, posted hashes: each may ask the chain node), per client
    /// address, at the general per-minute quota.
    pub(crate) portal_limits: RateLimits<IpAddr>,
    /// Rendered by `GET /metrics`.
    pub(crate) metrics: Arc<Metrics>,
    /// Rendered receipt bodies, reused while their receipt is unchanged.
    pub(crate) receipt_bodies: ReceiptBodies,
    /// The GraphQL schema, which the API builds (over `services.users`) and keeps here.
    pub(crate) graphql: ApiSlot,
}

/// One value the API layer builds once per app and keeps in the state. Type-erased because this layer must not
/// name the API's types (the arrow would point up); the API reads it back with its own type.
#[derive(Default)]
pub(crate) struct ApiSlot(OnceLock<Box<dyn Any + Send + Sync>>);

impl ApiSlot {
    /// The kept value, built by `init` on first use; `None` if a value of another type was kept first.
    pub(crate) fn get_or_init<T: Any + Send + Sync>(&self, init: impl FnOnce() -> T) -> Option<&T> {
        self.0.get_or_init(|| Box::new(init())).downcast_ref()
    }
}

impl std::fmt::Debug for ApiSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ApiSlot")
            .field("built", &self.0.get().is_some())
            .finish()
    }
}
