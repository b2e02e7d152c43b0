//! A receipt's deposit as the chain showed it: every confirmed transfer to its address, of any token, and
//! what of it counts towards the payment. This is how a merchant sees an underpayment or a payment in the
//! wrong token (recorded, never counted) without reading the database.

use payments_core::{DepositAssessment, TokenAmount, Wallet, assess_deposit};

use crate::domain::chain::PaymentChain;
use crate::domain::receipt::{Receipt, ReceiptError, ReceiptId};
use crate::services::receipts::ReceiptService;
use crate::store::RecordedTransfer;

/// A receipt with the transfers its deposit address received.
#[derive(Debug, Clone)]
pub(crate) struct DepositTransfers {
    pub(crate) receipt: Receipt,
    /// In chain order; empty for a receipt without a deposit address.
    pub(crate) transfers: Vec<RecordedTransfer>,
    /// The payment token: only its transfers count.
    pub(crate) token: Wallet,
}

impl DepositTransfers {
    /// Whether `transfer` counts towards the payment (the configured token, with an amount).
    pub(crate) fn counts(&self, transfer: &RecordedTransfer) -> bool {
        transfer.token == self.token && transfer.amount.is_some()
    }

    /// Base units of the payment token received beyond the total (a second payment after paid, or one
    /// transfer too many): what the merchant may owe the buyer back.
    pub(crate) fn overpaid(&self) -> TokenAmount {
        let (received, _) = self.received_and_missing();
        let required = self
            .receipt
            .amounts
            .total
            .to_token_amount()
            .map_or(0, TokenAmount::base_units);
        TokenAmount::from_base_units(received.base_units().saturating_sub(required))
    }

    /// Base units of the payment token received, and still missing (zero once covered).
    pub(crate) fn received_and_missing(&self) -> (TokenAmount, TokenAmount) {
        let counted = self
            .transfers
            .iter()
            .filter(|transfer| self.counts(transfer))
            .map(|transfer| TokenAmount::from_base_units(transfer.amount.unwrap_or(0)));
        match assess_deposit(self.receipt.amounts.total, counted) {
            DepositAssessment::Covered { received, .. } => (received, TokenAmount::from_base_units(0)),
            DepositAssessment::Short { received, missing } => (received, missing),
        }
    }
}

impl ReceiptService {
    /// `wallet`'s receipt `id` with every recorded transfer to its deposit address on `chain`.
    pub(crate) async fn deposit_transfers(
        &self,
        wallet: Wallet,
        id: ReceiptId,
        chain: PaymentChain,
    ) -> Result<DepositTransfers, ReceiptError> {
        let receipt = self.fetch(wallet, id).await?;
        let transfers = match receipt.payment {
            Some(target) => {
                self.chain_records
                    .deposit_transfers(chain.chain_id, target.to)
                    .await?
            }
            None => Vec::new(),
        };
        Ok(DepositTransfers {
            receipt,
            transfers,
            token: chain.token,
        })
    }
}
