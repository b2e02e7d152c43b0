//! Refunds proven on chain (docs/money.md, "Refunds proven on chain"). A refund names the transaction that
//! sent the money back; the server reads that transaction's `Transfer` logs from the node and records the
//! refund only when `payments-core` finds a transfer of the configured token of at least the refund to the
//! buyer, and no other refund was proven by the same transaction. Mined but short of `--confirmations`, the
//! refund is recorded at once (it counts against what remains refundable) and the receipt is
//! `refund_requested` until the confirmation pass (`refund_confirmations.rs`) sees it confirmed.

use alloy_primitives::B256;
use payments_core::{
    ClaimedRefund, MinedRefund, ReceiptEvent, ReceiptState, SeenTransfer, Wallet, apply_event, is_confirmed,
    verify_refund,
};

use crate::chain::{ChainError, MinedTransaction};
use crate::domain::receipt::{Actor, ReceiptError, Refund, RefundTransfer};
use crate::services::idempotency::Outcome;
use crate::services::receipts::service::{IdempotencyRequest, ReceiptService};
use crate::services::receipts::transition::StatusChange;
use crate::store::{NewRefund, Transitioned};

/// Where a verified refund transaction stands.
#[derive(Debug, Clone, Copy)]
struct ProvenRefund {
    block_number: u64,
    confirmed: bool,
}

impl ReceiptService {
    /// Refunds part or all of what was paid, proven by a transaction on chain (or, `simulate` in test mode, by
    /// one the test-mode chain sends for the merchant): `refund_partial` or `refunded` when the transaction is
    /// confirmed, `refund_requested` until then. With an idempotency key, a repeated request (even a
    /// concurrent one) refunds once and answers the first response again.
    ///
    /// # Errors
    /// [`ReceiptError::RefundNotProven`] when the transaction is unknown or does not send the refund,
    /// [`ReceiptError::RefundTxReused`] when it already proves a refund, [`ReceiptError::Transition`] when the
    /// receipt cannot be refunded (unpaid, or past what remains); nothing is recorded then.
    pub(crate) async fn refund(
        &self,
        wallet: Wallet,
        refund: Refund,
        admin: Wallet,
        idempotency: Option<IdempotencyRequest>,
    ) -> Result<Outcome<Transitioned>, ReceiptError> {
        let hash = match &refund.transfer {
            RefundTransfer::Sent(hash) => hash
                .parse::<B256>()
                .map_err(|_| ReceiptError::Unexpected(format!("txHash {hash} passed validation unparsed")))?,
            RefundTransfer::Simulate => self.send_simulated_refund(wallet, &refund).await?,
        };
        let tx_hash = hash.to_string();
        let reused = self.receipts.refund_tx_recorded(&tx_hash).await?;
        if reused && idempotency.is_none() {
            return Err(ReceiptError::RefundTxReused(tx_hash));
        }
        // A used hash under an idempotency key goes on to the transaction without reading the chain: the same
        // key answers its first response again there, before any decision; any other key is refused below.
        let proven = if reused {
            None
        } else {
            Some(self.prove(hash, &refund).await?)
        };
        let amount = refund.amount;
        let change = StatusChange {
            refund: proven.map(|proven| NewRefund {
                buyer: refund.buyer,
                amount,
                items: refund.items,
                tx_hash: tx_hash.clone(),
                block_number: proven.block_number,
                confirmed: proven.confirmed,
            }),
            ..StatusChange::by(Actor::Admin(admin))
        };
        let claim = idempotency.map(|request| self.claim(admin, "receipts.refund", request));
        let committed = self
            .apply_status(
                Some(wallet),
                refund.receipt_id,
                change,
                claim.clone(),
                move |_| match proven {
                    None => Err(ReceiptError::RefundTxReused(tx_hash)),
                    Some(ProvenRefund { confirmed: true, .. }) => Ok(ReceiptEvent::Refunded { amount }),
                    Some(ProvenRefund { confirmed: false, .. }) => Ok(ReceiptEvent::RefundSent { amount }),
                },
            )
            .await?;
        Ok(Outcome::new(committed, claim))
    }

    /// Reads transaction `hash` from the node and checks that it proves `refund`.
    async fn prove(&self, hash: B256, refund: &Refund) -> Result<ProvenRefund, ReceiptError> {
        let mined = self.chain.mined_transaction(hash).await.map_err(unavailable)?;
        let claim = ClaimedRefund {
            token: self.deposits.token,
            buyer: refund.buyer,
            amount: refund.amount,
        };
        verify_refund(&claim, mined.as_ref().map(seen).as_ref()).map_err(ReceiptError::RefundNotProven)?;
        let Some(mined) = mined else {
            return Err(ReceiptError::Unexpected(
                "a refund was proven by no transaction".to_owned(),
            ));
        };
        let head = self.chain.head().await.map_err(unavailable)?;
        Ok(ProvenRefund {
            block_number: mined.block.number,
            confirmed: is_confirmed(mined.block.number, head, self.confirmations),
        })
    }

    /// Test mode: the test-mode chain sends the refund from the merchant to the buyer. The refund is checked
    /// against the receipt first, so a refund that would be refused sends nothing.
    async fn send_simulated_refund(&self, wallet: Wallet, refund: &Refund) -> Result<B256, ReceiptError> {
        if !self.chain.is_test_mode() {
            return Err(ReceiptError::SimulationUnavailable(
                "only the test-mode chain sends a refund for the merchant; on a live chain send the refund \
                 from the merchant's wallet and give its txHash"
                    .to_owned(),
            ));
        }
        let receipt = self.fetch(wallet, refund.receipt_id.clone()).await?;
        let state = ReceiptState {
            status: receipt.status,
            paid: receipt.paid,
            refunded: receipt.refunded,
            held_by: receipt.status_authority,
        };
        apply_event(
            state,
            &ReceiptEvent::Refunded {
                amount: refund.amount,
            },
        )
        .map_err(ReceiptError::Transition)?;
        let amount = refund
            .amount
            .to_token_amount()
            .map_err(|error| ReceiptError::Unexpected(format!("a validated refund amount: {error}")))?;
        self.chain
            .simulate_refund(self.deposits.token, wallet, refund.buyer, amount)
            .await
            .map_err(|error| match error {
                ChainError::NotConfigured(message) => ReceiptError::SimulationUnavailable(message),
                ChainError::Unavailable(message) | ChainError::Reverted(message) => {
                    ReceiptError::ChainUnavailable(message)
                }
            })
    }
}

/// The transaction as `payments-core` reads it.
fn seen(mined: &MinedTransaction) -> MinedRefund {
    MinedRefund {
        succeeded: mined.succeeded,
        transfers: mined
            .transfers
            .iter()
            .map(|transfer| SeenTransfer {
                token: transfer.token,
                to: transfer.to,
                amount: transfer.amount,
            })
            .collect(),
    }
}

/// Any failure to read the chain: nothing was recorded, retry later.
pub(super) fn unavailable(error: ChainError) -> ReceiptError {
    match error {
        ChainError::Unavailable(message)
        | ChainError::Reverted(message)
        | ChainError::NotConfigured(message) => ReceiptError::ChainUnavailable(message),
    }
}
