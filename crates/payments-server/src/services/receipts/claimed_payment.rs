//! `checkout_success` with a `transactionHash`: a buyer's wallet or a merchant's page claims it paid. The claim
//! alone counts for nothing: the server looks the transaction up on chain, and accepts the status only when
//! the transaction is mined, succeeded and moves the payment token to this receipt's deposit address. Even
//! then the receipt becomes `paid` only through the deposit watcher, once the transfer is confirmed.

use alloy_primitives::B256;

use crate::chain::ChainError;
use crate::domain::receipt::{ReceiptError, ReceiptId};
use crate::services::receipts::service::ReceiptService;
use payments_core::Wallet;

impl ReceiptService {
    /// Checks the claimed transaction `hash` against `wallet`'s receipt `id`.
    ///
    /// # Errors
    /// [`ReceiptError::UnverifiedPayment`] saying what does not hold; a chain outage is
    /// [`ReceiptError::ChainUnavailable`].
    pub(crate) async fn verify_claimed_payment(
        &self,
        wallet: Wallet,
        id: &ReceiptId,
        hash: &str,
    ) -> Result<(), ReceiptError> {
        let refuse = |reason: &str| Err(ReceiptError::UnverifiedPayment(reason.to_owned()));
        let Ok(hash) = hash.trim().parse::<B256>() else {
            return refuse("transactionHash must be 0x followed by 64 hex digits");
        };
        let receipt = self.fetch(wallet, id.clone()).await?;
        let Some(target) = receipt.payment else {
            return refuse("this receipt has no deposit address to verify a transfer against");
        };
        let mined = self
            .chain
            .mined_transaction(hash)
            .await
            .map_err(|error| match error {
                ChainError::Unavailable(message) => ReceiptError::ChainUnavailable(message),
                ChainError::Reverted(message) | ChainError::NotConfigured(message) => {
                    ReceiptError::UnverifiedPayment(message)
                }
            })?;
        let Some(mined) = mined else {
            return refuse("the transaction is not on chain (not mined yet, or unknown)");
        };
        if !mined.succeeded {
            return refuse("the transaction reverted");
        }
        let pays_deposit = mined
            .transfers
            .iter()
            .any(|transfer| transfer.token == self.deposits.token && transfer.to == target.to);
        if !pays_deposit {
            return refuse(
                "the transaction does not transfer the payment token to this receipt's deposit address",
            );
        }
        self.chain_wakeup.notify_one();
        Ok(())
    }
}
