//! What the receipt, webhook and idempotency operations of [`super::Store`] take and give.

use payments_core::{Cents, Failure, LineItem, ReceiptState, ReceiptStatus, Wallet};

use crate::domain::page_cursor::ReceiptKey;
use crate::domain::receipt::{DeliveryId, Receipt, ReceiptId};
use crate::domain::recurring::{CustomerSubscriptionId, PlanId};

/// One page of a merchant's receipts, newest first.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ReceiptPage {
    pub(crate) receipts: Vec<Receipt>,
    /// Where the next page starts; `None` when this page is the last.
    pub(crate) next: Option<ReceiptKey>,
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
pub(crate) struct ReceiptFilter {
    /// `Some(true)`: only receipts paid after their payment window ended (`paidLate=true`); `Some(false)`:
    /// only the others; `None`: all.
    pub(crate) paid_late: Option<bool>,
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
pub(crate) struct NewDelivery {
    pub(crate) id: DeliveryId,
    pub(crate) url: String,
    /// The URL's origin: deliveries to one endpoint share its concurrency limit.
    pub(crate) endpoint: String,
    pub(crate) event: &'static str,
    pub(crate) body: Vec<u8>,
}

/// A refund recorded with its transition.
#[derive(Debug, Clone)]
pub(crate) struct NewRefund {
    pub(crate) buyer: Wallet,
    pub(crate) amount: Cents,
    pub(crate) items: Vec<LineItem>,
    pub(crate) tx_hash: String,
}

/// Finite stock an order reserves when it is created: product id and quantity (summed over its lines).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StockTake {
    pub(crate) item_id: String,
    pub(crate) qty: u32,
}

/// An accepted transition, committed with its history row, outbox row and refund row in one transaction.
#[derive(Debug, Clone)]
pub(crate) struct TransitionCommit {
    pub(crate) receipt_id: ReceiptId,
    pub(crate) wallet: Wallet,
    pub(crate) expected_version: i64,
    pub(crate) from: ReceiptStatus,
    pub(crate) to: ReceiptState,
    /// Replaces the stored hash when `Some`.
    pub(crate) transaction_hash: Option<String>,
    pub(crate) buyer_wallet: Option<Wallet>,
    /// Set on `failed`; any other status clears the stored failure.
    pub(crate) failure: Option<Failure>,
    /// Who caused it (`key:<subscription>`, `admin:<wallet>`, `portal`), for the history.
    pub(crate) actor: String,
    pub(crate) now_ms: i64,
    pub(crate) delivery: Option<NewDelivery>,
    pub(crate) refund: Option<NewRefund>,
    /// The payment window ended unpaid: mark the receipt expired and give back the stock it holds.
    pub(crate) expires: bool,
    /// A payment: take again what an expiry gave back (marking the receipt `stock_short` where too little
    /// remains). Nothing happens for a receipt that still holds its stock.
    pub(crate) retakes_stock: bool,
    /// Stored as the receipt's `paid_late`.
    pub(crate) paid_late: bool,
}

/// What a dispatcher asks the outbox for: due deliveries, leased until `lease_until_ms`, at most `limit`,
/// and per endpoint at most `per_endpoint` minus what it already has in flight there (`busy`).
#[derive(Debug, Clone)]
pub(crate) struct Claim {
    pub(crate) now_ms: i64,
    pub(crate) lease_until_ms: i64,
    pub(crate) limit: u32,
    pub(crate) per_endpoint: u32,
    /// Endpoints with attempts in flight, and how many.
    pub(crate) busy: Vec<(String, u32)>,
}

#[cfg(test)]
impl Claim {
    /// A claim with no per-endpoint limit.
    pub(crate) fn new(now_ms: i64, lease_until_ms: i64, limit: u32) -> Self {
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
pub(crate) enum DeliveryOwner {
    /// A receipt's status change, signed with the key that created the receipt.
    Receipt(ReceiptId),
    /// A customer subscription's change, signed with the key that set its plan's webhook target.
    Subscription {
        subscription: CustomerSubscriptionId,
        plan: PlanId,
    },
}

impl DeliveryOwner {
    /// What the owner's sealed signing key is bound to (see [`crate::master_key::MasterKey::seal`]).
    pub(crate) fn signing_context(&self) -> String {
        match self {
            DeliveryOwner::Receipt(receipt) => receipt.as_str().to_owned(),
            DeliveryOwner::Subscription { plan, .. } => plan.signing_context(),
        }
    }
}

/// A delivery the dispatcher should attempt now.
#[derive(Debug, Clone)]
pub(crate) struct DueDelivery {
    pub(crate) rowid: i64,
    pub(crate) id: DeliveryId,
    pub(crate) owner: DeliveryOwner,
    pub(crate) url: String,
    /// The URL's origin, for the per-endpoint limit.
    pub(crate) endpoint: String,
    pub(crate) event: String,
    pub(crate) body: Vec<u8>,
    /// The owner's sealed key: the receipt's, or the subscription's plan's (read at claim time).
    pub(crate) sealed_signing_key: Option<Vec<u8>>,
    /// 1-based number of this attempt over the delivery's life.
    pub(crate) attempt: i64,
    /// 1-based number of this attempt since the delivery was (re)enqueued.
    pub(crate) round_attempt: u32,
}

#[cfg(test)]
impl DueDelivery {
    /// The receipt of a receipt's delivery; `None` for a subscription's.
    pub(crate) fn receipt(&self) -> Option<&ReceiptId> {
        match &self.owner {
            DeliveryOwner::Receipt(receipt) => Some(receipt),
            DeliveryOwner::Subscription { .. } => None,
        }
    }
}

/// Where a delivery goes after an attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DeliveryNext {
    Delivered,
    RetryAt(i64),
    Failed,
}

/// The outbox at one moment (the metrics' queue depth).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct OutboxDepth {
    /// Deliveries neither delivered nor given up: due, scheduled for a retry, or in flight.
    pub(crate) pending: u64,
    /// Deliveries whose attempt is running (leased) now.
    pub(crate) in_flight: u64,
}

/// One finished attempt.
#[derive(Debug, Clone)]
pub(crate) struct AttemptRecord {
    pub(crate) delivery_rowid: i64,
    pub(crate) attempt: i64,
    pub(crate) status_code: Option<u16>,
    pub(crate) error: Option<String>,
    pub(crate) started_at: i64,
    pub(crate) finished_at: i64,
    pub(crate) duration_ms: i64,
    pub(crate) next: DeliveryNext,
}

/// A delivery and its attempts, for the delivery log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DeliveryLog {
    pub(crate) id: DeliveryId,
    pub(crate) event: String,
    pub(crate) url: String,
    pub(crate) state: String,
    pub(crate) next_attempt_at: Option<i64>,
    pub(crate) created_at: i64,
    pub(crate) attempts: Vec<AttemptLog>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AttemptLog {
    pub(crate) attempt: i64,
    pub(crate) status_code: Option<u16>,
    pub(crate) error: Option<String>,
    pub(crate) started_at: i64,
    pub(crate) finished_at: i64,
    pub(crate) duration_ms: i64,
}

/// A stored response for an idempotency key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct IdempotentResponse {
    pub(crate) request_hash: String,
    pub(crate) status: u16,
    pub(crate) body: Vec<u8>,
}
