//! A customer who revokes its spend permission on chain (the manager's `revoke`, an event the platform does
//! not send) ends its subscription: the batch notices it when it reads the permission's state, either in the
//! notice pass before a charge ([`super::notice`]) or after a charge the manager refused. The subscription
//! becomes `canceled` with `cancelReason` `revoked_on_chain`, and its `subscription.canceled` webhook says so.
//!
//! After a refused charge the attempt is settled as any failed one (its `subscription.charge_failed`), but
//! never canceled by the failure policy in the same step: the cancel that follows, in its own transaction,
//! records the real reason. A crash between the two leaves the subscription chargeable; its next attempt is
//! refused the same way and the cancel happens then.

use futures_util::{StreamExt, stream};
use payments_core::SubscriptionStatus;

use crate::domain::recurring::{ChargeClaim, CustomerSubscription, PlatformCancelReason};
use crate::services::recurring::batch::Attempt;
use crate::services::recurring::{RecurringError, RecurringService};

impl RecurringService {
    /// Ends a subscription whose permission its customer revoked on chain, with its webhook.
    pub(super) async fn cancel_revoked(
        &self,
        subscription: &CustomerSubscription,
    ) -> Result<(), RecurringError> {
        self.recurring
            .cancel_for_reason(
                &subscription.id,
                PlatformCancelReason::RevokedOnChain,
                self.now_ms(),
            )
            .await?;
        self.outbox_wakeup.notify_one();
        Ok(())
    }

    /// Marks the failed attempts whose permission turns out revoked: each becomes [`Attempt::Revoked`],
    /// its schedule kept out of `canceled` (see the module docs). A permission whose state cannot be read
    /// stays an ordinary failure.
    pub(super) async fn mark_revoked(&self, claims: &[ChargeClaim], attempts: &mut [Attempt]) {
        let Some(manager) = self.terms.manager else {
            return;
        };
        let failed: Vec<usize> = attempts
            .iter()
            .enumerate()
            .filter(|(_, attempt)| attempt.is_failure())
            .map(|(position, _)| position)
            .collect();
        let revoked: Vec<Option<usize>> = stream::iter(failed)
            .map(|position| async move {
                let claim = claims.get(position)?;
                let period = self
                    .chain
                    .permission_period(manager, &claim.subscription.permission)
                    .await
                    .ok()?;
                period.revoked.then_some(position)
            })
            .buffered(self.terms.concurrency.max(1))
            .collect()
            .await;
        for position in revoked.into_iter().flatten() {
            let (Some(attempt), Some(claim)) = (attempts.get_mut(position), claims.get(position)) else {
                continue;
            };
            if let Attempt::Known { outcome, schedule } = attempt {
                let mut schedule = *schedule;
                if schedule.status == SubscriptionStatus::Canceled {
                    schedule.status = claim.subscription.status;
                }
                *attempt = Attempt::Revoked {
                    outcome: outcome.clone(),
                    schedule,
                };
            }
        }
    }
}
