//! `POST /api/subscriptions/cancel`: only the customer cancels, proven by a signed-in session of the
//! customer's wallet or by the customer's EIP-712 `CancelSubscription` signature; the merchant's own
//! session may cancel its subscriptions too. The result is `canceled`, final and idempotent.

use payments_core::{CancelSubscription, Wallet};

use crate::domain::recurring::{CustomerSubscription, CustomerSubscriptionId};
use crate::services::recurring::{RecurringError, RecurringService};

/// How the caller proved who it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CancelAuthority {
    /// A signed-in session of this wallet (session, CSRF and Origin checked by the HTTP layer).
    Session(Wallet),
    /// The body's wallet signed `CancelSubscription { subscriptionId, wallet }` (hex signature).
    Signature(String),
}

impl RecurringService {
    /// # Errors
    /// [`RecurringError::SubscriptionNotFound`], [`RecurringError::NotAllowed`] (not the customer, nor the
    /// merchant's session), [`RecurringError::CancelSignature`].
    pub(crate) async fn cancel(
        &self,
        id: &CustomerSubscriptionId,
        wallet: Wallet,
        authority: &CancelAuthority,
    ) -> Result<CustomerSubscription, RecurringError> {
        let subscription = self
            .recurring
            .fetch_subscription(id)
            .await?
            .ok_or_else(|| RecurringError::SubscriptionNotFound(id.clone()))?;
        match authority {
            CancelAuthority::Session(signed_in) => {
                let own = *signed_in == wallet
                    && (wallet == subscription.customer || wallet == subscription.merchant);
                if !own {
                    return Err(RecurringError::NotAllowed);
                }
            }
            CancelAuthority::Signature(signature) => {
                if wallet != subscription.customer {
                    return Err(RecurringError::NotAllowed);
                }
                CancelSubscription {
                    subscription_id: id.as_str().to_owned(),
                    wallet,
                }
                .verify(signature, self.terms.chain_id)
                .map_err(RecurringError::CancelSignature)?;
            }
        }
        let canceled = self
            .recurring
            .cancel_subscription(id, self.now_ms())
            .await?
            .ok_or_else(|| RecurringError::SubscriptionNotFound(id.clone()))?;
        // Its `subscription.canceled` webhook (if any) committed with it.
        self.outbox_wakeup.notify_one();
        Ok(canceled)
    }
}
