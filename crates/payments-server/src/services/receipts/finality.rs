//! Finality after paid (docs/money.md, "Finality and reorganisations"): where a paid receipt's payment
//! stands on chain, and what happens when a reorganisation takes it away.

use payments_core::{Failure, FailureCategory, PaymentBlock, ReceiptEvent, ReceiptStatus, Wallet};

use crate::domain::receipt::{Actor, PaymentTarget, Receipt, ReceiptError, ReceiptId};
use crate::services::receipts::chain_events::FundsReceived;
use crate::services::receipts::service::ReceiptService;
use crate::services::receipts::transition::{StatusChange, StatusOutcome, fresh};

/// The failure code of a payment a reorganisation removed (category `blockchain`).
const PAYMENT_REORGED: &str = "PORTAL_PAYMENT_REORGED";

/// The failure a reorganised receipt carries.
fn payment_reorged() -> Failure {
    Failure {
        failure_code: PAYMENT_REORGED.to_owned(),
        failure_category: FailureCategory::Blockchain,
        failure_reason: "a chain reorganisation removed the transfer that paid this receipt".to_owned(),
        failure_action: "pay again: a new transfer to the same address pays the receipt; if it was already \
            settled, the operator reconciles what the split paid out"
            .to_owned(),
    }
}

impl ReceiptService {
    /// The receipt's payment was reorganised away: what its deposit still holds (`funds.received`) no longer
    /// covers its total. A settled receipt becomes `failed` (`PORTAL_PAYMENT_REORGED`) with nothing paid,
    /// through the one transition path (history, webhook); a later transfer that covers it pays it again.
    pub(crate) async fn record_payment_reorged(
        &self,
        funds: FundsReceived,
    ) -> Result<StatusOutcome, ReceiptError> {
        let change = StatusChange {
            received: Some(funds.received),
            ..StatusChange::by(Actor::Chain)
        };
        let committed = self
            .apply_status(Some(funds.merchant), funds.receipt_id, change, None, |_| {
                Ok(ReceiptEvent::PaymentReorged(payment_reorged()))
            })
            .await?;
        Ok(StatusOutcome::of(&fresh(committed)?))
    }

    /// Where a paid receipt's payment stands (its completing transfer's block, depth and finality), `None`
    /// for a receipt the chain has not paid or whose transfer the watcher has not recorded.
    pub(crate) async fn payment_block_of(
        &self,
        receipt: &Receipt,
    ) -> Result<Option<PaymentBlock>, ReceiptError> {
        self.payment_block_at(
            receipt.payment,
            receipt.transaction_hash.as_deref(),
            receipt.status,
        )
        .await
    }

    /// [`Self::payment_block_of`] a receipt known by its payment target, transaction hash and status.
    pub(super) async fn payment_block_at(
        &self,
        payment: Option<PaymentTarget>,
        transaction_hash: Option<&str>,
        status: ReceiptStatus,
    ) -> Result<Option<PaymentBlock>, ReceiptError> {
        let (Some(target), Some(hash)) = (payment, transaction_hash) else {
            return Ok(None);
        };
        if !status.is_settled() {
            return Ok(None);
        }
        Ok(self.chain_records.payment_block(target.to, hash).await?)
    }

    /// [`Self::payment_block_of`] the stored receipt, for a webhook: a read that fails leaves the block out
    /// of the body (the receipt's `GET` shows it) rather than holding back the status change.
    pub(super) async fn payment_block_of_stored(
        &self,
        merchant: Wallet,
        id: &ReceiptId,
    ) -> Option<PaymentBlock> {
        let found = match self.receipts.fetch(Some(merchant), id).await {
            Ok(found) => found?,
            Err(error) => {
                tracing::warn!(receipt = id.as_str(), error = %error, "reading a receipt's payment block");
                return None;
            }
        };
        self.payment_block_of(&found)
            .await
            .inspect_err(|error| {
                tracing::warn!(receipt = id.as_str(), error = %error, "reading a receipt's payment block");
            })
            .ok()
            .flatten()
    }
}
