//! Subscription charges and billing events as stored (`subscription_charges`, `billing_events`), and what a
//! claim does with a due period, decided the same way on both backends.

use payments_core::{Cents, TokenAmount};
use payments_domain::recurring::{BillingEvent, BillingEventStatus, ChargeClaimKind, CustomerSubscriptionId};

/// Token units are stored as a signed integer; a negative one reads as none.
pub(crate) fn units(stored: i64) -> TokenAmount {
    TokenAmount::from_base_units(u128::try_from(stored).unwrap_or_default())
}

/// Base units in a signed 64-bit column (a charge is far below 2^63 base units, 9.2 trillion USD).
pub(crate) fn units_column(amount: TokenAmount) -> i64 {
    i64::try_from(amount.base_units()).unwrap_or(i64::MAX)
}

/// The charge row a due (subscription, period) already has.
pub(crate) struct ChargeRow {
    pub(crate) state: String,
    pub(crate) attempts: i64,
    pub(crate) lease_until: Option<i64>,
}

/// What a claim does with a due period.
pub(crate) enum ClaimStep {
    /// No charge row yet: insert it pending, as this attempt.
    Insert(u32),
    /// Take the existing row over (a failed one for a fresh attempt, a pending one whose lease ended to
    /// reconcile it with the chain).
    Release(ChargeClaimKind, u32),
    /// Charged already, or leased to a live run: nothing to do for this one.
    Skip,
}

/// Decides a due period's [`ClaimStep`] from its charge row (if any) and the attempts the subscription
/// counted before this period.
pub(crate) fn claim_step(existing: Option<ChargeRow>, attempts_before: u32, now_ms: i64) -> ClaimStep {
    let Some(existing) = existing else {
        return ClaimStep::Insert(attempts_before.saturating_add(1));
    };
    let attempts = u32::try_from(existing.attempts).unwrap_or(u32::MAX);
    match existing.state.as_str() {
        "failed" => ClaimStep::Release(ChargeClaimKind::Fresh, attempts.saturating_add(1)),
        "pending" if existing.lease_until.is_none_or(|until| until <= now_ms) => {
            ClaimStep::Release(ChargeClaimKind::Reconcile, attempts)
        }
        _ => ClaimStep::Skip,
    }
}

/// A `billing_events` row of one subscription.
pub(crate) struct BillingEventRow {
    pub(crate) period_index: i64,
    pub(crate) status: String,
    pub(crate) gross_cents: i64,
    pub(crate) fee_units: i64,
    pub(crate) net_units: i64,
    pub(crate) tx_hash: Option<String>,
    pub(crate) failure: Option<String>,
    pub(crate) created_at: i64,
}

impl BillingEventRow {
    pub(crate) fn into_record(self, id: &CustomerSubscriptionId) -> BillingEvent {
        BillingEvent::with_units(
            id.clone(),
            u64::try_from(self.period_index).unwrap_or_default(),
            BillingEventStatus::from_stored(&self.status),
            Cents::new(self.gross_cents),
            (units(self.fee_units), units(self.net_units)),
            self.tx_hash,
            self.failure,
            self.created_at,
        )
    }
}
