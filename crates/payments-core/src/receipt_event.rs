//! What happens to a receipt: the events the state machine (`receipt_transition.rs`) decides, the proof a
//! payment carries, and the tracking statuses a buyer's page may post.

use crate::money::Cents;
use crate::receipt_status::{Failure, ReceiptStatus};
use crate::wallet::Wallet;

/// Evidence that a receipt was paid.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PaymentProof {
    /// A transfer the server verified on chain.
    OnChain {
        /// The verified transaction.
        transaction_hash: String,
        /// The paying wallet.
        buyer: Option<Wallet>,
    },
    /// An admin, signed in with a session, attested the payment.
    AdminAttestation {
        /// The admin's wallet.
        admin: Wallet,
        /// A transaction hash the admin supplied, if any.
        transaction_hash: Option<String>,
    },
}

/// The tracking statuses a buyer's page may post with a subscription key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum TrackingStatus {
    /// `link_opened`.
    LinkOpened,
    /// `buyer_logged_in`.
    BuyerLoggedIn,
    /// `checkout_initialized`.
    CheckoutInitialized,
}

/// Something that happens to a receipt.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReceiptEvent {
    /// Payment initiated -> `pending`.
    PaymentInitiated,
    /// A tracking status.
    Tracking(TrackingStatus),
    /// The buyer submitted payment -> `checkout_success`.
    CheckoutSucceeded,
    /// A payment transaction was mined -> `tx_mined`.
    TransactionMined,
    /// The transaction pays the right recipient -> `recipient_validated`.
    RecipientValidated,
    /// A transaction that does not match -> `tx_mismatch`.
    TransactionMismatch,
    /// Confirmed transfers changed what the deposit holds without paying the receipt now: short of the
    /// total before payment -> `underpaid`; more money after payment (an overpayment) -> the same status,
    /// with new amounts. The chain alone reports it.
    FundsReceived,
    /// Payment confirmed, with proof and the amount received -> `paid`.
    PaymentConfirmed {
        /// The evidence.
        proof: PaymentProof,
        /// What was received.
        amount: Cents,
    },
    /// The split executed -> `completed`.
    SplitExecuted,
    /// Funds reconciled -> `reconciled`.
    Reconciled,
    /// The attempt failed -> `failed`.
    Failed(Failure),
    /// A reorganisation removed transfers a settled receipt's payment counted, and what is left does not
    /// cover the total -> `failed` with nothing paid. The chain alone reports it.
    PaymentReorged(Failure),
    /// A refund was requested -> `refund_requested`.
    RefundRequested,
    /// An amount was refunded -> `refund_partial` or `refunded`.
    Refunded {
        /// The amount of this refund.
        amount: Cents,
    },
    /// A refund's transaction is mined but not yet confirmed -> `refund_requested`; the amount counts
    /// against what remains refundable from now on.
    RefundSent {
        /// The amount of this refund.
        amount: Cents,
    },
    /// The chain confirmed a refund recorded by [`ReceiptEvent::RefundSent`] -> `refund_partial` or
    /// `refunded`, by the amounts.
    RefundConfirmed,
}

impl ReceiptEvent {
    /// The status this event leads to when accepted (refunds: the full-refund status).
    pub const fn target(&self) -> ReceiptStatus {
        match self {
            ReceiptEvent::PaymentInitiated => ReceiptStatus::Pending,
            ReceiptEvent::Tracking(TrackingStatus::LinkOpened) => ReceiptStatus::LinkOpened,
            ReceiptEvent::Tracking(TrackingStatus::BuyerLoggedIn) => ReceiptStatus::BuyerLoggedIn,
            ReceiptEvent::Tracking(TrackingStatus::CheckoutInitialized) => ReceiptStatus::CheckoutInitialized,
            ReceiptEvent::CheckoutSucceeded => ReceiptStatus::CheckoutSuccess,
            ReceiptEvent::TransactionMined => ReceiptStatus::TxMined,
            ReceiptEvent::RecipientValidated => ReceiptStatus::RecipientValidated,
            ReceiptEvent::TransactionMismatch => ReceiptStatus::TxMismatch,
            ReceiptEvent::FundsReceived => ReceiptStatus::Underpaid,
            ReceiptEvent::PaymentConfirmed { .. } => ReceiptStatus::Paid,
            ReceiptEvent::SplitExecuted => ReceiptStatus::Completed,
            ReceiptEvent::Reconciled => ReceiptStatus::Reconciled,
            ReceiptEvent::Failed(_) | ReceiptEvent::PaymentReorged(_) => ReceiptStatus::Failed,
            ReceiptEvent::RefundRequested => ReceiptStatus::RefundRequested,
            ReceiptEvent::Refunded { .. } | ReceiptEvent::RefundConfirmed => ReceiptStatus::Refunded,
            ReceiptEvent::RefundSent { .. } => ReceiptStatus::RefundRequested,
        }
    }
}
