//! A receipt's card-onramp session (schema v16): recorded on an unpaid receipt of its merchant only, read
//! back with the receipt, replaced by the next one, and refused once the receipt is paid.

use payments_core::{Authority, Cents, OnrampProviderKind, ReceiptState, ReceiptStatus};

use crate::Repositories;
use crate::fixtures::{self, TransitionDecision, receipt_id, wallet};
use payments_domain::receipt::{OnrampSession, Receipt};
use payments_store::MerchantSnapshot;

fn session(id: &str, created_at: i64) -> OnrampSession {
    OnrampSession {
        provider: OnrampProviderKind::Stripe,
        session_id: id.to_owned(),
        url: format!("https://crypto.link.com?session_hash={id}"),
        created_at,
    }
}

/// Paid in full by the chain (also the stamp tests' payment).
pub(crate) fn pay(cents: i64) -> TransitionDecision {
    Box::new(move |receipt: &Receipt, _: &MerchantSnapshot| {
        let to = ReceiptState {
            status: ReceiptStatus::Paid,
            paid: Cents::new(cents),
            refunded: Cents::ZERO,
            held_by: Authority::Chain,
        };
        Ok(Some(fixtures::commit(receipt, to, "receipt.paid")))
    })
}

pub(crate) async fn an_onramp_session_is_recorded_on_an_unpaid_receipt_of_its_merchant_only(
    repos: Repositories,
) {
    let (merchant, other) = (wallet('a'), wallet('b'));
    for id in ["card-1", "card-2"] {
        let receipt = fixtures::new_receipt(merchant, id, 1265);
        repos
            .receipts
            .create(fixtures::receipt_sale(receipt))
            .await
            .unwrap();
    }
    // Read through the merchant's (cached, on SQLite) path first: the session must show there afterwards.
    repos
        .receipts
        .fetch_with_split(Some(merchant), &receipt_id("card-1"))
        .await
        .unwrap();
    let fresh = repos
        .receipts
        .fetch(Some(merchant), &receipt_id("card-1"))
        .await
        .unwrap()
        .unwrap();

    let recorded = repos
        .receipts
        .record_onramp_session(merchant, &receipt_id("card-1"), &session("cos_1", 10))
        .await
        .unwrap();
    let foreign = repos
        .receipts
        .record_onramp_session(other, &receipt_id("card-2"), &session("cos_x", 10))
        .await
        .unwrap();
    let replaced = repos
        .receipts
        .record_onramp_session(merchant, &receipt_id("card-1"), &session("cos_2", 20))
        .await
        .unwrap();

    assert_eq!(fresh.onramp, None);
    assert!(recorded && replaced);
    assert!(!foreign, "another merchant's receipt takes no session");
    let read = repos
        .receipts
        .fetch(Some(merchant), &receipt_id("card-1"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(read.onramp, Some(session("cos_2", 20)));
    assert_eq!(read.status, fresh.status, "a session is no status change");
    assert_eq!(
        read.version, fresh.version,
        "the version counts status changes only"
    );
    let untouched = repos
        .receipts
        .fetch(Some(merchant), &receipt_id("card-2"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(untouched.onramp, None);
    let (with_split, _) = repos
        .receipts
        .fetch_with_split(Some(merchant), &receipt_id("card-1"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(with_split.onramp, Some(session("cos_2", 20)));
}

pub(crate) async fn a_paid_receipt_takes_no_new_onramp_session(repos: Repositories) {
    let merchant = wallet('a');
    let receipt = fixtures::new_receipt(merchant, "card-3", 1265);
    repos
        .receipts
        .create(fixtures::receipt_sale(receipt))
        .await
        .unwrap();
    let id = receipt_id("card-3");
    assert!(
        repos
            .receipts
            .record_onramp_session(merchant, &id, &session("cos_3", 10))
            .await
            .unwrap()
    );
    repos
        .receipts
        .transition(fixtures::transition(merchant, "card-3", pay(1265)))
        .await
        .unwrap();

    let after_payment = repos
        .receipts
        .record_onramp_session(merchant, &id, &session("cos_4", 20))
        .await
        .unwrap();

    assert!(!after_payment);
    let read = repos.receipts.fetch(Some(merchant), &id).await.unwrap().unwrap();
    assert_eq!(read.status, ReceiptStatus::Paid);
    assert_eq!(
        read.onramp,
        Some(session("cos_3", 10)),
        "the paid receipt keeps its session"
    );
}
