//! The batch's units of work: a claim on one (subscription, period), its outcome, the billing event and
//! subscription change recorded with it, and the batch's report.

use payments_core::{Cents, ScheduleAfter, SubscriptionStatus, TokenAmount};

use crate::recurring::{CustomerSubscription, CustomerSubscriptionId};

/// Claim up to `limit` due subscriptions at `now_ms` for `owner` until `lease_until`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimRequest {
    pub now_ms: i64,
    /// This batch run (random per run): only the lease owner may settle a claim.
    pub owner: String,
    pub lease_until: i64,
    pub limit: u32,
}

/// Why a claim was handed out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChargeClaimKind {
    /// No transaction was sent for this attempt yet: send one.
    Fresh,
    /// An earlier run recorded the intent and its lease ran out without an outcome: it may or may not have
    /// sent the transaction, so the chain is asked before anything is sent.
    Reconcile,
}

/// One (subscription, period) leased to a batch run: its charge row is `pending` with this run's lease.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChargeClaim {
    pub subscription: CustomerSubscription,
    pub period_index: u64,
    /// Attempts of this period including this one.
    pub attempt: u32,
    pub kind: ChargeClaimKind,
}

/// How a claimed attempt ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChargeOutcome {
    /// The money moved; the hash is unknown when a crashed run's charge was found on chain.
    Charged { tx_hash: Option<String> },
    /// Nothing moved.
    Failed { reason: String },
}

/// The outcome of a claim, written with the billing event and the subscription's new schedule in one
/// transaction, provided `owner` still holds the lease.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChargeSettlement {
    pub subscription_id: CustomerSubscriptionId,
    pub period_index: u64,
    pub owner: String,
    pub outcome: ChargeOutcome,
    /// The price, exact in cents (what the customer's credit did not cover is `fee + net`).
    pub gross: Cents,
    /// The platform fee and the merchant's part, in token base units (exact; `fee + net` = the price).
    pub fee: TokenAmount,
    pub net: TokenAmount,
    /// The subscription's credit this charge used (taken off the price before `fee` and `net`).
    pub credit_used: TokenAmount,
    pub schedule: ScheduleAfter,
    pub now_ms: i64,
}

/// What settling did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettleOutcome {
    Settled,
    /// The lease expired and another run took the claim over; nothing was written.
    LeaseLost,
}

/// One recorded charge attempt (`charged` or `charge_failed`), or a plan change's `prorated_charge`.
/// Answered through `api/wire/charges.rs` (the store keeps it in columns, not as JSON).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BillingEvent {
    pub subscription_id: CustomerSubscriptionId,
    pub period_index: u64,
    pub status: BillingEventStatus,
    pub gross_usd: Cents,
    /// The fee rounded to the cent (half up); `fee_base_units` is exact.
    pub fee_usd: Cents,
    /// `gross_usd - fee_usd`; `net_base_units` is exact.
    pub net_usd: Cents,
    /// The exact amounts in token base units (6 decimals).
    pub gross_base_units: TokenAmount,
    pub fee_base_units: TokenAmount,
    pub net_base_units: TokenAmount,
    pub transaction_hash: Option<String>,
    pub failure: Option<String>,
    pub created_at: i64,
}

/// What a billing event records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum BillingEventStatus {
    /// A period's charge went through.
    Charged,
    /// A period's charge was refused; nothing moved.
    ChargeFailed,
    /// An upgrade's prorated difference, charged at once with the plan change (not a period's charge: the
    /// period keeps its one `charged` event).
    ProratedCharge,
}

impl BillingEventStatus {
    /// Its stored and wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            BillingEventStatus::Charged => "charged",
            BillingEventStatus::ChargeFailed => "charge_failed",
            BillingEventStatus::ProratedCharge => "prorated_charge",
        }
    }

    /// The stored status (an unknown one reads as a failure, which moved nothing).
    pub fn from_stored(stored: &str) -> Self {
        match stored {
            "charged" => BillingEventStatus::Charged,
            "prorated_charge" => BillingEventStatus::ProratedCharge,
            _ => BillingEventStatus::ChargeFailed,
        }
    }
}

impl BillingEvent {
    /// The event a settlement records.
    pub fn of(settlement: &ChargeSettlement) -> Self {
        let (status, transaction_hash, failure) = match &settlement.outcome {
            ChargeOutcome::Charged { tx_hash } => (BillingEventStatus::Charged, tx_hash.clone(), None),
            ChargeOutcome::Failed { reason } => {
                (BillingEventStatus::ChargeFailed, None, Some(reason.clone()))
            }
        };
        BillingEvent::with_units(
            settlement.subscription_id.clone(),
            settlement.period_index,
            status,
            settlement.gross,
            (settlement.fee, settlement.net),
            transaction_hash,
            failure,
            settlement.now_ms,
        )
    }

    /// An event whose fee and net are exact base units; the cent fields are derived from them.
    #[allow(clippy::too_many_arguments)]
    pub fn with_units(
        subscription_id: CustomerSubscriptionId,
        period_index: u64,
        status: BillingEventStatus,
        gross: Cents,
        (fee, net): (TokenAmount, TokenAmount),
        transaction_hash: Option<String>,
        failure: Option<String>,
        created_at: i64,
    ) -> Self {
        let fee_usd = fee.to_cents_half_up().unwrap_or(Cents::ZERO);
        BillingEvent {
            subscription_id,
            period_index,
            status,
            gross_usd: gross,
            fee_usd,
            net_usd: Cents::new(gross.as_i64().saturating_sub(fee_usd.as_i64())),
            gross_base_units: TokenAmount::from_base_units(fee.base_units().saturating_add(net.base_units())),
            fee_base_units: fee,
            net_base_units: net,
            transaction_hash,
            failure,
            created_at,
        }
    }
}

/// What one claimed charge of a batch run came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChargeResultStatus {
    /// The period was charged (by this run, or found charged on chain).
    Charged,
    /// The charge was refused; nothing moved.
    Failed,
    /// The outcome is unknown (the node did not answer): left for a later run to reconcile.
    Pending,
}

/// One claimed charge of a batch run, as reported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChargeResult {
    pub subscription_id: CustomerSubscriptionId,
    pub period_index: u64,
    pub status: ChargeResultStatus,
    pub transaction_hash: Option<String>,
    pub error: Option<String>,
    /// The subscription's status afterwards.
    pub subscription_status: SubscriptionStatus,
}

/// What a batch run did: its counts and one result per claimed charge, plus what it did besides charging:
/// `notices_sent` (`subscription.charge_upcoming` webhooks recorded) and `revoked_on_chain` (subscriptions
/// canceled because their customer revoked the permission). Answered through `api/wire/charges.rs`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchReport {
    pub success: bool,
    pub processed: u64,
    pub succeeded: u64,
    pub failed: u64,
    pub duration_ms: u64,
    pub notices_sent: u64,
    pub revoked_on_chain: u64,
    pub results: Vec<ChargeResult>,
}
