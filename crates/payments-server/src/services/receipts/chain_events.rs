//! What the chain workers tell the receipt service: a confirmed payment, money that changed a deposit without
//! paying it (an underpayment, or an overpayment after paid), and a mined settlement. All go through the same
//! transition (state machine, history, webhook outbox) as every other status change, with the chain's
//! authority, which no key or buyer can override.

use payments_core::{Cents, PaymentBlock, PaymentProof, ReceiptEvent, TokenAmount, Wallet};

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
    /// Everything received, to the base unit.
    pub(crate) received_units: TokenAmount,
    /// The completing transfer's block as the watcher sees it now (sent with the `paid` webhook).
    pub(crate) block: Option<PaymentBlock>,
}

/// Confirmed transfers that changed what a deposit holds without paying its receipt now.
#[derive(Debug, Clone)]
pub(crate) struct FundsReceived {
    pub(crate) merchant: Wallet,
    pub(crate) receipt_id: ReceiptId,
    /// Everything the deposit holds now, to the base unit.
    pub(crate) received: TokenAmount,
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
            received: Some(payment.received_units),
            payment_block: payment.block,
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

    /// Records a new deposit balance: `underpaid` before payment, the same status (an overpayment) after it.
    /// Either way the webhook carries `amountReceivedUsd`, `amountDueUsd` and `overpaidUsd`.
    pub(crate) async fn record_funds_received(
        &self,
        funds: FundsReceived,
    ) -> Result<StatusOutcome, ReceiptError> {
        let payment_block = self
            .payment_block_of_stored(funds.merchant, &funds.receipt_id)
            .await;
        let change = StatusChange {
            received: Some(funds.received),
            payment_block,
            ..StatusChange::by(Actor::Chain)
        };
        let committed = self
            .apply_status(Some(funds.merchant), funds.receipt_id, change, None, |_| {
                Ok(ReceiptEvent::FundsReceived)
            })
            .await?;
        Ok(StatusOutcome::of(&fresh(committed)?))
    }

    /// Marks the receipt `completed`: its deposit was forwarded to the split and distributed, both mined.
    pub(crate) async fn record_settlement(
        &self,
        merchant: Wallet,
        receipt_id: ReceiptId,
    ) -> Result<StatusOutcome, ReceiptError> {
        let change = StatusChange {
            payment_block: self.payment_block_of_stored(merchant, &receipt_id).await,
            ..StatusChange::by(Actor::Chain)
        };
        let committed = self
            .apply_status(Some(merchant), receipt_id, change, None, |_| {
                Ok(ReceiptEvent::SplitExecuted)
            })
            .await?;
        Ok(StatusOutcome::of(&fresh(committed)?))
    }
}
