//! What the chain workers tell the receipt service: a confirmed payment and a mined settlement. Both go through
//! the same transition (state machine, history, webhook outbox) as every other status change, with the
//! chain's authority, which no key or buyer can override.

use payments_core::{Cents, PaymentProof, ReceiptEvent, Wallet};

use crate::domain::receipt::{Actor, ReceiptError, ReceiptId};
use crate::services::receipts::service::ReceiptService;
use crate::services::receipts::transition::{StatusChange, StatusOutcome, fresh};

/// A payment the deposit watcher confirmed.
#[derive(Debug, Clone)]
pub(crate) struct ConfirmedPayment {
    pub(crate) merchant: Wallet,
    pub(crate) receipt_id: ReceiptId,
    /// The transfer that completed the payment.
    pub(crate) transaction_hash: String,
    /// Its sender: the buyer of record.
    pub(crate) buyer: Wallet,
    /// Everything received, in whole cents.
    pub(crate) received: Cents,
}

impl ReceiptService {
    /// Marks the receipt `paid` on the chain's word (ignored when it already is).
    pub(crate) async fn confirm_payment(
        &self,
        payment: ConfirmedPayment,
    ) -> Result<StatusOutcome, ReceiptError> {
        let change = StatusChange {
            transaction_hash: Some(payment.transaction_hash.clone()),
            buyer_wallet: Some(payment.buyer),
            ..StatusChange::by(Actor::Chain)
        };
        let event = ReceiptEvent::PaymentConfirmed {
            proof: PaymentProof::OnChain {
                transaction_hash: payment.transaction_hash,
                buyer: Some(payment.buyer),
            },
            amount: payment.received,
        };
        let committed = self
            .apply_status(
                Some(payment.merchant),
                payment.receipt_id,
                change,
                None,
                move |_| Ok(event),
            )
            .await?;
        Ok(StatusOutcome::of(&fresh(committed)?))
    }

    /// Marks the receipt `completed`: its deposit was forwarded to the split and distributed, both mined.
    pub(crate) async fn record_settlement(
        &self,
        merchant: Wallet,
        receipt_id: ReceiptId,
    ) -> Result<StatusOutcome, ReceiptError> {
        let committed = self
            .apply_status(
                Some(merchant),
                receipt_id,
                StatusChange::by(Actor::Chain),
                None,
                |_| Ok(ReceiptEvent::SplitExecuted),
            )
            .await?;
        Ok(StatusOutcome::of(&fresh(committed)?))
    }
}
