//! What a receipt use case can refuse.

use payments_core::{PricingError, RefundProofError, TaxError, TransitionError};
use thiserror::Error;

use crate::domain::receipt::ReceiptId;
use crate::store::StoreError;

#[derive(Debug, Error)]
pub(crate) enum ReceiptError {
    /// Unknown, or another merchant's (indistinguishable on purpose).
    #[error("no receipt with id {0}")]
    NotFound(ReceiptId),
    #[error("a receipt with id {0} already exists")]
    IdTaken(ReceiptId),
    #[error("the body's wallet is not the merchant of this subscription key")]
    WalletMismatch,
    /// The state machine refused the event; nothing changed.
    #[error(transparent)]
    Transition(TransitionError),
    /// Not a status a caller may post (`generated`; refund results come from the refund route).
    #[error(
        "status {0} cannot be posted: refunds go through POST /api/receipts/refund, and generated is only a starting state"
    )]
    NotPostable(payments_core::ReceiptStatus),
    /// `paid` and `completed` are facts of the chain: outside test mode no caller may post them.
    #[error(
        "status {0} is set by the server when the chain shows it (a confirmed transfer, a mined settlement); only the test-mode chain accepts an admin's word for it"
    )]
    ChainOnly(payments_core::ReceiptStatus),
    /// A claimed payment transaction that the chain does not confirm.
    #[error("transactionHash not verified on chain: {0}")]
    UnverifiedPayment(String),
    /// A refund's `txHash` does not prove it on chain: unknown, or not the right transfer.
    #[error("txHash does not prove this refund: {0}")]
    RefundNotProven(RefundProofError),
    /// A refund's transaction already proves another refund (of this or any receipt).
    #[error("transaction {0} already proves another refund: each refund needs its own transfer")]
    RefundTxReused(String),
    /// `simulate` on a server whose chain cannot send a refund for the merchant (a live chain).
    #[error("simulate is refused: {0}")]
    SimulationUnavailable(String),
    /// The chain could not be asked.
    #[error("the chain node is unavailable: {0}")]
    ChainUnavailable(String),
    #[error("no webhook delivery {delivery} on receipt {receipt}")]
    DeliveryNotFound { receipt: ReceiptId, delivery: String },
    /// Production without `--master-key`: the creating key cannot be stored.
    #[error("the server has no master key to seal webhook signing keys")]
    NoMasterKey,
    /// A webhook target on a receipt created through the edge path, which carries no API key to sign with.
    #[error(
        "webhooks are signed with the API key that creates the receipt: send X-Gateway-Subscription-Key to use webhook_url"
    )]
    WebhookWithoutKey,
    /// The same `Idempotency-Key` was used with another request body.
    #[error("this Idempotency-Key was used with a different request body")]
    IdempotencyConflict,
    /// A refusal the use case cannot produce (a bug, answered 500).
    #[error("unexpected refusal: {0}")]
    Unexpected(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// What creating an order or a terminal sale can refuse, besides the receipt errors.
#[derive(Debug, Error)]
pub(crate) enum OrderError {
    /// Orders and terminal sales need the merchant's split configuration.
    #[error("configure a split (POST /api/split/deploy) before creating orders or terminal sales")]
    SplitRequired,
    #[error("no inventory item with {0}")]
    ItemNotFound(String),
    #[error("sku {sku} is out of stock ({available} available)")]
    OutOfStock { sku: String, available: i64 },
    #[error(transparent)]
    Tax(TaxError),
    #[error(transparent)]
    Pricing(PricingError),
    #[error(transparent)]
    Receipt(#[from] ReceiptError),
}

impl From<StoreError> for OrderError {
    fn from(error: StoreError) -> Self {
        OrderError::Receipt(ReceiptError::Store(error))
    }
}
