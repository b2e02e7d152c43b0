use super::*;
use crate::receipt_event::{PaymentProof, TrackingStatus};
use crate::receipt_status::{Failure, FailureCategory};
use crate::wallet::Wallet;

fn wallet() -> Wallet {
    Wallet::parse("0x00000000000000000000000000000000000000aa").unwrap()
}

fn failure() -> Failure {
    Failure::new(
        "PORTAL_PAY_INSUFFICIENT_FUNDS".into(),
        FailureCategory::CardDecline,
        "insufficient funds".into(),
        "use another card".into(),
    )
    .unwrap()
}

/// One event of each kind, in the column order of [`EXPECTED`].
fn events() -> Vec<ReceiptEvent> {
    vec![
        ReceiptEvent::PaymentInitiated,
        ReceiptEvent::Tracking(TrackingStatus::LinkOpened),
        ReceiptEvent::Tracking(TrackingStatus::BuyerLoggedIn),
        ReceiptEvent::Tracking(TrackingStatus::CheckoutInitialized),
        ReceiptEvent::CheckoutSucceeded,
        ReceiptEvent::TransactionMined,
        ReceiptEvent::RecipientValidated,
        ReceiptEvent::TransactionMismatch,
        ReceiptEvent::FundsReceived,
        ReceiptEvent::PaymentConfirmed {
            proof: PaymentProof::AdminAttestation {
                admin: wallet(),
                transaction_hash: None,
            },
            amount: Cents::new(1000),
        },
        ReceiptEvent::SplitExecuted,
        ReceiptEvent::Reconciled,
        ReceiptEvent::Failed(failure()),
        ReceiptEvent::PaymentReorged(failure()),
        ReceiptEvent::RefundRequested,
        ReceiptEvent::Refunded {
            amount: Cents::new(100),
        },
        ReceiptEvent::RefundSent {
            amount: Cents::new(100),
        },
        ReceiptEvent::RefundConfirmed,
    ]
}

/// Rows: every status (paid 10.00; refund_partial has 4.00 refunded, refunded all of it).
/// Columns: the events above (the last two: a refund sent but unconfirmed, then its confirmation).
/// A status name = moved there, `-` = ignored, `x` = refused.
const EXPECTED: &str = "
generated            pending link_opened buyer_logged_in checkout_initialized checkout_success tx_mined recipient_validated tx_mismatch underpaid paid x x failed - x x x x
pending              - link_opened buyer_logged_in checkout_initialized checkout_success tx_mined recipient_validated tx_mismatch underpaid paid x x failed - x x x x
link_opened          - - buyer_logged_in checkout_initialized checkout_success tx_mined recipient_validated tx_mismatch underpaid paid x x failed - x x x x
buyer_logged_in      - - - checkout_initialized checkout_success tx_mined recipient_validated tx_mismatch underpaid paid x x failed - x x x x
checkout_initialized - - - - checkout_success tx_mined recipient_validated tx_mismatch underpaid paid x x failed - x x x x
checkout_success     - - - - - tx_mined recipient_validated tx_mismatch underpaid paid x x failed - x x x x
tx_mined             - - - - - - recipient_validated tx_mismatch underpaid paid x x failed - x x x x
recipient_validated  - - - - - - - tx_mismatch underpaid paid x x failed - x x x x
tx_mismatch          pending link_opened buyer_logged_in checkout_initialized checkout_success tx_mined recipient_validated - underpaid paid x x failed - x x x x
underpaid            - - - - - - - tx_mismatch underpaid paid x x failed - x x x x
paid                 - - - - - - - - paid - completed reconciled x failed refund_requested refund_partial refund_requested paid
completed            - - - - - - - - completed - - reconciled x failed refund_requested refund_partial refund_requested completed
reconciled           - - - - - - - - reconciled - - - x failed refund_requested refund_partial refund_requested reconciled
failed               pending link_opened buyer_logged_in checkout_initialized checkout_success tx_mined recipient_validated tx_mismatch underpaid paid x x failed - x x x x
refund_requested     - - - - - - - - refund_requested - x x x failed - refund_partial refund_requested refund_requested
refund_partial       - - - - - - - - refund_partial - x x x failed refund_requested refund_partial refund_requested refund_partial
refunded             - - - - - - - - refunded - x x x failed x x x refunded
";

fn state_of(status: ReceiptStatus) -> ReceiptState {
    let paid = if status.is_settled() {
        Cents::new(1000)
    } else {
        Cents::ZERO
    };
    let refunded = match status {
        ReceiptStatus::RefundPartial => Cents::new(400),
        ReceiptStatus::Refunded => Cents::new(1000),
        _ => Cents::ZERO,
    };
    ReceiptState {
        status,
        paid,
        refunded,
        held_by: Authority::Buyer,
    }
}

#[test]
fn every_state_and_event_pair_matches_the_table() {
    let rows: Vec<Vec<&str>> = EXPECTED
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), ReceiptStatus::ALL.len(), "one row per status");
    let events = events();
    for row in rows {
        let status: ReceiptStatus = row[0].parse().unwrap();
        assert_eq!(row.len() - 1, events.len(), "row {status} has one cell per event");
        for (event, expected) in events.iter().zip(&row[1..]) {
            let outcome = apply_event(state_of(status), event);
            let actual = match &outcome {
                Ok(Transition::Moved { to, .. }) => to.status.as_str(),
                Ok(Transition::Ignored { current }) => {
                    assert_eq!(*current, status);
                    "-"
                }
                Err(_) => "x",
            };
            assert_eq!(actual, *expected, "{status} + {event:?} gave {outcome:?}");
        }
    }
}

#[test]
fn a_tracking_status_after_payment_is_ignored_never_a_downgrade() {
    let outcome = apply_event(
        state_of(ReceiptStatus::Paid),
        &ReceiptEvent::Tracking(TrackingStatus::LinkOpened),
    );
    assert_eq!(
        outcome,
        Ok(Transition::Ignored {
            current: ReceiptStatus::Paid
        })
    );
}

#[test]
fn paying_records_the_amount_received() {
    let event = ReceiptEvent::PaymentConfirmed {
        proof: PaymentProof::OnChain {
            transaction_hash: "0xabc".into(),
            buyer: Some(wallet()),
        },
        amount: Cents::new(2608),
    };
    let outcome = apply_event(ReceiptState::new(ReceiptStatus::CheckoutInitialized), &event).unwrap();
    let Transition::Moved { from, to } = outcome else {
        panic!("expected a move, got {outcome:?}")
    };
    assert_eq!(from, ReceiptStatus::CheckoutInitialized);
    assert_eq!(
        to,
        ReceiptState {
            status: ReceiptStatus::Paid,
            paid: Cents::new(2608),
            refunded: Cents::ZERO,
            held_by: Authority::Buyer,
        }
    );
}

#[test]
fn refunds_add_up_to_a_full_refund_and_never_past_it() {
    let mut state = state_of(ReceiptStatus::Paid);
    for (amount, status) in [
        (300, ReceiptStatus::RefundPartial),
        (700, ReceiptStatus::Refunded),
    ] {
        let outcome = apply_event(
            state,
            &ReceiptEvent::Refunded {
                amount: Cents::new(amount),
            },
        )
        .unwrap();
        let Transition::Moved { to, .. } = outcome else {
            panic!("expected a move")
        };
        assert_eq!(to.status, status);
        state = to;
    }
    assert_eq!(state.refunded, Cents::new(1000));
    assert_eq!(
        apply_event(
            state,
            &ReceiptEvent::Refunded {
                amount: Cents::new(1)
            }
        ),
        Err(TransitionError::RefundExceedsPaid {
            requested: Cents::new(1),
            remaining: Cents::ZERO
        })
    );
}

#[test]
fn an_unconfirmed_refund_counts_against_what_remains_and_its_confirmation_settles_the_status() {
    let pending = apply_event(
        state_of(ReceiptStatus::Paid),
        &ReceiptEvent::RefundSent {
            amount: Cents::new(1000),
        },
    )
    .unwrap();
    let Transition::Moved { to: waiting, .. } = pending else {
        panic!("expected a move, got {pending:?}")
    };
    let another = apply_event(
        waiting,
        &ReceiptEvent::Refunded {
            amount: Cents::new(1),
        },
    );
    let confirmed = apply_event(waiting, &ReceiptEvent::RefundConfirmed).unwrap();

    assert_eq!(
        (waiting.status, waiting.refunded),
        (ReceiptStatus::RefundRequested, Cents::new(1000))
    );
    assert_eq!(
        another,
        Err(TransitionError::RefundExceedsPaid {
            requested: Cents::new(1),
            remaining: Cents::ZERO
        })
    );
    assert!(matches!(
        confirmed,
        Transition::Moved { to, .. } if to.status == ReceiptStatus::Refunded && to.refunded == Cents::new(1000)
    ));
}

#[test]
fn a_refund_larger_than_what_remains_is_refused_with_the_remainder() {
    let outcome = apply_event(
        state_of(ReceiptStatus::RefundPartial),
        &ReceiptEvent::Refunded {
            amount: Cents::new(601),
        },
    );
    assert_eq!(
        outcome,
        Err(TransitionError::RefundExceedsPaid {
            requested: Cents::new(601),
            remaining: Cents::new(600)
        })
    );
}

#[test]
fn zero_refunds_and_refunds_before_payment_are_refused() {
    assert_eq!(
        apply_event(
            state_of(ReceiptStatus::Paid),
            &ReceiptEvent::Refunded { amount: Cents::ZERO }
        ),
        Err(TransitionError::NonPositiveRefund)
    );
    assert_eq!(
        apply_event(
            state_of(ReceiptStatus::Pending),
            &ReceiptEvent::Refunded {
                amount: Cents::new(1)
            }
        ),
        Err(TransitionError::NotPaid {
            status: ReceiptStatus::Pending
        })
    );
}

#[test]
fn failing_a_paid_receipt_is_refused() {
    assert_eq!(
        apply_event(
            state_of(ReceiptStatus::Completed),
            &ReceiptEvent::Failed(failure())
        ),
        Err(TransitionError::AlreadySettled {
            status: ReceiptStatus::Completed
        })
    );
}

#[test]
fn failure_codes_and_texts_are_validated() {
    let make = |code: &str, reason: &str| {
        Failure::new(
            code.into(),
            FailureCategory::System,
            reason.into(),
            "retry".into(),
        )
    };
    assert!(make("PORTAL_NETWORK_TIMEOUT", "timeout").is_ok());
    assert!(make("NETWORK_TIMEOUT", "timeout").is_err());
    assert!(make("PORTAL_", "timeout").is_err());
    assert!(make("PORTAL_lower", "timeout").is_err());
    assert!(make("PORTAL_X", " ").is_err());
}

#[test]
fn statuses_round_trip_through_their_wire_names() {
    for status in ReceiptStatus::ALL {
        assert_eq!(status.as_str().parse::<ReceiptStatus>(), Ok(status));
        assert_eq!(
            serde_json::to_string(&status).unwrap(),
            format!("\"{}\"", status.as_str())
        );
    }
    assert!("PAID".parse::<ReceiptStatus>().is_err());
    assert_eq!(
        serde_json::to_string(&FailureCategory::CardDecline).unwrap(),
        "\"card_decline\""
    );
}

#[test]
fn a_reorganised_payment_fails_a_completed_receipt_with_nothing_paid_and_a_new_payment_pays_it_again() {
    let reorged = apply_event(
        state_of(ReceiptStatus::Completed),
        &ReceiptEvent::PaymentReorged(failure()),
    )
    .unwrap();
    let Transition::Moved { from, to } = reorged else {
        panic!("expected a move, got {reorged:?}")
    };
    assert_eq!(from, ReceiptStatus::Completed);
    assert_eq!((to.status, to.paid), (ReceiptStatus::Failed, Cents::ZERO));

    let paid_again = apply_event(
        to,
        &ReceiptEvent::PaymentConfirmed {
            proof: PaymentProof::OnChain {
                transaction_hash: "0xdef".into(),
                buyer: Some(wallet()),
            },
            amount: Cents::new(1000),
        },
    )
    .unwrap();
    assert!(
        matches!(paid_again, Transition::Moved { to, .. } if to.status == ReceiptStatus::Paid && to.paid == Cents::new(1000))
    );
}
