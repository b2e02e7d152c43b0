//! What the receipt, webhook and idempotency operations of the repositories take and give.

use payments_core::{Cents, Failure, LineItem, ReceiptState, ReceiptStatus, TokenAmount, Wallet};

use crate::MerchantEvent;

use payments_domain::page_cursor::ReceiptKey;
use payments_domain::receipt::{DeliveryId, Receipt, ReceiptId};
use payments_domain::recurring::{CustomerSubscriptionId, PlanId};
use payments_domain::webhook_endpoint::{EndpointId, EventId};

/// One page of a merchant's receipts, newest first.
#[derive(Debug, Clone, PartialEq)]
pub struct ReceiptPage {
    pub receipts: Vec<Receipt>,
    /// Where the next page starts; `None` when this page is the last.
    pub next: Option<ReceiptKey>,
}

impl ReceiptPage {
    /// The page of `limit` receipts from rows read with their row ids, newest first, one more than
    /// `limit` when another page follows.
    pub(crate) fn of_rows(mut rows: Vec<(Receipt, i64)>, limit: u32) -> Self {
        let limit = usize::try_from(limit).unwrap_or(usize::MAX);
        let more = rows.len() > limit;
        rows.truncate(limit);
        let next = rows.last().filter(|_| more).map(|(receipt, row_id)| ReceiptKey {
            created_at: receipt.created_at,
            row_id: *row_id,
        });
        ReceiptPage {
            receipts: rows.into_iter().map(|(receipt, _)| receipt).collect(),
            next,
        }
    }
}

/// Which of a merchant's receipts a list returns.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReceiptFilter {
    /// `Some(true)`: only receipts paid after their payment window ended (`paidLate=true`); `Some(false)`:
    /// only the others; `None`: all.
    pub paid_late: Option<bool>,
}

/// What creating a receipt did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CreateReceiptOutcome {
    Created,
    /// A receipt with this id exists (of any merchant); nothing was written.
    IdTaken,
}

/// A webhook to enqueue with a transition: the exact bytes every attempt will send.
#[derive(Debug, Clone)]
pub struct NewDelivery {
    pub id: DeliveryId,
    pub url: String,
    /// The URL's origin: deliveries to one endpoint share its concurrency limit.
    pub endpoint: String,
    pub event: &'static str,
    pub body: Vec<u8>,
}

/// A refund recorded with its transition. Its transaction was verified on chain: one transaction proves one
/// refund (a hash already recorded refuses the transition with `TransitionRefused::RefundTxTaken`).
#[derive(Debug, Clone)]
pub struct NewRefund {
    pub buyer: Wallet,
    pub amount: Cents,
    pub items: Vec<LineItem>,
    /// Lowercase `0x` + 64 hex digits.
    pub tx_hash: String,
    /// The block the transaction was mined in.
    pub block_number: u64,
    /// Whether it had its confirmations when recorded; else the refund waits (see [`PendingRefund`]).
    pub confirmed: bool,
}

/// A recorded refund whose transaction has not had its confirmations yet (any merchant's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingRefund {
    pub wallet: Wallet,
    pub receipt_id: ReceiptId,
    pub tx_hash: String,
    pub block_number: u64,
    pub amount: Cents,
}

/// Finite stock an order reserves when it is created: product id and quantity (summed over its lines).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StockTake {
    pub item_id: String,
    pub qty: u32,
}

/// An accepted transition, committed with its history row, outbox row and refund row in one transaction.
#[derive(Debug, Clone)]
pub struct TransitionCommit {
    pub receipt_id: ReceiptId,
    pub wallet: Wallet,
    pub expected_version: i64,
    pub from: ReceiptStatus,
    pub to: ReceiptState,
    /// Replaces the stored hash when `Some`.
    pub transaction_hash: Option<String>,
    pub buyer_wallet: Option<Wallet>,
    /// Set on `failed`; any other status clears the stored failure.
    pub failure: Option<Failure>,
    /// Who caused it (`key:<subscription>`, `admin:<wallet>`, `portal`), for the history.
    pub actor: String,
    pub now_ms: i64,
    pub delivery: Option<NewDelivery>,
    /// The change as the merchant's webhook endpoints hear of it (recorded whether or not `delivery` is).
    pub event: MerchantEvent,
    pub refund: Option<NewRefund>,
    /// Marks this receipt's pending refund with this transaction hash confirmed.
    pub confirms_refund: Option<String>,
    /// The payment window ended unpaid: mark the receipt expired and give back the stock it holds.
    pub expires: bool,
    /// A payment: take again what an expiry gave back (marking the receipt `stock_short` where too little
    /// remains). Nothing happens for a receipt that still holds its stock.
    pub retakes_stock: bool,
    /// Stored as the receipt's `paid_late`.
    pub paid_late: bool,
    /// Stored as the receipt's `received_units`: what its deposit holds once this change is recorded.
    pub received: TokenAmount,
}

/// What a dispatcher asks the outbox for: due deliveries, leased until `lease_until_ms`, at most `limit`,
/// and per endpoint at most `per_endpoint` minus what it already has in flight there (`busy`).
#[derive(Debug, Clone)]
pub struct Claim {
    pub now_ms: i64,
    pub lease_until_ms: i64,
    pub limit: u32,
    pub per_endpoint: u32,
    /// Endpoints with attempts in flight, and how many.
    pub busy: Vec<(String, u32)>,
}

#[cfg(any(test, feature = "testing"))]
impl Claim {
    /// A claim with no per-endpoint limit.
    pub fn new(now_ms: i64, lease_until_ms: i64, limit: u32) -> Self {
        Claim {
            now_ms,
            lease_until_ms,
            limit,
            per_endpoint: u32::MAX,
            busy: Vec::new(),
        }
    }
}

/// The stored row a new outbox delivery belongs to (the backends' one delivery insert takes it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OwnerRow {
    /// The `receipts` row.
    Receipt(i64),
    /// The `customer_subscriptions` row.
    Subscription(i64),
}

impl OwnerRow {
    /// `(receipt_id, subscription_id)`: exactly one is set, as the table's CHECK requires.
    pub(crate) fn columns(self) -> (Option<i64>, Option<i64>) {
        match self {
            OwnerRow::Receipt(row) => (Some(row), None),
            OwnerRow::Subscription(row) => (None, Some(row)),
        }
    }
}

/// What a delivery belongs to, and so which stored key signs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeliveryOwner {
    /// A receipt's status change, signed with the key that created the receipt.
    Receipt(ReceiptId),
    /// A customer subscription's change, signed with the key that set its plan's webhook target.
    Subscription {
        subscription: CustomerSubscriptionId,
        plan: PlanId,
    },
    /// A merchant's webhook endpoint receiving `event`, signed with the endpoint's own secret.
    Endpoint { endpoint: EndpointId, event: EventId },
}

impl DeliveryOwner {
    /// What the owner's sealed signing key is bound to (the server seals it under this context).
    pub fn signing_context(&self) -> String {
        match self {
            DeliveryOwner::Receipt(receipt) => receipt.as_str().to_owned(),
            DeliveryOwner::Subscription { plan, .. } => plan.signing_context(),
            DeliveryOwner::Endpoint { endpoint, .. } => endpoint.as_str().to_owned(),
        }
    }
}

/// A delivery the dispatcher should attempt now.
#[derive(Debug, Clone)]
pub struct DueDelivery {
    pub rowid: i64,
    pub id: DeliveryId,
    pub owner: DeliveryOwner,
    pub url: String,
    /// The URL's origin, for the per-endpoint limit.
    pub endpoint: String,
    pub event: String,
    pub body: Vec<u8>,
    /// The owner's sealed key: the receipt's, the subscription's plan's, or the endpoint's secret (read at
    /// claim time).
    pub sealed_signing_key: Option<Vec<u8>>,
    /// An endpoint's previous secret while it still signs (the 24 h after a rotation; check `until_ms`).
    pub previous_signing_key: Option<PreviousKey>,
    /// 1-based number of this attempt over the delivery's life.
    pub attempt: i64,
    /// 1-based number of this attempt since the delivery was (re)enqueued.
    pub round_attempt: u32,
}

#[cfg(any(test, feature = "testing"))]
impl DueDelivery {
    /// The receipt of a receipt's delivery; `None` for a subscription's.
    pub fn receipt(&self) -> Option<&ReceiptId> {
        match &self.owner {
            DeliveryOwner::Receipt(receipt) => Some(receipt),
            DeliveryOwner::Subscription { .. } | DeliveryOwner::Endpoint { .. } => None,
        }
    }
}

/// An endpoint's previous sealed secret and until when it signs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreviousKey {
    pub sealed: Vec<u8>,
    pub until_ms: i64,
}

/// Where a delivery goes after an attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeliveryNext {
    Delivered,
    RetryAt(i64),
    Failed,
}

/// The outbox at one moment (the metrics' queue depth).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutboxDepth {
    /// Deliveries neither delivered nor given up: due, scheduled for a retry, or in flight.
    pub pending: u64,
    /// Deliveries whose attempt is running (leased) now.
    pub in_flight: u64,
}

/// One finished attempt.
#[derive(Debug, Clone)]
pub struct AttemptRecord {
    pub delivery_rowid: i64,
    pub attempt: i64,
    pub status_code: Option<u16>,
    pub error: Option<String>,
    pub started_at: i64,
    pub finished_at: i64,
    pub duration_ms: i64,
    pub next: DeliveryNext,
}

/// A delivery and its attempts, for the delivery log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliveryLog {
    pub id: DeliveryId,
    /// The subscription a plan's delivery is about; `None` for a receipt's.
    pub subscription_id: Option<payments_domain::recurring::CustomerSubscriptionId>,
    pub event: String,
    pub url: String,
    pub state: String,
    pub next_attempt_at: Option<i64>,
    pub created_at: i64,
    pub attempts: Vec<AttemptLog>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttemptLog {
    pub attempt: i64,
    pub status_code: Option<u16>,
    pub error: Option<String>,
    pub started_at: i64,
    pub finished_at: i64,
    pub duration_ms: i64,
}

/// A stored response for an idempotency key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdempotentResponse {
    pub request_hash: String,
    pub status: u16,
    pub body: Vec<u8>,
}
