//! Who may change a receipt: every change is asked for by an [`Authority`], and a status set by one
//! authority can be changed only by the same or a higher one.
//!
//! The rules, in words (the tests check every cell of the tables in `docs/receipts.md`):
//! - Each event needs a least authority ([`ReceiptEvent::required_authority`]): the buyer's page may only
//!   report that it was opened; a subscription key may report the buyer's progress (`pending`, tracking
//!   statuses, `failed`); payment evidence, settlement and refunds need an admin session or the chain.
//! - The receipt remembers which authority set its current status (`ReceiptState::held_by`). A *change*
//!   needs an actor ranked at least as high as that holder, so a key cannot fail, reopen or clear what an
//!   admin or the chain decided. An event that changes nothing (late tracking after payment) is
//!   acknowledged whoever sends it.
//! - Chain fields (`transactionHash`, the paying wallet) are the chain's or an admin's word: lower
//!   authorities may not set them, whatever the status.
//! - An admin and the chain rank the same: an admin answers for what the chain cannot see (refunds, and an
//!   attested payment in test mode), and the state machine already keeps settled receipts from moving back.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::receipt_event::{PaymentProof, ReceiptEvent, TrackingStatus};
use crate::receipt_status::ReceiptStatus;

/// Who asks for a receipt change, from least to most trusted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Authority {
    /// The buyer, anonymously, through the payment page's button (the link is the only credential).
    Buyer,
    /// A merchant's subscription key with `receipts:write`.
    MerchantKey,
    /// An admin session (merchant or platform admin) with its CSRF token.
    Admin,
    /// The server's own verification of a transfer on chain.
    Chain,
}

impl Authority {
    /// Every authority, least trusted first.
    pub const ALL: [Authority; 4] = [
        Authority::Buyer,
        Authority::MerchantKey,
        Authority::Admin,
        Authority::Chain,
    ];

    /// The stored name (`buyer`, `key`, `admin`, `chain`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Authority::Buyer => "buyer",
            Authority::MerchantKey => "key",
            Authority::Admin => "admin",
            Authority::Chain => "chain",
        }
    }

    /// Position in the order of trust; an admin and the chain share the top.
    pub const fn rank(self) -> u8 {
        match self {
            Authority::Buyer => 0,
            Authority::MerchantKey => 1,
            Authority::Admin | Authority::Chain => 2,
        }
    }

    /// Whether this authority may change a status that `holder` set.
    pub const fn may_change_status_set_by(self, holder: Authority) -> bool {
        self.rank() >= holder.rank()
    }

    /// Whether this authority may set chain fields (`transactionHash`, the buyer's wallet).
    pub const fn may_set_chain_fields(self) -> bool {
        self.rank() >= Authority::Admin.rank()
    }

    /// Whether this authority may ask for `event` at all. What only the chain can prove (an on-chain
    /// payment) is the chain's alone, though an admin ranks the same.
    pub const fn may_request(self, event: &ReceiptEvent) -> bool {
        match event.required_authority() {
            Authority::Chain => matches!(self, Authority::Chain),
            required => self.rank() >= required.rank(),
        }
    }

    /// Who it is, for messages.
    const fn described(self) -> &'static str {
        match self {
            Authority::Buyer => "the buyer's page",
            Authority::MerchantKey => "a subscription key",
            Authority::Admin => "an admin",
            Authority::Chain => "the chain",
        }
    }
}

impl fmt::Display for Authority {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.described())
    }
}

/// An unknown stored authority name.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown authority '{0}'")]
pub struct UnknownAuthority(pub String);

impl FromStr for Authority {
    type Err = UnknownAuthority;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Authority::ALL
            .into_iter()
            .find(|authority| authority.as_str() == text)
            .ok_or_else(|| UnknownAuthority(text.chars().take(32).collect()))
    }
}

impl ReceiptEvent {
    /// The least authority that may ask for this event.
    pub const fn required_authority(&self) -> Authority {
        match self {
            // The buyer's own steps on the payment page: opening it, connecting a wallet, pressing Pay.
            ReceiptEvent::Tracking(
                TrackingStatus::LinkOpened
                | TrackingStatus::BuyerLoggedIn
                | TrackingStatus::CheckoutInitialized,
            ) => Authority::Buyer,
            ReceiptEvent::PaymentInitiated | ReceiptEvent::Failed(_) => Authority::MerchantKey,
            ReceiptEvent::PaymentConfirmed {
                proof: PaymentProof::OnChain { .. },
                ..
            }
            | ReceiptEvent::FundsReceived
            | ReceiptEvent::RefundConfirmed
            | ReceiptEvent::PaymentReorged(_) => Authority::Chain,
            ReceiptEvent::CheckoutSucceeded
            | ReceiptEvent::TransactionMined
            | ReceiptEvent::RecipientValidated
            | ReceiptEvent::TransactionMismatch
            | ReceiptEvent::PaymentConfirmed {
                proof: PaymentProof::AdminAttestation { .. },
                ..
            }
            | ReceiptEvent::SplitExecuted
            | ReceiptEvent::Reconciled
            | ReceiptEvent::RefundRequested
            | ReceiptEvent::Refunded { .. }
            | ReceiptEvent::RefundSent { .. } => Authority::Admin,
        }
    }
}

impl ReceiptStatus {
    /// The least authority that may post this status through `POST /api/receipts/status`; `None` when no
    /// one may (`generated` is only a starting state; refund results come from the refund route, which
    /// carries the amount). `paid` needs proof, which only an admin's attestation or the chain gives.
    pub const fn required_to_post(self) -> Option<Authority> {
        match self {
            ReceiptStatus::LinkOpened => Some(Authority::Buyer),
            ReceiptStatus::Pending
            | ReceiptStatus::BuyerLoggedIn
            | ReceiptStatus::CheckoutInitialized
            | ReceiptStatus::Failed => Some(Authority::MerchantKey),
            ReceiptStatus::CheckoutSuccess
            | ReceiptStatus::TxMined
            | ReceiptStatus::RecipientValidated
            | ReceiptStatus::TxMismatch
            | ReceiptStatus::Paid
            | ReceiptStatus::Completed
            | ReceiptStatus::Reconciled
            | ReceiptStatus::RefundRequested => Some(Authority::Admin),
            // `underpaid` carries amounts only the chain knows.
            ReceiptStatus::Generated
            | ReceiptStatus::Underpaid
            | ReceiptStatus::RefundPartial
            | ReceiptStatus::Refunded => None,
        }
    }
}

/// Why an authority was refused; the receipt is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum AuthorityError {
    /// The actor may not ask for this event at all.
    #[error("{actor} may not post {status}; it needs {required}")]
    CannotRequest {
        /// Who asked.
        actor: Authority,
        /// The status the event leads to.
        status: ReceiptStatus,
        /// The least authority that may.
        required: Authority,
    },
    /// The current status was set by a higher authority.
    #[error("{status} was set by {holder}; {actor} cannot change it")]
    Outranked {
        /// The current status.
        status: ReceiptStatus,
        /// Who set it.
        holder: Authority,
        /// Who asked.
        actor: Authority,
    },
    /// Chain fields from an authority that may not set them.
    #[error("{actor} may not set transactionHash or other chain fields")]
    ChainFields {
        /// Who asked.
        actor: Authority,
    },
}

/// Checks, before looking at the receipt, that `actor` may ask for `event` (carrying chain fields or not).
///
/// # Errors
/// [`AuthorityError::ChainFields`] or [`AuthorityError::CannotRequest`].
pub fn authorize_request(
    actor: Authority,
    event: &ReceiptEvent,
    sets_chain_fields: bool,
) -> Result<(), AuthorityError> {
    if sets_chain_fields && !actor.may_set_chain_fields() {
        return Err(AuthorityError::ChainFields { actor });
    }
    if !actor.may_request(event) {
        return Err(AuthorityError::CannotRequest {
            actor,
            status: event.target(),
            required: event.required_authority(),
        });
    }
    Ok(())
}

#[cfg(test)]
#[path = "receipt_authority_tests.rs"]
mod tests;
