//! The payment page's script acting for the buyer. Connecting a wallet and pressing Pay are the buyer's own
//! steps (`buyer_logged_in`, `checkout_initialized`, the buyer's authority). A transaction hash the page posts
//! is evidence, never a claim to trust: `checkout_success` is recorded, as the chain's word, only once the
//! node shows that transaction (pending or mined) calling the payment token's `transfer` to this receipt's
//! deposit address. `paid` stays the deposit watcher's decision.

use alloy_primitives::B256;
use payments_core::{ReceiptEvent, TrackingStatus, Wallet};

use crate::chain::{ChainError, SentTransaction};
use crate::domain::receipt::{Actor, Receipt, ReceiptError, ReceiptId};
use crate::services::receipts::service::ReceiptService;
use crate::services::receipts::transition::StatusChange;

/// `transfer(address,uint256)`.
const TRANSFER_SELECTOR: [u8; 4] = [0xa9, 0x05, 0x9c, 0xbb];

/// A step the buyer takes on the payment page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PageStep {
    /// Connect wallet: `buyer_logged_in`.
    WalletConnected,
    /// Pay pressed: `checkout_initialized`.
    CheckoutStarted,
}

impl PageStep {
    const fn tracking(self) -> TrackingStatus {
        match self {
            PageStep::WalletConnected => TrackingStatus::BuyerLoggedIn,
            PageStep::CheckoutStarted => TrackingStatus::CheckoutInitialized,
        }
    }
}

impl ReceiptService {
    /// Records the buyer's `step` with the wallet it connected (named in the webhook, not stored as the
    /// receipt's buyer). `false` when there is no such receipt. A change the state machine or the buyer's
    /// authority refuses (a paid receipt, a failure the merchant reported) is not an error: nothing changes.
    ///
    /// # Errors
    /// A datastore failure.
    pub(crate) async fn record_page_step(
        &self,
        merchant: Option<Wallet>,
        id: ReceiptId,
        step: PageStep,
        wallet: Wallet,
    ) -> Result<bool, ReceiptError> {
        let Some((receipt, _)) = self.receipts.fetch_with_split(merchant, &id).await? else {
            return Ok(false);
        };
        let change = StatusChange {
            connected_wallet: Some(wallet),
            ..StatusChange::by(Actor::Portal)
        };
        let event = ReceiptEvent::Tracking(step.tracking());
        let applied = self
            .apply_status(Some(receipt.wallet), id, change, None, move |_| Ok(event))
            .await;
        accepted_or_refused(applied.map(|_| ()))
    }

    /// Verifies the transaction `hash` the page posted and records `checkout_success` with it. `false` when
    /// there is no such receipt.
    ///
    /// # Errors
    /// [`ReceiptError::UnverifiedPayment`] saying what does not hold (nothing is recorded); a chain outage is
    /// [`ReceiptError::ChainUnavailable`]; a datastore failure.
    pub(crate) async fn submit_page_payment(
        &self,
        merchant: Option<Wallet>,
        id: ReceiptId,
        hash: &str,
    ) -> Result<bool, ReceiptError> {
        let Some((receipt, _)) = self.receipts.fetch_with_split(merchant, &id).await? else {
            return Ok(false);
        };
        let (hash, sender) = self.verify_sent_payment(&receipt, hash).await?;
        let change = StatusChange {
            transaction_hash: Some(format!("{hash:#x}")),
            buyer_wallet: Some(sender),
            ..StatusChange::by(Actor::Chain)
        };
        let applied = self
            .apply_status(Some(receipt.wallet), id, change, None, |_| {
                Ok(ReceiptEvent::CheckoutSucceeded)
            })
            .await;
        self.chain_wakeup.notify_one();
        accepted_or_refused(applied.map(|_| ()))
    }

    /// The transaction `hash` as the node shows it, if it pays this receipt: its hash and its signer.
    async fn verify_sent_payment(
        &self,
        receipt: &Receipt,
        hash: &str,
    ) -> Result<(B256, Wallet), ReceiptError> {
        let refuse = |reason: &str| Err(ReceiptError::UnverifiedPayment(reason.to_owned()));
        let Ok(hash) = hash.trim().parse::<B256>() else {
            return refuse("transactionHash must be 0x followed by 64 hex digits");
        };
        let Some(target) = receipt.payment else {
            return refuse("this receipt has no deposit address to verify a transfer against");
        };
        let Some(sent) = self.chain.sent_transaction(hash).await.map_err(chain_error)? else {
            return refuse("the transaction is not on chain (unknown, or not seen by the node yet)");
        };
        if sent.to != Some(self.deposits.token) {
            return refuse("the transaction does not call the payment token");
        }
        if transfer_recipient(&sent) != Some(target.to) {
            return refuse(
                "the transaction does not transfer the payment token to this receipt's deposit address",
            );
        }
        if sent.mined {
            let mined = self.chain.mined_transaction(hash).await.map_err(chain_error)?;
            if mined.is_some_and(|mined| !mined.succeeded) {
                return refuse("the transaction reverted");
            }
        }
        Ok((hash, sent.from))
    }
}

/// The recipient of an ERC-20 `transfer(to, amount)` call, `None` for any other input.
fn transfer_recipient(sent: &SentTransaction) -> Option<Wallet> {
    let input = sent.input.as_slice();
    if input.len() != 4 + 64 || input[..4] != TRANSFER_SELECTOR {
        return None;
    }
    let word = &input[4..36];
    if word[..12].iter().any(|byte| *byte != 0) {
        return None;
    }
    Some(Wallet::from_address(alloy_primitives::Address::from_slice(
        &word[12..],
    )))
}

fn chain_error(error: ChainError) -> ReceiptError {
    match error {
        ChainError::Unavailable(message) => ReceiptError::ChainUnavailable(message),
        ChainError::Reverted(message) | ChainError::NotConfigured(message) => {
            ReceiptError::UnverifiedPayment(message)
        }
    }
}

/// A change the state machine or the authorities refuse leaves the receipt as it is and is no error for
/// the page: it shows the receipt as it stands.
pub(crate) fn accepted_or_refused(applied: Result<(), ReceiptError>) -> Result<bool, ReceiptError> {
    match applied {
        Ok(()) | Err(ReceiptError::Transition(_)) => Ok(true),
        Err(ReceiptError::NotFound(_)) => Ok(false),
        Err(
            error @ (ReceiptError::IdTaken(_)
            | ReceiptError::WalletMismatch
            | ReceiptError::NotPostable(_)
            | ReceiptError::ChainOnly(_)
            | ReceiptError::UnverifiedPayment(_)
            | ReceiptError::RefundNotProven(_)
            | ReceiptError::RefundTxReused(_)
            | ReceiptError::SimulationUnavailable(_)
            | ReceiptError::ChainUnavailable(_)
            | ReceiptError::DeliveryNotFound { .. }
            | ReceiptError::NoMasterKey
            | ReceiptError::WebhookWithoutKey
            | ReceiptError::IdempotencyConflict
            | ReceiptError::Unexpected(_)
            | ReceiptError::Store(_)),
        ) => Err(error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sent(input: &str) -> SentTransaction {
        SentTransaction {
            from: Wallet::parse("0x70997970c51812dc3a010c7d01b50e0d17dc79c8").unwrap(),
            to: None,
            input: hex::decode(input).unwrap(),
            mined: false,
        }
    }

    /// The ABI word of 0x2222…2222.
    const RECIPIENT: &str = "0000000000000000000000002222222222222222222222222222222222222222";

    #[test]
    fn a_transfer_call_names_its_recipient() {
        let input = format!("a9059cbb{RECIPIENT}{:064x}", 12_500_000);
        assert_eq!(
            transfer_recipient(&sent(&input)),
            Some(Wallet::parse("0x2222222222222222222222222222222222222222").unwrap())
        );
    }

    #[test]
    fn other_calls_and_malformed_transfers_name_no_recipient() {
        let amount = format!("{:064x}", 1);
        for input in [
            format!("095ea7b3{RECIPIENT}{amount}"),
            format!("a9059cbb{RECIPIENT}"),
            format!("a9059cbb{RECIPIENT}{amount}00"),
            format!("a9059cbb01{}{amount}", &RECIPIENT[2..]),
            String::new(),
        ] {
            assert_eq!(transfer_recipient(&sent(&input)), None, "{input}");
        }
    }
}
