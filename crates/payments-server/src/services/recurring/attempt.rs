//! One chunk's attempts: each claim is first decided without the chain when it can be (an ended permission,
//! a reconcile claim the chain's period state settles), and the rest are charged together in `chargeBatch`
//! transactions of at most [`CHARGES_PER_TRANSACTION`].

use futures_util::{StreamExt, stream};
use payments_core::{
    ChargeProgress, CounterfactualSignature, ScheduleAfter, SubscriptionStatus, Wallet, slot_at,
};

use crate::chain::ChainError;
use crate::chain::spend::{BatchChargeOutcome, SpendCharge};
use crate::domain::recurring::{ChargeClaim, ChargeClaimKind, ChargeOutcome};
use crate::services::recurring::batch::{Attempt, Targets};
use crate::services::recurring::{RecurringError, RecurringService};

/// Charges per `chargeBatch` transaction: about 130k gas each for a first charge, so 50 stay near 7M gas,
/// well inside a block, while 1,000 charges need only 20 transactions.
pub(super) const CHARGES_PER_TRANSACTION: usize = 50;

/// A claim before sending: decided already, or a charge to send.
enum Prepared {
    Decided(Attempt),
    Send(Box<SpendCharge>),
}

/// How often a run waiting for the relayer's send lease asks again.
const SEND_LEASE_POLL: std::time::Duration = std::time::Duration::from_millis(50);

impl RecurringService {
    /// Runs `sends` while holding the relayer's send lease, so instances sharing the database never race
    /// for the relayer's nonces (within one instance the chain's nonce manager orders them). The lease lasts
    /// as long as the claims' lease: a run that dies holding it blocks the others no longer than its claims.
    /// On a chain without a relayer (the test-mode chain) there is nothing to share.
    pub(super) async fn with_send_lease<T>(
        &self,
        owner: &str,
        sends: impl std::future::Future<Output = T>,
    ) -> Result<T, RecurringError> {
        let Some(relayer) = self.chain.relayer() else {
            return Ok(sends.await);
        };
        let lease_ms = i64::try_from(self.terms.lease.as_millis()).unwrap_or(i64::MAX);
        let waiting = std::time::Instant::now();
        loop {
            let now_ms = self.now_ms();
            if self
                .recurring
                .acquire_send_lease(relayer, owner, now_ms, now_ms.saturating_add(lease_ms))
                .await?
            {
                break;
            }
            // Bounded in real time too (a test clock may stand still): past one lease, send anyway; the
            // nonce manager re-syncs on a conflict and the claims keep every charge exactly once.
            if waiting.elapsed() >= self.terms.lease {
                tracing::warn!(%relayer, "the relayer's send lease stayed taken for a whole lease; sending anyway");
                break;
            }
            tokio::time::sleep(SEND_LEASE_POLL).await;
        }
        let result = sends.await;
        self.recurring.release_send_lease(relayer, owner).await?;
        Ok(result)
    }

    /// Every claim's attempt, in the claims' order.
    pub(super) async fn attempt_all(&self, claims: &[ChargeClaim], targets: &Targets) -> Vec<Attempt> {
        let prepared: Vec<Prepared> = stream::iter(claims.iter().cloned())
            .map(|claim: ChargeClaim| async move { self.prepare(&claim, targets).await })
            .buffered(self.terms.concurrency.max(1))
            .collect()
            .await;
        let mut to_send = Vec::new();
        let mut attempts: Vec<Option<Attempt>> = Vec::with_capacity(claims.len());
        for (position, prepared) in prepared.into_iter().enumerate() {
            match prepared {
                Prepared::Decided(attempt) => attempts.push(Some(attempt)),
                Prepared::Send(charge) => {
                    attempts.push(None);
                    to_send.push((position, *charge));
                }
            }
        }
        let groups: Vec<Vec<(usize, SpendCharge)>> = to_send
            .chunks(CHARGES_PER_TRANSACTION)
            .map(<[(usize, SpendCharge)]>::to_vec)
            .collect();
        let sent: Vec<Vec<(usize, BatchChargeOutcome)>> = stream::iter(groups)
            .map(|group| async move {
                let charges: Vec<SpendCharge> = group.iter().map(|(_, charge)| charge.clone()).collect();
                let outcomes = self.charge_group(&charges).await;
                group
                    .into_iter()
                    .map(|(position, _)| position)
                    .zip(outcomes)
                    .collect()
            })
            .buffered(self.terms.concurrency.max(1))
            .collect()
            .await;
        for (position, outcome) in sent.into_iter().flatten() {
            if let (Some(slot), Some(claim)) = (attempts.get_mut(position), claims.get(position)) {
                *slot = Some(self.attempt_of(claim, outcome));
            }
        }
        attempts
            .into_iter()
            .map(|attempt| {
                attempt.unwrap_or_else(|| Attempt::Unknown {
                    reason: "the charge was not sent".to_owned(),
                })
            })
            .collect()
    }

    /// One `chargeBatch`; a batch the chain refuses as a whole (nothing moved) is split in halves until
    /// each charge stands alone, so one odd charge cannot fail the others.
    async fn charge_group(&self, charges: &[SpendCharge]) -> Vec<BatchChargeOutcome> {
        match self.chain.charge_batch(charges).await {
            Ok(outcomes) => outcomes,
            Err(ChainError::Reverted(_)) if charges.len() > 1 => {
                let (left, right) = charges.split_at(charges.len() / 2);
                let mut outcomes = Box::pin(self.charge_group(left)).await;
                outcomes.extend(Box::pin(self.charge_group(right)).await);
                outcomes
            }
            Err(ChainError::Reverted(reason) | ChainError::NotConfigured(reason)) => {
                vec![BatchChargeOutcome::Failed { reason }; charges.len()]
            }
            Err(ChainError::Unavailable(reason)) => {
                vec![BatchChargeOutcome::Unknown { reason }; charges.len()]
            }
        }
    }

    fn progress(claim: &ChargeClaim) -> ChargeProgress {
        ChargeProgress {
            period_index: claim.period_index,
            attempts: claim.attempt,
            failed_periods: claim.subscription.failed_periods,
        }
    }

    fn next_slot(claim: &ChargeClaim) -> i64 {
        let subscription = &claim.subscription;
        slot_at(
            subscription.anchor_ms,
            subscription.period,
            claim.period_index.saturating_add(1),
        )
    }

    fn failed(&self, claim: &ChargeClaim, reason: String) -> Attempt {
        Attempt::Known {
            outcome: ChargeOutcome::Failed { reason },
            schedule: self.terms.policy.after_failure(
                Self::progress(claim),
                claim.subscription.status,
                self.now_ms(),
                Self::next_slot(claim),
            ),
        }
    }

    /// The attempt a sent charge's outcome makes.
    fn attempt_of(&self, claim: &ChargeClaim, outcome: BatchChargeOutcome) -> Attempt {
        match outcome {
            BatchChargeOutcome::Charged { tx_hash } => Attempt::Known {
                outcome: ChargeOutcome::Charged {
                    tx_hash: Some(tx_hash.to_string()),
                },
                schedule: self
                    .terms
                    .policy
                    .after_success(Self::progress(claim), Self::next_slot(claim)),
            },
            BatchChargeOutcome::Failed { reason } => self.failed(claim, reason),
            BatchChargeOutcome::Unknown { reason } => Attempt::Unknown { reason },
        }
    }

    async fn prepare(&self, claim: &ChargeClaim, targets: &Targets) -> Prepared {
        let subscription = &claim.subscription;
        let now_ms = self.now_ms();
        let now_secs = u64::try_from(now_ms.div_euclid(1000)).unwrap_or_default();
        if now_secs >= subscription.permission.end_secs() {
            return Prepared::Decided(Attempt::Known {
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
            });
        }
        if claim.kind == ChargeClaimKind::Reconcile {
            match self.reconcile(claim, targets.manager).await {
                Ok(Some(attempt)) => return Prepared::Decided(attempt),
                Ok(None) => {}
                Err(error) => {
                    return Prepared::Decided(Attempt::Unknown {
                        reason: format!("reconciliation: {error}"),
                    });
                }
            }
        }
        let (amounts, _) = self.charge_amounts(subscription);
        if amounts.price.base_units() == 0 {
            // A credit (from a downgrade) covers the whole period: charged without a transaction (the
            // manager refuses a zero spend), the credit used when it settles.
            return Prepared::Decided(Attempt::Known {
                outcome: ChargeOutcome::Charged { tx_hash: None },
                schedule: self
                    .terms
                    .policy
                    .after_success(Self::progress(claim), Self::next_slot(claim)),
            });
        }
        let (net, fee) = (amounts.merchant_net, amounts.platform_fee);
        let signature = match self.charge_signature(claim).await {
            Ok(signature) => signature,
            Err(attempt) => return Prepared::Decided(attempt),
        };
        Prepared::Send(Box::new(SpendCharge {
            manager: targets.manager,
            permission: subscription.permission.clone(),
            signature,
            merchant: targets
                .splits
                .get(&subscription.merchant)
                .copied()
                .unwrap_or(subscription.merchant),
            net,
            fee_recipient: targets.fee_recipient,
            fee,
        }))
    }

    /// The signature the manager checks when it approves the permission (at the first charge). An ERC-6492
    /// one (the customer's smart wallet did not exist when it subscribed) works only once the wallet is
    /// deployed, as its inner signature, which the manager asks the wallet about by ERC-1271. The server does
    /// not deploy it: the factory call is the customer's arbitrary calldata, and sent by the relayer (the
    /// permissions' spender) it would act with the relayer's rights. Until the wallet exists (its first
    /// transaction deploys it, and the token approval the manager needs is one), the charge fails with that
    /// reason, without a transaction, and the failure policy retries it.
    async fn charge_signature(&self, claim: &ChargeClaim) -> Result<Vec<u8>, Attempt> {
        let stored = &claim.subscription.signature;
        if !matches!(CounterfactualSignature::parse(stored), Ok(Some(_))) {
            return Ok(stored.clone());
        }
        let account = Wallet::from_address(claim.subscription.permission.account);
        match self.chain.has_code(account).await {
            Ok(true) => Ok(CounterfactualSignature::for_deployed_account(stored)),
            Ok(false) => Err(self.failed(
                claim,
                format!(
                    "the customer's smart wallet {account} is not deployed yet (ERC-6492 signature): it is \
                     charged once the wallet exists"
                ),
            )),
            Err(error) => Err(Attempt::Unknown {
                reason: format!("checking the customer's wallet: {error}"),
            }),
        }
    }

    /// A claim an earlier run may have sent: `Some` when the chain settles the question, `None` when nothing
    /// was spent in the claimed period (safe to send).
    async fn reconcile(&self, claim: &ChargeClaim, manager: Wallet) -> Result<Option<Attempt>, ChainError> {
        // The crashed run's charge may have been accepted by the node and not mined yet (a congested chain
        // keeps it longer than a lease): the period then reads unspent, and sending again would charge twice
        // once both are mined. Left pending until the relayer has nothing in flight.
        if self.chain.relayer_has_unmined().await? {
            return Ok(Some(Attempt::Unknown {
                reason: "the relayer has transactions not mined yet; reconciled once they are".to_owned(),
            }));
        }
        let subscription = &claim.subscription;
        let period = self
            .chain
            .permission_period(manager, &subscription.permission)
            .await?;
        let slot_secs =
            slot_at(subscription.anchor_ms, subscription.period, claim.period_index).div_euclid(1000);
        let slot_secs = u64::try_from(slot_secs).unwrap_or_default();
        let in_period = period.start <= slot_secs && slot_secs < period.end;
        let next_slot = Self::next_slot(claim);
        if in_period && period.spent.base_units() > 0 {
            return Ok(Some(Attempt::Known {
                outcome: ChargeOutcome::Charged { tx_hash: None },
                schedule: self.terms.policy.after_success(Self::progress(claim), next_slot),
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
}
