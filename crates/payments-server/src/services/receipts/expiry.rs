//! Payment windows: a receipt still unpaid when its window ends fails (`session`, `PORTAL_SESSION_EXPIRED`),
//! and its order's reserved stock is given back in the same transaction, through the one transition path
//! (state machine, history, webhook outbox). docs/money.md has the rules.

use payments_core::{Cents, Failure, FailureCategory, ReceiptEvent, ReceiptStatus, TransitionError, Wallet};

use crate::domain::receipt::{Actor, ReceiptError, ReceiptId};
use crate::services::receipts::service::ReceiptService;
use crate::services::receipts::transition::{StatusChange, StatusOutcome, fresh};

/// The failure code of an expired payment window (category `session`: "session expired" in the spec).
const SESSION_EXPIRED: &str = "PORTAL_SESSION_EXPIRED";
/// Receipts failed per pass at most; the rest wait for the next pass, soonest ended first.
const EXPIRY_BATCH: u32 = 200;

/// The failure an expired receipt carries.
fn session_expired() -> Failure {
    Failure {
        failure_code: SESSION_EXPIRED.to_owned(),
        failure_category: FailureCategory::Session,
        failure_reason: "the payment window ended before the receipt was paid".to_owned(),
        failure_action: "create a new order; a payment still sent to this receipt's address is kept and \
            reported as paid late"
            .to_owned(),
    }
}

impl ReceiptService {
    /// Fails every receipt whose payment window ended unpaid (up to a batch); returns how many it failed.
    pub(crate) async fn expire_ended_windows(&self) -> Result<usize, ReceiptError> {
        let now_ms = self.clock.now_ms();
        let mut expired = 0;
        for (merchant, id) in self.receipts.windows_ended(now_ms, EXPIRY_BATCH).await? {
            match self.expire(merchant, id.clone(), now_ms).await {
                Ok(StatusOutcome::Moved { .. }) => expired += 1,
                Ok(StatusOutcome::Ignored { .. }) => {}
                // Paid or expired by another instance between the list and its transaction.
                Err(ReceiptError::Transition(_)) => {}
                Err(error) => tracing::warn!(
                    receipt = id.as_str(),
                    error = %error,
                    "an ended payment window could not be closed; retrying on the next pass"
                ),
            }
        }
        Ok(expired)
    }

    /// Fails `merchant`'s receipt `id` if, inside the transaction, it is still unpaid, not yet expired and
    /// its window has ended.
    async fn expire(
        &self,
        merchant: Wallet,
        id: ReceiptId,
        now_ms: i64,
    ) -> Result<StatusOutcome, ReceiptError> {
        let change = StatusChange::by(Actor::PaymentWindow);
        let committed = self
            .apply_status(Some(merchant), id, change, None, move |receipt| {
                let open = receipt.paid == Cents::ZERO
                    && !receipt.expired
                    && !receipt.status.is_settled()
                    && receipt.window_ended(now_ms);
                if !open {
                    return Err(ReceiptError::Transition(TransitionError::NotAllowed {
                        from: receipt.status,
                        to: ReceiptStatus::Failed,
                    }));
                }
                Ok(ReceiptEvent::Failed(session_expired()))
            })
            .await?;
        Ok(StatusOutcome::of(&fresh(committed)?))
    }
}
