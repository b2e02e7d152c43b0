//! The charge batch, exactly once per (subscription, period):
//!
//! 1. claim a chunk of due subscriptions: each (subscription, period) row is written `pending` under this
//!    run's lease BEFORE anything is sent (the unique row makes a second claimant find it taken);
//! 2. send the chunk's charges as `chargeBatch` transactions of up to `CHARGES_PER_TRANSACTION` (50) each
//!    (`chain.charge_batch`; one customer's refusal does not undo the others', each outcome read from the
//!    receipt's events), a few transactions in flight at once with nonces given out by the chain's nonce
//!    manager; a claim whose earlier run's lease ran out is first reconciled with `chain.permission_period`
//!    (spent in that period: it was charged), never blindly re-sent;
//! 3. settle the chunk in one transaction: each charge row, its billing event and the subscription's new
//!    schedule together, only while this run still holds the lease.
//!
//! An outcome the run cannot know (the node did not answer) stays `pending`; its lease runs out and a later
//! run reconciles it.

use std::collections::HashMap;
use std::time::Instant;

use payments_core::{Cents, ScheduleAfter, SubscriptionChargeUnits, TokenAmount, Wallet, credited_charge};

use crate::domain::recurring::{
    BatchReport, ChargeClaim, ChargeOutcome, ChargeResult, ChargeResultStatus, ChargeSettlement,
    ClaimRequest, CustomerSubscription, SettleOutcome,
};
use crate::services::recurring::{RecurringError, RecurringService};

/// What one claimed attempt came to before it is written.
pub(super) enum Attempt {
    Known {
        outcome: ChargeOutcome,
        schedule: ScheduleAfter,
    },
    /// The manager refused the charge because the customer revoked the permission on chain: settled as a
    /// failure, then the subscription is canceled for that reason (`super::revoke`).
    Revoked {
        outcome: ChargeOutcome,
        schedule: ScheduleAfter,
    },
    /// The node did not answer: left `pending` for a later run to reconcile.
    Unknown { reason: String },
}

impl Attempt {
    /// Whether the attempt failed (refused by the manager, or decided failed before sending).
    pub(super) fn is_failure(&self) -> bool {
        matches!(
            self,
            Attempt::Known {
                outcome: ChargeOutcome::Failed { .. },
                ..
            }
        )
    }
}

/// Where a run sends money: the manager, the fee recipient, and each merchant's split (cached per run).
pub(super) struct Targets {
    pub(super) manager: Wallet,
    pub(super) fee_recipient: Wallet,
    pub(super) splits: HashMap<Wallet, Wallet>,
}

impl RecurringService {
    /// What charging `subscription` takes now: its price less its credit (from a downgrade), with the fee
    /// at the platform's rate, and how much of the credit that uses. A negative price never passes plan
    /// validation; it would charge nothing.
    pub(super) fn charge_amounts(
        &self,
        subscription: &CustomerSubscription,
    ) -> (SubscriptionChargeUnits, TokenAmount) {
        let price = subscription.price.to_token_amount().unwrap_or_default();
        credited_charge(price, subscription.credit, self.terms.fee_bps)
    }

    /// Charges every due subscription once (see the module docs).
    ///
    /// # Errors
    /// [`RecurringError::NotConfigured`] / [`RecurringError::PlatformRecipientNotConfigured`] before anything
    /// is claimed; [`RecurringError::Store`] when claiming or settling fails (claims then stay leased and are
    /// reconciled by a later run).
    pub(crate) async fn run_batch(&self) -> Result<BatchReport, RecurringError> {
        let started = Instant::now();
        let mut targets = Targets {
            manager: self.terms.manager.ok_or(RecurringError::NotConfigured)?,
            fee_recipient: self
                .terms
                .platform_recipient
                .ok_or(RecurringError::PlatformRecipientNotConfigured)?,
            splits: HashMap::new(),
        };
        let owner = format!("batch-{}", uuid::Uuid::new_v4().simple());
        let lease_ms = i64::try_from(self.terms.lease.as_millis()).unwrap_or(i64::MAX);
        let mut report = BatchReport {
            success: true,
            processed: 0,
            succeeded: 0,
            failed: 0,
            duration_ms: 0,
            notices_sent: 0,
            revoked_on_chain: 0,
            results: Vec::new(),
        };
        // Notices first: a charge this run makes is due now, never within the notice window.
        let notices = self.send_notices(targets.manager).await?;
        report.notices_sent = notices.noticed;
        report.revoked_on_chain = notices.revoked;
        // Plan changes a crashed run left pending keep their subscriptions out of the claims until settled.
        self.reconcile_changes().await?;
        loop {
            let now_ms = self.now_ms();
            let claims = self
                .recurring
                .claim_due(&ClaimRequest {
                    now_ms,
                    owner: owner.clone(),
                    lease_until: now_ms.saturating_add(lease_ms),
                    limit: self.terms.chunk.max(1),
                })
                .await?;
            if claims.is_empty() {
                break;
            }
            self.resolve_splits(&claims, &mut targets).await?;
            let mut attempts = self
                .with_send_lease(&owner, self.attempt_all(&claims, &targets))
                .await?;
            self.mark_revoked(&claims, &mut attempts).await;
            self.settle(&owner, claims, attempts, &mut report).await?;
        }
        report.duration_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        Ok(report)
    }

    async fn resolve_splits(
        &self,
        claims: &[ChargeClaim],
        targets: &mut Targets,
    ) -> Result<(), RecurringError> {
        for claim in claims {
            let merchant = claim.subscription.merchant;
            if let std::collections::hash_map::Entry::Vacant(entry) = targets.splits.entry(merchant) {
                // Without a configured split the merchant's own wallet is paid.
                let split = self.shops.fetch_split(merchant).await?;
                entry.insert(split.map_or(merchant, |split| split.address));
            }
        }
        Ok(())
    }

    async fn settle(
        &self,
        owner: &str,
        claims: Vec<ChargeClaim>,
        attempts: Vec<Attempt>,
        report: &mut BatchReport,
    ) -> Result<(), RecurringError> {
        let now_ms = self.now_ms();
        let mut settlements = Vec::new();
        let mut pending = Vec::new();
        let mut revoked = Vec::new();
        for (claim, attempt) in claims.into_iter().zip(attempts) {
            let (outcome, schedule) = match attempt {
                Attempt::Known { outcome, schedule } => (outcome, schedule),
                Attempt::Revoked { outcome, schedule } => {
                    revoked.push(claim.subscription.clone());
                    (outcome, schedule)
                }
                Attempt::Unknown { reason } => {
                    pending.push((claim, reason));
                    continue;
                }
            };
            let (amounts, credit_used) = self.charge_amounts(&claim.subscription);
            // Only a charge that happened uses the credit; a failed attempt leaves it for the next.
            let credit_used = match outcome {
                ChargeOutcome::Charged { .. } => credit_used,
                ChargeOutcome::Failed { .. } => TokenAmount::default(),
            };
            settlements.push(ChargeSettlement {
                subscription_id: claim.subscription.id.clone(),
                period_index: claim.period_index,
                owner: owner.to_owned(),
                outcome,
                gross: amounts.price.to_cents_half_up().unwrap_or(Cents::ZERO),
                fee: amounts.platform_fee,
                net: amounts.merchant_net,
                credit_used,
                schedule,
                now_ms,
            });
        }
        let outcomes = self.recurring.settle_charges(&settlements).await?;
        // The chunk's webhooks committed with it.
        self.outbox_wakeup.notify_one();
        for subscription in &revoked {
            self.cancel_revoked(subscription).await?;
            report.revoked_on_chain += 1;
        }
        for (settlement, outcome) in settlements.into_iter().zip(outcomes) {
            if outcome == SettleOutcome::LeaseLost {
                continue;
            }
            report.processed += 1;
            let (status, transaction_hash, error) = match settlement.outcome {
                ChargeOutcome::Charged { tx_hash } => {
                    report.succeeded += 1;
                    (ChargeResultStatus::Charged, tx_hash, None)
                }
                ChargeOutcome::Failed { reason } => {
                    report.failed += 1;
                    (ChargeResultStatus::Failed, None, Some(reason))
                }
            };
            report.results.push(ChargeResult {
                subscription_id: settlement.subscription_id,
                period_index: settlement.period_index,
                status,
                transaction_hash,
                error,
                subscription_status: settlement.schedule.status,
            });
        }
        for (claim, reason) in pending {
            report.processed += 1;
            report.failed += 1;
            report.results.push(ChargeResult {
                subscription_id: claim.subscription.id,
                period_index: claim.period_index,
                status: ChargeResultStatus::Pending,
                transaction_hash: None,
                error: Some(reason),
                subscription_status: claim.subscription.status,
            });
        }
        Ok(())
    }
}
