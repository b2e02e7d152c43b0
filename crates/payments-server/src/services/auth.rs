//! Who is calling: a subscription key, or the edge proxy vouching for a subscription id.

use thiserror::Error;

use std::sync::Arc;
use std::time::Duration;

use crate::domain::api_key::{KeyHash, KeyMode, SubscriptionId};
use crate::domain::scope::Scope;
use crate::domain::subscription::Caller;
use crate::runtime::clock::Clock;
use crate::secret::Secret;
use crate::services::recent_callers::RecentCallers;
use crate::store::{KeyRepository, StoreError};

/// What a request presented to identify itself.
#[derive(Debug, Clone)]
pub(crate) enum Credentials {
    /// A subscription key (gateway header, `x-api-key` or Bearer, depending on the route).
    Key(Secret),
    /// `x-edge-secret` plus `x-subscription-id`; only produced when the server has an edge secret.
    Edge {
        secret: Secret,
        subscription_id: Option<SubscriptionId>,
    },
    Missing,
}

#[derive(Debug, Error)]
pub(crate) enum AuthError {
    #[error("missing or invalid subscription key")]
    Unauthenticated,
    #[error("the subscription key lacks the {0} scope")]
    MissingScope(Scope),
    /// A key of the other world: test and live never mix.
    #[error("this is {}; this server takes only {} keys", presented.describe(), server.prefix())]
    WrongMode { presented: KeyMode, server: KeyMode },
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Resolves the caller. Unknown, revoked and missing credentials all answer the same, so a probe learns nothing.
///
/// A key looked up within the last [`Authenticator::key_cache`] is answered from memory (the hot path of
/// every keyed route then touches the datastore once per key and period, not once per request). When the
/// datastore is unavailable, a caller that authenticated recently is still recognised (see
/// [`RecentCallers`](super::recent_callers::RecentCallers)), so read routes can answer in degraded mode.
#[derive(Debug)]
pub(crate) struct Authenticator {
    pub(crate) keys: Arc<dyn KeyRepository>,
    pub(crate) clock: Arc<dyn Clock>,
    /// Callers recognised while the datastore is down (degraded mode).
    pub(crate) recent_callers: RecentCallers,
    /// When set, `x-edge-secret` plus `x-subscription-id` identify a caller in place of a key.
    pub(crate) edge_secret: Option<Secret>,
    /// How long a successful lookup answers for its key without the datastore (zero: every request looks
    /// its key up). Bounds how long a key revoked elsewhere (the `keys` command, another instance) still works.
    pub(crate) key_cache: Duration,
    /// The server's mode: only keys with its prefix are looked up.
    pub(crate) mode: KeyMode,
}

impl Authenticator {
    pub(crate) async fn authenticate(&self, credentials: Credentials) -> Result<Caller, AuthError> {
        let now_ms = self.clock.now_ms();
        let (remembered_as, looked_up) = match credentials {
            Credentials::Key(key) => {
                if let Some(presented) = KeyMode::of_key(key.expose())
                    && presented != self.mode
                {
                    return Err(AuthError::WrongMode {
                        presented,
                        server: self.mode,
                    });
                }
                let hash = KeyHash::of(key.expose());
                let remembered_as = format!("key:{}", hash.as_str());
                if let Some(cached) = self.cached(&remembered_as, now_ms) {
                    return Ok(cached);
                }
                (remembered_as, self.keys.fetch_active_by_key(&hash).await)
            }
            Credentials::Edge {
                secret,
                subscription_id: Some(id),
            } if self.edge_secret_matches(&secret) => {
                let remembered_as = format!("edge:{}", id.as_str());
                if let Some(cached) = self.cached(&remembered_as, now_ms) {
                    return Ok(cached);
                }
                (remembered_as, self.keys.fetch_active(&id).await)
            }
            Credentials::Edge { .. } | Credentials::Missing => return Err(AuthError::Unauthenticated),
        };
        let subscription = match looked_up {
            Ok(Some(subscription)) => {
                self.recent_callers.remember(remembered_as, &subscription, now_ms);
                subscription
            }
            Ok(None) => {
                self.recent_callers.forget(&remembered_as);
                return Err(AuthError::Unauthenticated);
            }
            // Locked or out of time is as good as down: a caller seen lately keeps its degraded answers.
            Err(StoreError::Unavailable(reason) | StoreError::Busy(reason)) => self
                .recent_callers
                .recall(&remembered_as, now_ms)
                .ok_or(AuthError::Store(StoreError::Unavailable(reason)))?,
            Err(other) => return Err(other.into()),
        };
        Ok(Caller::from_subscription(subscription))
    }

    /// A caller looked up within the key cache's lifetime, answered without the datastore.
    fn cached(&self, remembered_as: &str, now_ms: i64) -> Option<Caller> {
        let lifetime_ms = i64::try_from(self.key_cache.as_millis()).unwrap_or(i64::MAX);
        if lifetime_ms == 0 {
            return None;
        }
        self.recent_callers
            .recall_within(remembered_as, now_ms, lifetime_ms)
            .map(Caller::from_subscription)
    }

    fn edge_secret_matches(&self, presented: &Secret) -> bool {
        self.edge_secret
            .as_ref()
            .is_some_and(|configured| configured.matches(presented.expose()))
    }
}

pub(crate) fn require_scope(caller: &Caller, scope: Scope) -> Result<(), AuthError> {
    if caller.has(scope) {
        Ok(())
    } else {
        Err(AuthError::MissingScope(scope))
    }
}
