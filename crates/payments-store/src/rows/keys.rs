//! API keys as stored (`subscriptions`: one row per key, named for the developer subscription it grants).

use payments_core::Wallet;
use payments_domain::api_key::{KeyHash, SubscriptionId};
use payments_domain::scope::Scopes;
use payments_domain::subscription::{NewSubscription, Subscription};

use super::bad;

/// A `subscriptions` row as every key read selects it.
pub(crate) struct KeyRow {
    pub(crate) public_id: String,
    pub(crate) wallet: String,
    pub(crate) scopes: String,
    pub(crate) name: Option<String>,
    pub(crate) created_at: i64,
    pub(crate) revoked_at: Option<i64>,
}

impl KeyRow {
    pub(crate) fn into_record(self) -> Result<Subscription, String> {
        Ok(Subscription {
            id: SubscriptionId::new(self.public_id),
            wallet: Wallet::parse(&self.wallet).map_err(|error| bad("wallet", error))?,
            scopes: self
                .scopes
                .parse::<Scopes>()
                .map_err(|error| bad("scopes", error))?,
            name: self.name,
            created_at: self.created_at,
            revoked_at: self.revoked_at,
        })
    }
}

/// The key a rotation stores in place of `old`: the same wallet, scopes and name under a new id and hash.
pub(crate) fn rotated(
    old: Subscription,
    id: &SubscriptionId,
    hash: &KeyHash,
    now_ms: i64,
) -> NewSubscription {
    NewSubscription {
        id: id.clone(),
        key_hash: hash.clone(),
        wallet: old.wallet,
        scopes: old.scopes,
        name: old.name,
        created_at: now_ms,
    }
}
