//! What the use-case transactions of [`super::ReceiptRepository`] take and give: the idempotency claim, the
//! inputs loaded for the service's decision, the decision itself, and what was committed.
//!
//! The decision is a closure so that the service (with `payments-core`) decides while the backend holds the
//! transaction: nothing the decision read can change before its outcome is written.

use payments_core::{ReceiptState, ReceiptStatus, Wallet};

use crate::domain::inventory::InventoryItem;
use crate::domain::receipt::{ItemRef, NewReceipt, Receipt, ReceiptId};
use crate::domain::shop::ShopConfig;
use crate::domain::split::StoredSplit;
use crate::store::{IdempotentResponse, StockTake, StoreError, TransitionCommit};

/// How long an idempotency key is remembered.
pub(crate) const IDEMPOTENCY_RETENTION_MS: i64 = 24 * 60 * 60 * 1000;

/// An `Idempotency-Key` presented with a creating request, checked and recorded inside the use case's
/// transaction (per merchant and route).
#[derive(Debug, Clone)]
pub(crate) struct IdempotencyClaim {
    pub(crate) wallet: Wallet,
    /// The route, e.g. `orders`.
    pub(crate) scope: &'static str,
    pub(crate) key: String,
    /// SHA-256 (hex) of the request body: the same key with another body is a conflict.
    pub(crate) request_hash: String,
    pub(crate) now_ms: i64,
}

impl IdempotencyClaim {
    /// Keys saved before this are expired (and may be used again).
    pub(crate) fn not_before_ms(&self) -> i64 {
        self.now_ms.saturating_sub(IDEMPOTENCY_RETENTION_MS)
    }
}

/// The response kept for an idempotency key, rendered from the committed value inside the transaction.
pub(crate) type Render<T> = Box<dyn FnOnce(&T) -> IdempotentResponse + Send>;

/// What a use case's transaction committed.
#[derive(Debug)]
pub(crate) enum Committed<T> {
    /// This call did the work (and kept its response when it carried a claim).
    Fresh(T),
    /// An earlier call with the same key and body did: its response, byte for byte.
    Replayed(IdempotentResponse),
}

/// Why a use case's transaction wrote nothing.
#[derive(Debug)]
pub(crate) enum TxError<E> {
    /// The decision refused (a business outcome).
    Refused(E),
    /// The same idempotency key was used with another request body.
    IdempotencyConflict,
    /// The datastore failed or stayed busy past the bounded retries.
    Store(StoreError),
}

impl<E> From<StoreError> for TxError<E> {
    fn from(error: StoreError) -> Self {
        TxError::Store(error)
    }
}

/// The merchant's configuration a decision may need, read in the same transaction.
#[derive(Debug, Clone, Default)]
pub(crate) struct MerchantSnapshot {
    pub(crate) split: Option<StoredSplit>,
    pub(crate) shop: Option<ShopConfig>,
}

/// What a sale's decision gets.
#[derive(Debug, Clone)]
pub(crate) struct SaleInputs {
    pub(crate) merchant: MerchantSnapshot,
    /// One entry per [`SaleTx::items`] reference; `None` where the merchant has no such product.
    pub(crate) items: Vec<Option<InventoryItem>>,
}

/// What a sale's decision wants written: the receipt and the finite stock it reserves (one entry per
/// product, quantities summed over the order's lines).
#[derive(Debug, Clone)]
pub(crate) struct SalePlan {
    pub(crate) receipt: NewReceipt,
    pub(crate) reserve: Vec<StockTake>,
}

/// Decides a sale from what the transaction read.
pub(crate) type SaleDecision<E> = Box<dyn FnOnce(SaleInputs) -> Result<SalePlan, E> + Send>;

/// Creating a receipt (API receipt, order or terminal sale) as one transaction.
pub(crate) struct SaleTx {
    pub(crate) wallet: Wallet,
    /// Products to load for the decision (orders only).
    pub(crate) items: Vec<ItemRef>,
    pub(crate) claim: Option<(IdempotencyClaim, Render<Sale>)>,
    pub(crate) decide: SaleDecision<crate::store::OrderError>,
}

/// A committed sale: the stored receipt and the merchant configuration it was decided with (the payment
/// link names the split read in the same transaction).
#[derive(Debug, Clone)]
pub(crate) struct Sale {
    pub(crate) receipt: Receipt,
    pub(crate) merchant: MerchantSnapshot,
}

impl std::fmt::Debug for SaleTx {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SaleTx")
            .field("wallet", &self.wallet)
            .field("items", &self.items)
            .field("claim", &self.claim.as_ref().map(|(claim, _)| claim))
            .finish_non_exhaustive()
    }
}

/// What a transition's decision returns: `None` acknowledges the event and writes nothing.
pub(crate) type TransitionDecision = Box<
    dyn FnOnce(&Receipt, &MerchantSnapshot) -> Result<Option<TransitionCommit>, crate::store::ReceiptError>
        + Send,
>;

/// Changing a receipt's status as one transaction.
pub(crate) struct TransitionTx {
    /// `None`: the payment page, by id alone.
    pub(crate) wallet: Option<Wallet>,
    pub(crate) receipt_id: ReceiptId,
    pub(crate) claim: Option<(IdempotencyClaim, Render<Transitioned>)>,
    pub(crate) decide: TransitionDecision,
}

impl std::fmt::Debug for TransitionTx {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TransitionTx")
            .field("wallet", &self.wallet)
            .field("receipt_id", &self.receipt_id)
            .field("claim", &self.claim.as_ref().map(|(claim, _)| claim))
            .finish_non_exhaustive()
    }
}

/// What a committed transition did.
#[derive(Debug, Clone)]
pub(crate) struct Transitioned {
    /// The receipt as the decision saw it.
    pub(crate) before: Receipt,
    /// `None` when the event was acknowledged and ignored.
    pub(crate) moved: Option<(ReceiptStatus, ReceiptState)>,
    /// Whether a webhook delivery was enqueued (the dispatcher is woken after commit).
    pub(crate) enqueued: bool,
}
