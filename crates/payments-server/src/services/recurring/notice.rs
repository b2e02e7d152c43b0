//! `subscription.charge_upcoming`: every batch run first looks for charges due within the notice window
//! (`--subscription-notice-hours`, 72 by default) and not noticed yet, reads on chain whether each would go
//! through (the customer's token balance and its approval of the manager against the amount), and records
//! one notice per (subscription, period) with its webhook. The unique row makes it exactly once across runs
//! and instances; a run that cannot read the chain for one subscription leaves it to the next run.
//!
//! The same read tells whether the customer revoked the permission on chain: such a subscription is
//! canceled (`revoked_on_chain`) instead of noticed.

use futures_util::{StreamExt, stream};
use payments_core::{UpcomingCharge, Wallet, WebhookAmount};

use crate::domain::recurring::{ChargeNotice, CustomerSubscription};
use crate::services::recurring::{RecurringError, RecurringService};

/// Candidates read per round; a run repeats rounds until none is left to notice.
const NOTICES_PER_ROUND: u32 = 200;

/// What the chain said about one candidate.
enum Finding {
    Notice(ChargeNotice),
    Revoked(Box<CustomerSubscription>),
    /// The node did not answer: the next run tries again.
    Unread,
}

/// What a notice pass did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NoticePass {
    pub(crate) noticed: u64,
    pub(crate) revoked: u64,
}

impl RecurringService {
    /// Sends the notices that became due (see the module docs).
    ///
    /// # Errors
    /// [`RecurringError::Store`] when the candidates cannot be read or the notices written.
    pub(super) async fn send_notices(&self, manager: Wallet) -> Result<NoticePass, RecurringError> {
        let mut pass = NoticePass::default();
        let window_ms = i64::try_from(self.terms.notice.as_millis()).unwrap_or(i64::MAX);
        if window_ms == 0 {
            return Ok(pass);
        }
        loop {
            let now_ms = self.now_ms();
            let candidates = self
                .recurring
                .notice_candidates(now_ms, now_ms.saturating_add(window_ms), NOTICES_PER_ROUND)
                .await?;
            let full_round = candidates.len() == NOTICES_PER_ROUND as usize;
            let findings: Vec<Finding> = stream::iter(candidates)
                .map(|subscription| self.inspect(subscription, manager, now_ms))
                .buffered(self.terms.concurrency.max(1))
                .collect()
                .await;
            let mut notices = Vec::new();
            let mut unread = 0_usize;
            for finding in findings {
                match finding {
                    Finding::Notice(notice) => notices.push(notice),
                    Finding::Revoked(subscription) => {
                        self.cancel_revoked(&subscription).await?;
                        pass.revoked += 1;
                    }
                    Finding::Unread => unread += 1,
                }
            }
            let recorded = self.recurring.record_notices(&notices).await?;
            pass.noticed += recorded;
            self.outbox_wakeup.notify_one();
            // A round the chain left wholly unread would come back the same: stop, the next run retries.
            if !full_round || unread == NOTICES_PER_ROUND as usize {
                return Ok(pass);
            }
        }
    }

    async fn inspect(&self, subscription: CustomerSubscription, manager: Wallet, now_ms: i64) -> Finding {
        // What the charge will take: the price less any credit a downgrade left.
        let amount = self.charge_amounts(&subscription).0.price;
        let token = self.terms.token;
        let customer = subscription.customer;
        let read = async {
            let period = self
                .chain
                .permission_period(manager, &subscription.permission)
                .await?;
            let balance = self.chain.token_balance(token, customer).await?;
            let approved = self.chain.token_allowance(token, customer, manager).await?;
            Ok::<_, crate::chain::ChainError>((period.revoked, balance, approved))
        };
        match read.await {
            Ok((true, _, _)) => Finding::Revoked(Box::new(subscription)),
            Ok((false, balance, approved)) => Finding::Notice(ChargeNotice {
                subscription_id: subscription.id,
                upcoming: UpcomingCharge {
                    period_index: subscription.next_period_index,
                    charge_at: subscription.next_charge_at,
                    amount: WebhookAmount::of_units(amount),
                    balance_sufficient: balance >= amount,
                    allowance_sufficient: approved >= alloy_primitives::U256::from(amount.base_units()),
                },
                now_ms,
            }),
            Err(error) => {
                tracing::warn!(subscription = %subscription.id.as_str(), %error, "charge notice: the chain could not be read; the next run tries again");
                Finding::Unread
            }
        }
    }
}
