//! The refund confirmation pass: a refund recorded while its transaction was short of `--confirmations`
//! (`refund_requested`) becomes `refund_partial` or `refunded`, with its webhook, once the chain has buried
//! that transaction deep enough. Run by the chain workers after each watcher pass.
//!
//! The transaction is read again rather than trusted from the block recorded with the refund: a
//! reorganisation may have moved it to another block (then that block's depth counts) or dropped it (then
//! the refund keeps waiting, counted against what remains refundable, and the pass says so in the log).

use alloy_primitives::B256;
use payments_core::{ReceiptEvent, is_confirmed};

use crate::domain::receipt::{Actor, ReceiptError};
use crate::services::receipts::refund::unavailable;
use crate::services::receipts::service::ReceiptService;
use crate::services::receipts::transition::{StatusChange, StatusOutcome, fresh};
use crate::store::PendingRefund;

/// Pending refunds checked per pass at most; the rest wait for the next pass, oldest first.
const CONFIRMATION_BATCH: u32 = 200;

impl ReceiptService {
    /// Confirms every pending refund whose transaction now has its confirmations; returns how many.
    ///
    /// # Errors
    /// [`ReceiptError::ChainUnavailable`] or a store error when the pass could not start; a refund that
    /// cannot be confirmed now is logged and retried on the next pass.
    pub(crate) async fn confirm_pending_refunds(&self) -> Result<usize, ReceiptError> {
        let pending = self.receipts.pending_refunds(CONFIRMATION_BATCH).await?;
        if pending.is_empty() {
            return Ok(0);
        }
        let head = self.chain.head().await.map_err(unavailable)?;
        let mut confirmed = 0;
        for refund in pending {
            // The recorded block is a lower bound: a transaction only ever moves to a later block.
            if !is_confirmed(refund.block_number, head, self.confirmations) {
                continue;
            }
            if !self.still_confirmed(&refund, head).await? {
                continue;
            }
            match self.confirm_refund(refund.clone()).await {
                Ok(_) => confirmed += 1,
                Err(error) => tracing::warn!(
                    receipt = refund.receipt_id.as_str(),
                    transaction = refund.tx_hash.as_str(),
                    error = %error,
                    "a confirmed refund could not be recorded; retrying on the next pass"
                ),
            }
        }
        Ok(confirmed)
    }

    /// Whether the refund's transaction is on chain now, succeeded, and has its confirmations.
    async fn still_confirmed(&self, refund: &PendingRefund, head: u64) -> Result<bool, ReceiptError> {
        let Ok(hash) = refund.tx_hash.parse::<B256>() else {
            return Ok(false);
        };
        let mined = self.chain.mined_transaction(hash).await.map_err(unavailable)?;
        match mined {
            Some(mined) if mined.succeeded => Ok(is_confirmed(mined.block.number, head, self.confirmations)),
            _ => {
                tracing::warn!(
                    receipt = refund.receipt_id.as_str(),
                    transaction = refund.tx_hash.as_str(),
                    "a pending refund's transaction is no longer on chain (reorganised away, or reverted when \
                     mined again); the refund stays refund_requested until it is mined"
                );
                Ok(false)
            }
        }
    }

    async fn confirm_refund(&self, refund: PendingRefund) -> Result<StatusOutcome, ReceiptError> {
        let change = StatusChange {
            confirms_refund: Some(refund.tx_hash),
            ..StatusChange::by(Actor::Chain)
        };
        let committed = self
            .apply_status(Some(refund.wallet), refund.receipt_id, change, None, |_| {
                Ok(ReceiptEvent::RefundConfirmed)
            })
            .await?;
        Ok(StatusOutcome::of(&fresh(committed)?))
    }
}
