use super::*;
use crate::money::Cents;
use crate::receipt_status::{Failure, FailureCategory};
use crate::receipt_transition::{ReceiptState, Transition, TransitionError, apply_event_as};
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

/// Each event by the name of its row in [`MAY_REQUEST`].
fn event(name: &str) -> ReceiptEvent {
    match name {
        "pending" => ReceiptEvent::PaymentInitiated,
        "link_opened" => ReceiptEvent::Tracking(TrackingStatus::LinkOpened),
        "buyer_logged_in" => ReceiptEvent::Tracking(TrackingStatus::BuyerLoggedIn),
        "checkout_initialized" => ReceiptEvent::Tracking(TrackingStatus::CheckoutInitialized),
        "failed" => ReceiptEvent::Failed(failure()),
        "checkout_success" => ReceiptEvent::CheckoutSucceeded,
        "tx_mined" => ReceiptEvent::TransactionMined,
        "recipient_validated" => ReceiptEvent::RecipientValidated,
        "tx_mismatch" => ReceiptEvent::TransactionMismatch,
        "paid(attested)" => ReceiptEvent::PaymentConfirmed {
            proof: PaymentProof::AdminAttestation {
                admin: wallet(),
                transaction_hash: None,
            },
            amount: Cents::new(1000),
        },
        "paid(on_chain)" => ReceiptEvent::PaymentConfirmed {
            proof: PaymentProof::OnChain {
                transaction_hash: format!("0x{}", "ab".repeat(32)),
                buyer: None,
            },
            amount: Cents::new(1000),
        },
        "completed" => ReceiptEvent::SplitExecuted,
        "reconciled" => ReceiptEvent::Reconciled,
        "refund_requested" => ReceiptEvent::RefundRequested,
        "refunded" => ReceiptEvent::Refunded {
            amount: Cents::new(100),
        },
        other => panic!("no event named {other}"),
    }
}

/// The table in docs/receipts.md "Who may ask for what". Columns: buyer, key, admin, chain.
const MAY_REQUEST: &str = "
pending              n y y y
link_opened          y y y y
buyer_logged_in      y y y y
checkout_initialized y y y y
failed               n y y y
checkout_success     n n y y
tx_mined             n n y y
recipient_validated  n n y y
tx_mismatch          n n y y
paid(attested)       n n y y
paid(on_chain)       n n n y
completed            n n y y
reconciled           n n y y
refund_requested     n n y y
refunded             n n y y
";

/// The table in docs/receipts.md "Who may change a status": rows the authority that set the current
/// status, columns the actor asking for a change (buyer, key, admin, chain); `y` = may change it.
const MAY_CHANGE: &str = "
buyer y y y y
key   n y y y
admin n n y y
chain n n y y
";

fn rows(table: &str) -> Vec<Vec<&str>> {
    table
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| line.split_whitespace().collect())
        .collect()
}

#[test]
fn every_event_and_authority_pair_matches_the_request_table() {
    let rows = rows(MAY_REQUEST);
    assert_eq!(
        rows.len(),
        15,
        "one row per event (paid twice: attested and on chain)"
    );
    for row in rows {
        let event = event(row[0]);
        assert_eq!(row.len(), 1 + Authority::ALL.len(), "row {}", row[0]);
        for (actor, expected) in Authority::ALL.into_iter().zip(&row[1..]) {
            let allowed = authorize_request(actor, &event, false).is_ok();
            assert_eq!(allowed, *expected == "y", "{actor} asking for {}", row[0]);
            assert_eq!(actor.may_request(&event), allowed);
        }
    }
}

#[test]
fn every_holder_and_actor_pair_matches_the_change_table() {
    let rows = rows(MAY_CHANGE);
    assert_eq!(rows.len(), Authority::ALL.len());
    for (row, holder) in rows.into_iter().zip(Authority::ALL) {
        assert_eq!(row[0], holder.as_str());
        for (actor, expected) in Authority::ALL.into_iter().zip(&row[1..]) {
            assert_eq!(
                actor.may_change_status_set_by(holder),
                *expected == "y",
                "{actor} changing what {holder} set"
            );
        }
    }
}

#[test]
fn only_an_admin_or_the_chain_may_set_chain_fields() {
    let allowed: Vec<bool> = Authority::ALL
        .into_iter()
        .map(Authority::may_set_chain_fields)
        .collect();
    assert_eq!(allowed, [false, false, true, true]);
    let tracking = event("link_opened");
    assert_eq!(
        authorize_request(Authority::MerchantKey, &tracking, true),
        Err(AuthorityError::ChainFields {
            actor: Authority::MerchantKey
        })
    );
    assert_eq!(authorize_request(Authority::Admin, &tracking, true), Ok(()));
}

#[test]
fn every_postable_status_names_the_least_authority_of_its_event() {
    let expected = [
        ("generated", None),
        ("pending", Some(Authority::MerchantKey)),
        ("link_opened", Some(Authority::Buyer)),
        ("buyer_logged_in", Some(Authority::MerchantKey)),
        ("checkout_initialized", Some(Authority::MerchantKey)),
        ("checkout_success", Some(Authority::Admin)),
        ("tx_mined", Some(Authority::Admin)),
        ("recipient_validated", Some(Authority::Admin)),
        ("tx_mismatch", Some(Authority::Admin)),
        ("underpaid", None),
        ("paid", Some(Authority::Admin)),
        ("completed", Some(Authority::Admin)),
        ("reconciled", Some(Authority::Admin)),
        ("failed", Some(Authority::MerchantKey)),
        ("refund_requested", Some(Authority::Admin)),
        ("refund_partial", None),
        ("refunded", None),
    ];
    assert_eq!(expected.len(), ReceiptStatus::ALL.len());
    for (name, required) in expected {
        let status: ReceiptStatus = name.parse().unwrap();
        assert_eq!(status.required_to_post(), required, "{name}");
    }
}

#[test]
fn stored_names_round_trip_and_unknown_names_are_refused() {
    for authority in Authority::ALL {
        assert_eq!(authority.as_str().parse::<Authority>(), Ok(authority));
    }
    assert_eq!(
        "root".parse::<Authority>(),
        Err(UnknownAuthority("root".to_owned()))
    );
}

fn held(status: ReceiptStatus, held_by: Authority) -> ReceiptState {
    ReceiptState {
        held_by,
        ..ReceiptState::new(status)
    }
}

/// The attack of issue 10: after an admin posts `recipient_validated`, a key tried `failed`, then
/// `pending`, then clearing `tx_mismatch`.
#[test]
fn a_key_cannot_fail_reopen_or_clear_what_an_admin_set() {
    let key = Authority::MerchantKey;
    let validated = held(ReceiptStatus::RecipientValidated, Authority::Admin);
    let mismatch = held(ReceiptStatus::TxMismatch, Authority::Admin);
    let failed_by_admin = held(ReceiptStatus::Failed, Authority::Admin);

    for (state, name) in [
        (validated, "failed"),
        (mismatch, "pending"),
        (mismatch, "link_opened"),
        (failed_by_admin, "pending"),
    ] {
        let outcome = apply_event_as(state, &event(name), key, false);
        assert_eq!(
            outcome,
            Err(TransitionError::Unauthorized(AuthorityError::Outranked {
                status: state.status,
                holder: Authority::Admin,
                actor: key,
            })),
            "{name} on {}",
            state.status
        );
    }
}

#[test]
fn a_move_is_held_by_its_actor_and_an_ignored_event_needs_no_rank() {
    let moved = apply_event_as(
        held(ReceiptStatus::Pending, Authority::Buyer),
        &event("recipient_validated"),
        Authority::Admin,
        true,
    );
    assert_eq!(
        moved,
        Ok(Transition::Moved {
            from: ReceiptStatus::Pending,
            to: held(ReceiptStatus::RecipientValidated, Authority::Admin),
        })
    );
    // Late tracking after an admin's move is acknowledged, not refused: it changes nothing.
    let late = apply_event_as(
        held(ReceiptStatus::RecipientValidated, Authority::Admin),
        &event("checkout_initialized"),
        Authority::MerchantKey,
        false,
    );
    assert_eq!(
        late,
        Ok(Transition::Ignored {
            current: ReceiptStatus::RecipientValidated
        })
    );
}

#[test]
fn the_buyers_page_cannot_reopen_a_failed_receipt_but_a_key_can_retry_its_own_failure() {
    let failed_by_key = held(ReceiptStatus::Failed, Authority::MerchantKey);

    let by_page = apply_event_as(failed_by_key, &event("link_opened"), Authority::Buyer, false);
    let by_key = apply_event_as(failed_by_key, &event("pending"), Authority::MerchantKey, false);

    assert!(
        matches!(
            by_page,
            Err(TransitionError::Unauthorized(AuthorityError::Outranked { .. }))
        ),
        "{by_page:?}"
    );
    assert_eq!(
        by_key,
        Ok(Transition::Moved {
            from: ReceiptStatus::Failed,
            to: held(ReceiptStatus::Pending, Authority::MerchantKey),
        })
    );
}
