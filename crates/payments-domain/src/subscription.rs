//! Subscriptions: a key's identity (merchant wallet + scopes) without the key itself.

use payments_core::Wallet;

use crate::api_key::{KeyHash, SubscriptionId};
use crate::scope::{Scope, Scopes};

/// A stored subscription (a key's record); the key itself is never stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subscription {
    /// Public id.
    pub id: SubscriptionId,
    /// The merchant the key acts for.
    pub wallet: Wallet,
    /// What the key may do.
    pub scopes: Scopes,
    /// Free-form label given at creation.
    pub name: Option<String>,
    /// Unix ms.
    pub created_at: i64,
    /// Unix ms; a revoked key authenticates nothing.
    pub revoked_at: Option<i64>,
}

/// What the store needs to create a subscription.
#[derive(Debug, Clone)]
pub struct NewSubscription {
    pub id: SubscriptionId,
    pub key_hash: KeyHash,
    pub wallet: Wallet,
    pub scopes: Scopes,
    pub name: Option<String>,
    pub created_at: i64,
}

/// The authenticated caller of a Dev route: resolved from the key, never from client-sent wallet headers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    pub subscription_id: SubscriptionId,
    pub wallet: Wallet,
    pub scopes: Scopes,
}

impl Caller {
    pub fn from_subscription(subscription: Subscription) -> Self {
        Caller {
            subscription_id: subscription.id,
            wallet: subscription.wallet,
            scopes: subscription.scopes,
        }
    }

    pub fn has(&self, scope: Scope) -> bool {
        self.scopes.contains(scope)
    }
}
