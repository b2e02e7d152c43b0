//! Memory of recently authenticated callers: the key cache, and stale-if-error for degraded mode.
//!
//! A key confirmed by the datastore less than the key cache's lifetime ago (one second by default) is
//! answered from here; after that the datastore is asked again, so a revocation made anywhere takes effect
//! within that lifetime. When the datastore does not answer, a key that authenticated within the last
//! [`DEGRADED_AUTH_GRACE_MS`] keeps working, so read routes can still answer with `degraded: true`
//! instead of turning every caller away. A key the store reported unknown or revoked is forgotten.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::domain::subscription::Subscription;

/// How long a caller is remembered for degraded-mode authentication.
pub(crate) const DEGRADED_AUTH_GRACE_MS: i64 = 5 * 60 * 1000;
/// Bounds the memory; past it the oldest half is dropped.
const MAX_REMEMBERED: usize = 10_000;

#[derive(Debug, Default)]
pub(crate) struct RecentCallers {
    seen: Mutex<HashMap<String, (Subscription, i64)>>,
}

impl RecentCallers {
    pub(crate) fn remember(&self, credential: String, subscription: &Subscription, now_ms: i64) {
        let Ok(mut seen) = self.seen.lock() else { return };
        if seen.len() >= MAX_REMEMBERED {
            let mut ages: Vec<i64> = seen.values().map(|(_, at)| *at).collect();
            ages.sort_unstable();
            let median = ages[ages.len() / 2];
            seen.retain(|_, (_, at)| *at > median);
        }
        seen.insert(credential, (subscription.clone(), now_ms));
    }

    pub(crate) fn forget(&self, credential: &str) {
        if let Ok(mut seen) = self.seen.lock() {
            seen.remove(credential);
        }
    }

    pub(crate) fn recall(&self, credential: &str, now_ms: i64) -> Option<Subscription> {
        self.recall_within(credential, now_ms, DEGRADED_AUTH_GRACE_MS.saturating_add(1))
    }

    /// The caller if the datastore confirmed it less than `lifetime_ms` ago (the key cache's hit path).
    pub(crate) fn recall_within(
        &self,
        credential: &str,
        now_ms: i64,
        lifetime_ms: i64,
    ) -> Option<Subscription> {
        let seen = self.seen.lock().ok()?;
        let (subscription, at) = seen.get(credential)?;
        (now_ms.saturating_sub(*at) < lifetime_ms).then(|| subscription.clone())
    }
}
