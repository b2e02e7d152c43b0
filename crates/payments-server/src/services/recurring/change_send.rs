//! A decided plan change on chain, exactly once: recorded `pending` under a lease, sent as one
//! `changePermission` transaction by the relayer (under the relayer's send lease, as the batch's charges),
//! then applied with its transaction hash, or failed when the manager refused it (nothing moved). When the
//! node does not answer, the change stays pending: after its lease, [`RecurringService::reconcile_changes`]
//! (run by the next change and by every batch run) asks the chain whether it happened (the old permission
//! revoked and, for an upgrade, the prorated charge spent on the new one) and applies or fails it, never
//! sending it again. While a change is pending the batch does not charge the subscription.

use payments_core::Wallet;

use crate::chain::ChainError;
use crate::chain::spend::PermissionChange;
use crate::domain::recurring::{
    ChangeRefusal, ChangedSubscription, CustomerSubscription, SubscriptionChange,
};
use crate::services::recurring::{RecurringError, RecurringService};
use crate::store::{Committed, IdempotencyClaim, TxError};

/// Pending changes a run reconciles at most (more wait for the next run).
const RECONCILE_LIMIT: u32 = 100;

impl RecurringService {
    /// Records, sends and finishes `change` of `subscription` (see the module docs).
    pub(super) async fn make_change(
        &self,
        subscription: &CustomerSubscription,
        change: SubscriptionChange,
        claim: Option<IdempotencyClaim>,
    ) -> Result<Committed<ChangedSubscription>, RecurringError> {
        let manager = self.terms.manager.ok_or(RecurringError::NotConfigured)?;
        let fee_recipient = self
            .terms
            .platform_recipient
            .ok_or(RecurringError::PlatformRecipientNotConfigured)?;
        let merchant = self.merchant_target(change.merchant).await?;
        let lease_ms = i64::try_from(self.terms.lease.as_millis()).unwrap_or(i64::MAX);
        self.recurring
            .begin_change(&change, self.now_ms().saturating_add(lease_ms))
            .await
            .map_err(|error| match error {
                TxError::Refused(ChangeRefusal::Canceled) => {
                    RecurringError::SubscriptionCanceled(change.subscription_id.clone())
                }
                TxError::Refused(ChangeRefusal::Busy) => RecurringError::ChangeInProgress,
                TxError::Refused(ChangeRefusal::PermissionReused) => RecurringError::PermissionReused,
                TxError::Refused(ChangeRefusal::PlanUnavailable) => {
                    RecurringError::PlanInactive(change.plan_id.clone())
                }
                TxError::IdempotencyConflict => RecurringError::IdempotencyConflict,
                TxError::Store(error) => RecurringError::Store(error),
            })?;
        let call = PermissionChange {
            manager,
            old: change.old_permission.clone(),
            replacement: change.permission.clone(),
            signature: change.signature.clone(),
            merchant,
            net: change.net,
            fee_recipient,
            fee: change.fee,
        };
        let sent = self
            .with_send_lease(change.id.as_str(), self.chain.change_permission(&call))
            .await?;
        match sent {
            Ok(tx_hash) => {
                self.apply_change(subscription, &change, Some(tx_hash.to_string()), claim)
                    .await
            }
            Err(ChainError::Reverted(reason) | ChainError::NotConfigured(reason)) => {
                self.recurring
                    .fail_change(&change.id, &reason, self.now_ms())
                    .await?;
                Err(RecurringError::ChangeRefusedOnChain(reason))
            }
            // Unknown whether it happened: left pending, reconciled from the chain after its lease.
            Err(error @ ChainError::Unavailable(_)) => Err(error.into()),
        }
    }

    /// Where the merchant's part of a charge goes: its split, else its own wallet.
    async fn merchant_target(&self, merchant: Wallet) -> Result<Wallet, RecurringError> {
        let split = self.shops.fetch_split(merchant).await?;
        Ok(split.map_or(merchant, |split| split.address))
    }

    /// Writes the change that happened on chain, with the claim naming it.
    async fn apply_change(
        &self,
        subscription: &CustomerSubscription,
        change: &SubscriptionChange,
        tx_hash: Option<String>,
        claim: Option<IdempotencyClaim>,
    ) -> Result<Committed<ChangedSubscription>, RecurringError> {
        let now_ms = self.now_ms();
        let applied = self
            .recurring
            .apply_change(&change.id, tx_hash.clone(), now_ms, claim)
            .await?;
        // Its `subscription.updated` webhook committed with it.
        self.outbox_wakeup.notify_one();
        // Not pending any more: another run finished it, as this one would have.
        let changed = applied.unwrap_or_else(|| ChangedSubscription {
            subscription: subscription.switched(change, now_ms),
            change: change.facts(subscription.credit, tx_hash),
        });
        Ok(Committed::Fresh(changed))
    }

    /// Settles the changes whose run crashed or lost the node after recording them (their lease over):
    /// applied when the chain shows them done, failed when it shows they never happened; a change whose
    /// chain state cannot be read waits for the next run.
    ///
    /// # Errors
    /// A datastore failure.
    pub(super) async fn reconcile_changes(&self) -> Result<(), RecurringError> {
        let Some(manager) = self.terms.manager else {
            return Ok(());
        };
        let stale = self
            .recurring
            .stale_changes(self.now_ms(), RECONCILE_LIMIT)
            .await?;
        if stale.is_empty() {
            return Ok(());
        }
        for change in stale {
            match self.change_happened(manager, &change).await {
                Ok(true) => {
                    self.recurring
                        .apply_change(&change.id, None, self.now_ms(), None)
                        .await?;
                }
                Ok(false) => {
                    let reason =
                        "the change's transaction did not go through (checked on chain after its lease)";
                    self.recurring
                        .fail_change(&change.id, reason, self.now_ms())
                        .await?;
                }
                Err(error) => {
                    tracing::warn!(change = change.id.as_str(), %error, "a pending plan change could not be reconciled yet");
                }
            }
        }
        self.outbox_wakeup.notify_one();
        Ok(())
    }

    /// Whether `change`'s one transaction went through: `changePermission` revokes the old permission and
    /// charges the new one together, so a revoked old permission means it did, unless the customer revoked
    /// it on its own; for an upgrade, the new permission's spend in the change's period tells (a period
    /// since ended can no longer say, and the revoke stands for it).
    async fn change_happened(
        &self,
        manager: Wallet,
        change: &SubscriptionChange,
    ) -> Result<bool, ChainError> {
        // The change's transaction may be accepted and not mined yet: not done now, but not failed either.
        if self.chain.relayer_has_unmined().await? {
            return Err(ChainError::Unavailable(
                "the relayer has transactions not mined yet".to_owned(),
            ));
        }
        let old = self
            .chain
            .permission_period(manager, &change.old_permission)
            .await?;
        if !old.revoked {
            return Ok(false);
        }
        let charge = change.charge().base_units();
        if charge == 0 {
            return Ok(true);
        }
        let new = self.chain.permission_period(manager, &change.permission).await?;
        let made_secs = u64::try_from(change.created_at.div_euclid(1000)).unwrap_or_default();
        let same_period = new.start <= made_secs && made_secs < new.end;
        Ok(!same_period || new.spent.base_units() >= charge)
    }
}
