//! The charge batch, exactly once per (subscription, period):
//!
//! 1. claim a chunk of due subscriptions: each (subscription, period) row is written `pending` under this
//!    run's lease BEFORE anything is sent (the unique row makes a second claimant find it taken);
//! 2. send each charge (`chain.charge_subscription`), a few at a time; a claim whose earlier run's lease
//!    ran out is first reconciled with `chain.permission_period` (spent in that period: it was charged),
//!    never blindly re-sent;
//! 3. settle the chunk in one transaction: each charge row, its billing event and the subscription's new
//!    schedule together, only while this run still holds the lease.
//!
//! An outcome the run cannot know (the node did not answer) stays `pending`; its lease runs out and a later
//! run reconciles it.

use std::collections::HashMap;
use std::time::Instant;

use futures_util::{StreamExt, stream};
use payments_core::{ChargeProgress, ScheduleAfter, SubscriptionCharge, SubscriptionStatus, Wallet, slot_at};

use crate::chain::ChainError;
use crate::chain::spend::SpendCharge;
use crate::domain::recurring::{
    BatchReport, ChargeClaim, ChargeClaimKind, ChargeOutcome, ChargeResult, ChargeSettlement, ClaimRequest,
    SettleOutcome,
};
use crate::services::recurring::{RecurringError, RecurringService};

/// What one claimed attempt came to before it is written.
enum Attempt {
    Known {
        outcome: ChargeOutcome,
        schedule: ScheduleAfter,
    },
    /// The node did not answer: left `pending` for a later run to reconcile.
    Unknown { reason: String },
}

/// Where a run sends money: the manager, the fee recipient, and each merchant's split (cached per run).
struct Targets {
    manager: Wallet,
    fee_recipient: Wallet,
    splits: HashMap<Wallet, Wallet>,
}

impl RecurringService {
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
            results: Vec::new(),
        };
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
            let targets_ref = &targets;
            let attempts: Vec<Attempt> = stream::iter(claims.iter().cloned())
                .map(|claim: ChargeClaim| async move { self.attempt(&claim, targets_ref).await })
                .buffered(self.terms.concurrency.max(1))
                .collect()
                .await;
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

    async fn attempt(&self, claim: &ChargeClaim, targets: &Targets) -> Attempt {
        let subscription = &claim.subscription;
        let now_ms = self.now_ms();
        let next_slot = slot_at(
            subscription.anchor_ms,
            subscription.period,
            claim.period_index.saturating_add(1),
        );
        let progress = ChargeProgress {
            period_index: claim.period_index,
            attempts: claim.attempt,
            failed_periods: subscription.failed_periods,
        };
        let policy = self.terms.policy;
        let failed = |reason: String| Attempt::Known {
            outcome: ChargeOutcome::Failed { reason },
            schedule: policy.after_failure(progress, subscription.status, now_ms, next_slot),
        };
        let now_secs = u64::try_from(now_ms.div_euclid(1000)).unwrap_or_default();
        if now_secs >= subscription.permission.end_secs() {
            return Attempt::Known {
                outcome: ChargeOutcome::Failed {
                    reason: "the spend permission has ended".to_owned(),
                },
                schedule: ScheduleAfter {
                    status: SubscriptionStatus::Canceled,
                    next_period_index: claim.period_index,
                    next_charge_at: now_ms,
                    attempts: claim.attempt,
                    failed_periods: subscription.failed_periods,
                },
            };
        }
        if claim.kind == ChargeClaimKind::Reconcile {
            match self.reconcile(claim, targets.manager, next_slot).await {
                Ok(Some(attempt)) => return attempt,
                Ok(None) => {}
                Err(error) => {
                    return Attempt::Unknown {
                        reason: format!("reconciliation: {error}"),
                    };
                }
            }
        }
        let amounts = SubscriptionCharge::with_fee_bps(subscription.price, self.terms.fee_bps);
        let (Ok(net), Ok(fee)) = (
            amounts.merchant_net.to_token_amount(),
            amounts.platform_fee.to_token_amount(),
        ) else {
            return failed("the charge amounts are negative".to_owned());
        };
        let charge = SpendCharge {
            manager: targets.manager,
            permission: subscription.permission.clone(),
            signature: subscription.signature.clone(),
            merchant: targets
                .splits
                .get(&subscription.merchant)
                .copied()
                .unwrap_or(subscription.merchant),
            net,
            fee_recipient: targets.fee_recipient,
            fee,
        };
        match self.chain.charge_subscription(&charge).await {
            Ok(hash) => Attempt::Known {
                outcome: ChargeOutcome::Charged {
                    tx_hash: Some(hash.to_string()),
                },
                schedule: policy.after_success(progress, next_slot),
            },
            Err(ChainError::Reverted(reason) | ChainError::NotConfigured(reason)) => failed(reason),
            Err(ChainError::Unavailable(reason)) => Attempt::Unknown { reason },
        }
    }

    /// A claim an earlier run may have sent: `Some` when the chain settles the question, `None` when nothing
    /// was spent in the claimed period (safe to send).
    async fn reconcile(
        &self,
        claim: &ChargeClaim,
        manager: Wallet,
        next_slot: i64,
    ) -> Result<Option<Attempt>, ChainError> {
        let subscription = &claim.subscription;
        let period = self
            .chain
            .permission_period(manager, &subscription.permission)
            .await?;
        let slot_secs =
            slot_at(subscription.anchor_ms, subscription.period, claim.period_index).div_euclid(1000);
        let slot_secs = u64::try_from(slot_secs).unwrap_or_default();
        let progress = ChargeProgress {
            period_index: claim.period_index,
            attempts: claim.attempt,
            failed_periods: subscription.failed_periods,
        };
        let in_period = period.start <= slot_secs && slot_secs < period.end;
        if in_period && period.spent.base_units() > 0 {
            return Ok(Some(Attempt::Known {
                outcome: ChargeOutcome::Charged { tx_hash: None },
                schedule: self.terms.policy.after_success(progress, next_slot),
            }));
        }
        if in_period && !period.revoked {
            return Ok(None);
        }
        // The chain has moved past the claimed period (or the permission is revoked): whether the lost
        // attempt went through cannot be told any more, and sending now would spend another period's
        // allowance. The period is closed without charging again and without counting against the customer.
        Ok(Some(Attempt::Known {
            outcome: ChargeOutcome::Failed {
                reason: "outcome of an interrupted attempt unknown; the period is not charged again"
                    .to_owned(),
            },
            schedule: ScheduleAfter {
                status: subscription.status,
                next_period_index: claim.period_index.saturating_add(1),
                next_charge_at: next_slot,
                attempts: 0,
                failed_periods: subscription.failed_periods,
            },
        }))
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
        for (claim, attempt) in claims.into_iter().zip(attempts) {
            match attempt {
                Attempt::Known { outcome, schedule } => {
                    let amounts =
                        SubscriptionCharge::with_fee_bps(claim.subscription.price, self.terms.fee_bps);
                    settlements.push(ChargeSettlement {
                        subscription_id: claim.subscription.id.clone(),
                        period_index: claim.period_index,
                        owner: owner.to_owned(),
                        outcome,
                        gross: amounts.price,
                        fee: amounts.platform_fee,
                        net: amounts.merchant_net,
                        schedule,
                        now_ms,
                    });
                }
                Attempt::Unknown { reason } => pending.push((claim, reason)),
            }
        }
        let outcomes = self.recurring.settle_charges(&settlements).await?;
        // The chunk's webhooks committed with it.
        self.outbox_wakeup.notify_one();
        for (settlement, outcome) in settlements.into_iter().zip(outcomes) {
            if outcome == SettleOutcome::LeaseLost {
                continue;
            }
            report.processed += 1;
            let (status, transaction_hash, error) = match settlement.outcome {
                ChargeOutcome::Charged { tx_hash } => {
                    report.succeeded += 1;
                    ("charged", tx_hash, None)
                }
                ChargeOutcome::Failed { reason } => {
                    report.failed += 1;
                    ("failed", None, Some(reason))
                }
            };
            report.results.push(ChargeResult {
                subscription_id: settlement.subscription_id,
                period_index: settlement.period_index,
                status,
                transaction_hash,
                error,
                subscription_status: settlement.schedule.status.as_str(),
            });
        }
        for (claim, reason) in pending {
            report.processed += 1;
            report.failed += 1;
            report.results.push(ChargeResult {
                subscription_id: claim.subscription.id,
                period_index: claim.period_index,
                status: "pending",
                transaction_hash: None,
                error: Some(reason),
                subscription_status: claim.subscription.status.as_str(),
            });
        }
        Ok(())
    }
}
