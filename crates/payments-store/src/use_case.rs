//! What the use-case transactions of [`super::ReceiptRepository`] take and give: the idempotency claim, the
//! inputs loaded for the service's decision, the decision itself, and what was committed.
//!
//! The decision is a closure so that the service (with `payments-core`) decides while the backend holds the
//! transaction: nothing the decision read can change before its outcome is written. What a decision refuses
//! with is the service's own type (`S` for sales, `T` for transitions): the store hands it back untouched
//! inside [`SaleRefused::Decision`] or [`TransitionRefused::Decision`], beside its own refusals.

use payments_core::{ReceiptState, ReceiptStatus, Wallet};

use crate::{IdempotentResponse, StockTake, StoreError, TransitionCommit};
use payments_domain::inventory::InventoryItem;
use payments_domain::receipt::{ItemRef, NewReceipt, Receipt, ReceiptId};
use payments_domain::recurring::{CustomerSubscriptionId, PlanId, SubscriptionChangeId};
use payments_domain::shop::ShopConfig;
use payments_domain::split::StoredSplit;

/// How long an idempotency key is remembered.
pub const IDEMPOTENCY_RETENTION_MS: i64 = 24 * 60 * 60 * 1000;

/// An `Idempotency-Key` presented with a creating request, checked and recorded inside the use case's
/// transaction (per merchant and route).
#[derive(Debug, Clone)]
pub struct IdempotencyClaim {
    pub wallet: Wallet,
    /// The route, e.g. `orders`.
    pub scope: &'static str,
    pub key: String,
    /// SHA-256 (hex) of the request body: the same key with another body is a conflict.
    pub request_hash: String,
    pub now_ms: i64,
}

impl IdempotencyClaim {
    /// Keys saved before this are expired (and may be used again).
    pub fn not_before_ms(&self) -> i64 {
        self.now_ms.saturating_sub(IDEMPOTENCY_RETENTION_MS)
    }
}

/// What a claimed use case made, named in the claim's row by the transaction that commits both: a replay
/// that finds no kept response answers from it (the same key names the same resource, never a second write).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resource {
    Receipt(ReceiptId),
    /// A status change a receipt's history records (its row): the statuses it moved between are the
    /// answer's, whatever the receipt went through since.
    StatusChange(i64),
    Plan(PlanId),
    Subscription(CustomerSubscriptionId),
    /// An applied plan change, whose record keeps what it replaced.
    Change(SubscriptionChangeId),
}

impl Resource {
    /// The stored kind.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Resource::Receipt(_) => "receipt",
            Resource::StatusChange(_) => "status_change",
            Resource::Plan(_) => "plan",
            Resource::Subscription(_) => "subscription",
            Resource::Change(_) => "change",
        }
    }

    /// The stored id: the public one, or a history row's.
    pub(crate) fn id(&self) -> String {
        match self {
            Resource::Receipt(id) => id.as_str().to_owned(),
            Resource::StatusChange(row) => row.to_string(),
            Resource::Plan(id) => id.as_str().to_owned(),
            Resource::Subscription(id) => id.as_str().to_owned(),
            Resource::Change(id) => id.as_str().to_owned(),
        }
    }

    /// The resource a stored kind and id name.
    pub(crate) fn from_parts(kind: &str, id: String) -> Result<Self, String> {
        match kind {
            "receipt" => Ok(Resource::Receipt(ReceiptId::from_stored(id))),
            "status_change" => id
                .parse()
                .map(Resource::StatusChange)
                .map_err(|_| format!("status change {id} is not a row id")),
            "plan" => Ok(Resource::Plan(PlanId::from_stored(id))),
            "subscription" => Ok(Resource::Subscription(CustomerSubscriptionId::from_stored(id))),
            "change" => Ok(Resource::Change(SubscriptionChangeId::from_stored(id))),
            other => Err(format!("unknown resource kind {other}")),
        }
    }
}

/// What an earlier call under an idempotency key left, as a use case reads it before checks a replay must
/// not depend on (the state they read may have changed since that call succeeded).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EarlierCall {
    /// Its answer, kept.
    Kept(IdempotentResponse),
    /// Its transaction committed naming `resource`; its answer is not kept (yet).
    Committed {
        request_hash: String,
        resource: Resource,
    },
}

impl EarlierCall {
    /// The hash of the body the key was first used with: another one is a conflict.
    pub fn request_hash(&self) -> &str {
        match self {
            EarlierCall::Kept(kept) => &kept.request_hash,
            EarlierCall::Committed { request_hash, .. } => request_hash,
        }
    }
}

/// What a use case's transaction committed. With a claim, the transaction records the claim as committed
/// with the data and keeps no response: the caller renders [`Committed::Fresh`] and
/// [`Committed::Recovered`] and keeps the answer with [`crate::IdempotencyRepository::keep_response`].
#[derive(Debug)]
pub enum Committed<T> {
    /// This call did the work.
    Fresh(T),
    /// An earlier call with the same key and body did, and its response was kept: byte for byte.
    Replayed(IdempotentResponse),
    /// An earlier call with the same key and body did, but stopped before its response was kept: the
    /// resource its claim names, as stored now (nothing was written again).
    Recovered(T),
}

/// Why a use case's transaction wrote nothing.
#[derive(Debug)]
pub enum TxError<E> {
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
pub struct MerchantSnapshot {
    pub split: Option<StoredSplit>,
    pub shop: Option<ShopConfig>,
}

/// What a sale's decision gets.
#[derive(Debug, Clone)]
pub struct SaleInputs {
    pub merchant: MerchantSnapshot,
    /// One entry per [`SaleTx::items`] reference; `None` where the merchant has no such product.
    pub items: Vec<Option<InventoryItem>>,
}

/// What a sale's decision wants written: the receipt and the finite stock it reserves (one entry per
/// product, quantities summed over the order's lines).
#[derive(Debug, Clone)]
pub struct SalePlan {
    pub receipt: NewReceipt,
    pub reserve: Vec<StockTake>,
}

/// Decides a sale from what the transaction read.
pub type SaleDecision<S> = Box<dyn FnOnce(SaleInputs) -> Result<SalePlan, S> + Send>;

/// Why a sale wrote nothing (besides an idempotency conflict or a datastore failure).
#[derive(Debug)]
pub enum SaleRefused<S> {
    /// The service's decision refused.
    Decision(S),
    /// A receipt with the plan's id exists (of any merchant).
    IdTaken(ReceiptId),
    /// A reservation found less finite stock than the plan takes.
    OutOfStock { sku: String, available: i64 },
}

/// Creating a receipt (API receipt, order or terminal sale) as one transaction.
pub struct SaleTx<S> {
    pub wallet: Wallet,
    /// Products to load for the decision (orders only).
    pub items: Vec<ItemRef>,
    pub claim: Option<IdempotencyClaim>,
    pub decide: SaleDecision<S>,
}

/// A committed sale: the stored receipt and the merchant configuration it was decided with (the payment
/// link names the split read in the same transaction).
#[derive(Debug, Clone)]
pub struct Sale {
    pub receipt: Receipt,
    pub merchant: MerchantSnapshot,
}

impl<S> std::fmt::Debug for SaleTx<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SaleTx")
            .field("wallet", &self.wallet)
            .field("items", &self.items)
            .field("claim", &self.claim)
            .finish_non_exhaustive()
    }
}

/// What a transition's decision returns: `None` acknowledges the event and writes nothing.
pub type TransitionDecision<T> =
    Box<dyn FnOnce(&Receipt, &MerchantSnapshot) -> Result<Option<TransitionCommit>, T> + Send>;

/// Why a transition wrote nothing (besides an idempotency conflict or a datastore failure).
#[derive(Debug)]
pub enum TransitionRefused<T> {
    /// The service's decision refused.
    Decision(T),
    /// Unknown, or another merchant's (indistinguishable on purpose).
    NotFound(ReceiptId),
    /// The commit's refund names a transaction that already proves a refund (of any receipt).
    RefundTxTaken(String),
}

/// Changing a receipt's status as one transaction.
pub struct TransitionTx<T> {
    /// `None`: the payment page, by id alone.
    pub wallet: Option<Wallet>,
    pub receipt_id: ReceiptId,
    pub claim: Option<IdempotencyClaim>,
    pub decide: TransitionDecision<T>,
}

impl<T> std::fmt::Debug for TransitionTx<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TransitionTx")
            .field("wallet", &self.wallet)
            .field("receipt_id", &self.receipt_id)
            .field("claim", &self.claim)
            .finish_non_exhaustive()
    }
}

/// What a committed transition did.
#[derive(Debug, Clone)]
pub struct Transitioned {
    /// The receipt as the decision saw it.
    pub before: Receipt,
    /// `None` when the event was acknowledged and ignored.
    pub moved: Option<(ReceiptStatus, ReceiptState)>,
    /// Whether a webhook delivery was enqueued (the dispatcher is woken after commit).
    pub enqueued: bool,
}

impl Transitioned {
    /// A transition an earlier call under the same key committed, recovered from what its claim names: the
    /// statuses it moved between as the receipt's history recorded them (`None`: it acknowledged the event,
    /// or its claim names only the receipt), the receipt as stored now.
    pub(crate) fn recovered(now: Receipt, moved: Option<(ReceiptStatus, ReceiptStatus)>) -> Self {
        let moved = moved.map(|(from, to)| {
            let state = ReceiptState {
                status: to,
                paid: now.paid,
                refunded: now.refunded,
                held_by: now.status_authority,
            };
            (from, state)
        });
        Transitioned {
            before: now,
            moved,
            enqueued: false,
        }
    }
}
