//! Who is calling: a subscription key, or the edge proxy vouching for a subscription id.

use thiserror::Error;

use crate::app::AppState;
use crate::domain::api_key::{KeyHash, SubscriptionId};
use crate::domain::scope::Scope;
use crate::domain::subscription::Caller;
use crate::secret::Secret;
use crate::store::{self, StoreError};

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
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Resolves the caller. Unknown, revoked and missing credentials all answer the same, so a probe learns nothing.
///
/// When the datastore is unavailable, a caller that authenticated recently is still recognised (see
/// [`RecentCallers`](super::recent_callers::RecentCallers)), so read routes can answer in degraded mode.
pub(crate) async fn authenticate(state: &AppState, credentials: Credentials) -> Result<Caller, AuthError> {
    let (remembered_as, looked_up) = match credentials {
        Credentials::Key(key) => {
            let hash = KeyHash::of(key.expose());
            let remembered_as = format!("key:{}", hash.as_str());
            let found = store::blocking(&state.store, move |store| {
                store.fetch_active_subscription_by_key(&hash)
            });
            (remembered_as, found.await)
        }
        Credentials::Edge {
            secret,
            subscription_id: Some(id),
        } if edge_secret_matches(state, &secret) => {
            let remembered_as = format!("edge:{}", id.as_str());
            let found = store::blocking(&state.store, move |store| store.fetch_active_subscription(&id));
            (remembered_as, found.await)
        }
        Credentials::Edge { .. } | Credentials::Missing => return Err(AuthError::Unauthenticated),
    };
    let now_ms = state.clock.now_ms();
    let subscription = match looked_up {
        Ok(Some(subscription)) => {
            state
                .recent_callers
                .remember(remembered_as, &subscription, now_ms);
            subscription
        }
        Ok(None) => {
            state.recent_callers.forget(&remembered_as);
            return Err(AuthError::Unauthenticated);
        }
        Err(StoreError::Unavailable(reason)) => state
            .recent_callers
            .recall(&remembered_as, now_ms)
            .ok_or(AuthError::Store(StoreError::Unavailable(reason)))?,
        Err(other) => return Err(other.into()),
    };
    Ok(Caller::from_subscription(subscription))
}

fn edge_secret_matches(state: &AppState, presented: &Secret) -> bool {
    state
        .config
        .edge_secret
        .as_ref()
        .is_some_and(|configured| configured.matches(presented.expose()))
}

pub(crate) fn require_scope(caller: &Caller, scope: Scope) -> Result<(), AuthError> {
    if caller.has(scope) {
        Ok(())
    } else {
        Err(AuthError::MissingScope(scope))
    }
}
