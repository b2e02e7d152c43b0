//! The receipt state machine: one function decides every (state, event) pair.
//!
//! Rules, in words (the tests enumerate every pair against a literal table):
//! - Progress events (payment initiated, tracking, checkout success, tx mined, recipient validated) move
//!   forward only: before payment, to a later step of the flow, or from `failed`/`tx_mismatch` (a new
//!   attempt); a step that is not later, or that arrives after settlement, is acknowledged and ignored.
//! - `paid` needs [`PaymentProof`](crate::PaymentProof): it is the only way to build a payment-confirmed event. Any
//!   pre-payment state may become paid (money that arrived is never refused); a second confirmation of
//!   a settled receipt is ignored.
//! - Funds received (chain only): a confirmed transfer short of the total makes a pre-payment receipt
//!   `underpaid` (again on each further short transfer: the amounts changed); after payment it is a move to
//!   the same status (an overpayment, sent with its amounts).
//! - `failed` applies only before payment; after settlement it is refused.
//! - Payment reorganised (chain only): a reorganisation removed transfers the payment counted, and what is
//!   left no longer covers the total. A settled receipt becomes `failed` with nothing paid (a later payment
//!   may pay it again, as any failed receipt); before payment there is nothing to take back (ignored).
//! - Split executed: paid -> completed; reconciled: paid/completed -> reconciled.
//! - Refunds apply only to settled receipts and are bounded by what was paid, across all refunds:
//!   short of it the status is `refund_partial`, reaching it `refunded`; past it they are refused.
//! - A refund whose transaction is mined but not yet confirmed counts against what remains refundable at
//!   once (so refunds stay bounded while they wait) and makes the receipt `refund_requested`; when the
//!   chain confirms it, the status follows the amounts (`refund_partial` or `refunded`).

use thiserror::Error;

use crate::money::Cents;
use crate::receipt_authority::{Authority, AuthorityError, authorize_request};
use crate::receipt_event::ReceiptEvent;
use crate::receipt_status::ReceiptStatus;

/// What the machine needs to know about a receipt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReceiptState {
    /// Current status.
    pub status: ReceiptStatus,
    /// Amount received (zero before payment).
    pub paid: Cents,
    /// Sum of all refunds so far.
    pub refunded: Cents,
    /// The authority that set `status`; only it or a higher one may change it. A starting status is held
    /// by [`Authority::Buyer`] (anyone allowed to move the receipt on may).
    pub held_by: Authority,
}

impl ReceiptState {
    /// A new receipt in `status` with nothing paid.
    pub const fn new(status: ReceiptStatus) -> ReceiptState {
        ReceiptState {
            status,
            paid: Cents::ZERO,
            refunded: Cents::ZERO,
            held_by: Authority::Buyer,
        }
    }
}

/// The result of an accepted event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transition {
    /// The receipt changes: record history and send one webhook.
    Moved {
        /// The status before.
        from: ReceiptStatus,
        /// The new state.
        to: ReceiptState,
    },
    /// Acknowledged, nothing changes (late or repeated progress).
    Ignored {
        /// The unchanged status.
        current: ReceiptStatus,
    },
}

/// Why an event was refused; the receipt is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum TransitionError {
    /// The event needs a paid receipt.
    #[error("receipt is {status}, not paid")]
    NotPaid {
        /// Current status.
        status: ReceiptStatus,
    },
    /// The event cannot follow settlement (e.g. failing a paid receipt).
    #[error("receipt is already {status}")]
    AlreadySettled {
        /// Current status.
        status: ReceiptStatus,
    },
    /// The event does not apply in this status.
    #[error("cannot go from {from} to {to}")]
    NotAllowed {
        /// Current status.
        from: ReceiptStatus,
        /// The status the event leads to.
        to: ReceiptStatus,
    },
    /// A refund of zero or less.
    #[error("refund amount must be greater than 0")]
    NonPositiveRefund,
    /// A refund past what remains of the paid amount.
    #[error("refund of {requested} exceeds the {remaining} still refundable")]
    RefundExceedsPaid {
        /// This refund.
        requested: Cents,
        /// Paid minus refunded so far.
        remaining: Cents,
    },
    /// The actor lacks the authority for this event or this change (see [`Authority`]).
    #[error(transparent)]
    Unauthorized(#[from] AuthorityError),
}

/// Position in the pre-payment flow; `None` for states outside the forward-only ladder.
const fn flow_rank(status: ReceiptStatus) -> Option<u8> {
    match status {
        ReceiptStatus::Generated => Some(0),
        ReceiptStatus::Pending => Some(1),
        ReceiptStatus::LinkOpened => Some(2),
        ReceiptStatus::BuyerLoggedIn => Some(3),
        ReceiptStatus::CheckoutInitialized => Some(4),
        ReceiptStatus::CheckoutSuccess => Some(5),
        ReceiptStatus::TxMined => Some(6),
        ReceiptStatus::RecipientValidated => Some(7),
        // Money arrived: the buyer's page steps that follow are history, not progress.
        ReceiptStatus::Underpaid => Some(8),
        _ => None,
    }
}

/// Decides what `event` does to a receipt in `state`.
///
/// # Errors
/// A [`TransitionError`] when the event is refused; nothing about the receipt may change then.
pub fn apply_event(state: ReceiptState, event: &ReceiptEvent) -> Result<Transition, TransitionError> {
    use ReceiptStatus as S;
    let current = state.status;
    let target = event.target();
    let moved = |to: ReceiptState| Ok(Transition::Moved { from: current, to });
    let to_status = |status: ReceiptStatus| ReceiptState { status, ..state };
    let ignored = Ok(Transition::Ignored { current });
    match event {
        ReceiptEvent::PaymentInitiated
        | ReceiptEvent::Tracking(_)
        | ReceiptEvent::CheckoutSucceeded
        | ReceiptEvent::TransactionMined
        | ReceiptEvent::RecipientValidated => match (flow_rank(current), flow_rank(target)) {
            (Some(now), Some(next)) if next > now => moved(to_status(target)),
            _ if matches!(current, S::Failed | S::TxMismatch) => moved(to_status(target)),
            _ => ignored,
        },
        ReceiptEvent::TransactionMismatch => match current {
            S::TxMismatch => ignored,
            _ if current.is_settled() => ignored,
            _ => moved(to_status(target)),
        },
        ReceiptEvent::FundsReceived => match current {
            // An overpayment: the status stays, the move records the new amounts and sends them.
            _ if current.is_settled() => moved(state),
            _ => moved(to_status(target)),
        },
        ReceiptEvent::PaymentConfirmed { amount, .. } => match current {
            _ if current.is_settled() => ignored,
            _ => moved(ReceiptState {
                status: S::Paid,
                paid: *amount,
                refunded: Cents::ZERO,
                held_by: state.held_by,
            }),
        },
        ReceiptEvent::SplitExecuted => match current {
            S::Paid => moved(to_status(target)),
            S::Completed | S::Reconciled => ignored,
            _ => Err(refused(current, target)),
        },
        ReceiptEvent::Reconciled => match current {
            S::Paid | S::Completed => moved(to_status(target)),
            S::Reconciled => ignored,
            _ => Err(refused(current, target)),
        },
        ReceiptEvent::Failed(_) => match current {
            _ if current.is_settled() => Err(TransitionError::AlreadySettled { status: current }),
            // A repeated failure carries new details: it is recorded and sent.
            _ => moved(to_status(target)),
        },
        ReceiptEvent::PaymentReorged(_) => match current {
            // The money the payment counted is gone: nothing is paid any more, whatever happened since.
            _ if current.is_settled() => moved(ReceiptState {
                status: S::Failed,
                paid: Cents::ZERO,
                ..state
            }),
            _ => ignored,
        },
        ReceiptEvent::RefundRequested => match current {
            S::Paid | S::Completed | S::Reconciled | S::RefundPartial => moved(to_status(target)),
            S::RefundRequested => ignored,
            _ => Err(refused(current, target)),
        },
        ReceiptEvent::Refunded { amount } => refund(state, *amount),
        ReceiptEvent::RefundSent { amount } => refund(state, *amount).map(|moved| match moved {
            Transition::Moved { from, to } => Transition::Moved {
                from,
                to: ReceiptState {
                    status: S::RefundRequested,
                    ..to
                },
            },
            ignored @ Transition::Ignored { .. } => ignored,
        }),
        // Always a move, even to the same status: the confirmation is recorded and sent.
        ReceiptEvent::RefundConfirmed => match current {
            _ if !current.is_settled() => Err(refused(current, target)),
            _ => moved(to_status(status_by_amounts(state))),
        },
    }
}

/// Decides what `event`, asked for by `actor`, does to a receipt in `state`: [`apply_event`] with the
/// authority rules of [`Authority`]. `sets_chain_fields` says whether the request also carries chain fields
/// (`transactionHash`). A move is held by `actor` afterwards; an ignored event needs no authority over the
/// current status (it changes nothing).
///
/// # Errors
/// [`TransitionError::Unauthorized`] when `actor` may not ask for the event, may not set chain fields, or
/// would change a status a higher authority set; any other [`TransitionError`] from [`apply_event`].
pub fn apply_event_as(
    state: ReceiptState,
    event: &ReceiptEvent,
    actor: Authority,
    sets_chain_fields: bool,
) -> Result<Transition, TransitionError> {
    authorize_request(actor, event, sets_chain_fields)?;
    match apply_event(state, event)? {
        Transition::Moved { from, to } if actor.may_change_status_set_by(state.held_by) => {
            Ok(Transition::Moved {
                from,
                to: ReceiptState { held_by: actor, ..to },
            })
        }
        Transition::Moved { from, .. } => Err(AuthorityError::Outranked {
            status: from,
            holder: state.held_by,
            actor,
        }
        .into()),
        ignored @ Transition::Ignored { .. } => Ok(ignored),
    }
}

fn refused(current: ReceiptStatus, target: ReceiptStatus) -> TransitionError {
    if current.is_settled() {
        TransitionError::NotAllowed {
            from: current,
            to: target,
        }
    } else {
        TransitionError::NotPaid { status: current }
    }
}

fn refund(state: ReceiptState, amount: Cents) -> Result<Transition, TransitionError> {
    if !state.status.is_settled() {
        return Err(TransitionError::NotPaid { status: state.status });
    }
    if amount <= Cents::ZERO {
        return Err(TransitionError::NonPositiveRefund);
    }
    let remaining = Cents::new(state.paid.as_i64().saturating_sub(state.refunded.as_i64()));
    if amount > remaining {
        return Err(TransitionError::RefundExceedsPaid {
            requested: amount,
            remaining,
        });
    }
    let refunded = Cents::new(state.refunded.as_i64() + amount.as_i64());
    let after = ReceiptState { refunded, ..state };
    Ok(Transition::Moved {
        from: state.status,
        to: ReceiptState {
            status: status_by_amounts(after),
            ..after
        },
    })
}

/// The refund status the amounts say: all of it refunded, part of it, or (nothing refunded) the status
/// as it is.
fn status_by_amounts(state: ReceiptState) -> ReceiptStatus {
    if state.refunded == state.paid {
        ReceiptStatus::Refunded
    } else if state.refunded > Cents::ZERO {
        ReceiptStatus::RefundPartial
    } else {
        state.status
    }
}

#[cfg(test)]
#[path = "receipt_transition_tests.rs"]
mod tests;
