//! Payment windows in the store: which receipts' windows have ended, the stock an expiry gives back and a
//! late payment takes again (or marks short), and the `paidLate` list filter.

use payments_core::{Authority, Cents, ReceiptState, ReceiptStatus};

use crate::Repositories;
use crate::fixtures::{self, T0, TransitionDecision, WINDOW_MS, receipt_id, wallet};
use crate::product_id;
use crate::sales::stock_of;
use payments_domain::receipt::{Receipt, ReceiptId};
use payments_store::{MerchantSnapshot, ReceiptFilter};

/// Applies `decision` to merchant `a`'s receipt `id`.
async fn apply(repos: &Repositories, id: &str, decision: TransitionDecision) {
    let change = fixtures::transition(wallet('a'), id, decision);
    repos.receipts.transition(change).await.unwrap();
}

/// The expiry's transition: failed, held by the chain, stock given back.
fn expire() -> TransitionDecision {
    Box::new(|receipt: &Receipt, _: &MerchantSnapshot| {
        let to = ReceiptState {
            status: ReceiptStatus::Failed,
            held_by: Authority::Chain,
            ..ReceiptState::new(receipt.status)
        };
        let mut commit = fixtures::commit(receipt, to, "receipt.failed");
        commit.expires = true;
        Ok(Some(commit))
    })
}

/// A (late) payment of `cents`: paid, taking again what an expiry gave back.
fn pay_late(cents: i64) -> TransitionDecision {
    Box::new(move |receipt: &Receipt, _: &MerchantSnapshot| {
        let to = ReceiptState {
            status: ReceiptStatus::Paid,
            paid: Cents::new(cents),
            refunded: Cents::ZERO,
            held_by: Authority::Chain,
        };
        let mut commit = fixtures::commit(receipt, to, "receipt.paid");
        commit.retakes_stock = true;
        commit.paid_late = true;
        Ok(Some(commit))
    })
}

pub(crate) async fn ended_windows_are_listed_until_expired_and_never_once_paid(repos: Repositories) {
    let merchant = wallet('a');
    for id in ["tea-1", "tea-2", "tea-3"] {
        let receipt = fixtures::new_receipt(merchant, id, 300);
        repos
            .receipts
            .create(fixtures::receipt_sale(receipt))
            .await
            .unwrap();
    }
    let ids = |found: Vec<(payments_core::Wallet, ReceiptId)>| {
        found
            .into_iter()
            .map(|(_, id)| id.to_string())
            .collect::<Vec<_>>()
    };
    assert!(
        ids(repos
            .receipts
            .windows_ended(T0 + WINDOW_MS - 1, 10)
            .await
            .unwrap())
        .is_empty()
    );
    apply(&repos, "tea-2", fixtures::mark_paid(300)).await;

    let mut ended = ids(repos.receipts.windows_ended(T0 + WINDOW_MS, 10).await.unwrap());
    ended.sort();
    assert_eq!(ended, ["tea-1", "tea-3"], "the paid receipt is not expired");
    assert_eq!(
        repos
            .receipts
            .windows_ended(T0 + WINDOW_MS, 1)
            .await
            .unwrap()
            .len(),
        1
    );

    apply(&repos, "tea-1", expire()).await;
    assert_eq!(
        ids(repos.receipts.windows_ended(T0 + WINDOW_MS, 10).await.unwrap()),
        ["tea-3"]
    );
    let expired = repos
        .receipts
        .fetch(Some(merchant), &receipt_id("tea-1"))
        .await
        .unwrap()
        .unwrap();
    assert!(expired.expired);
    assert_eq!(expired.expires_at, Some(T0 + WINDOW_MS));
}

pub(crate) async fn an_expiry_gives_back_the_orders_stock_and_a_late_payment_takes_it_again(
    repos: Repositories,
) {
    let merchant = wallet('a');
    let beans = product_id(&repos, fixtures::product(merchant, "BEAN-9", 5, &[])).await;
    repos
        .receipts
        .create(fixtures::order_sale(merchant, "order-1", &beans, 3))
        .await
        .unwrap();
    assert_eq!(stock_of(&repos, &beans).await, 2);

    apply(&repos, "order-1", expire()).await;
    assert_eq!(stock_of(&repos, &beans).await, 5, "given back");
    apply(&repos, "order-1", expire()).await;
    assert_eq!(stock_of(&repos, &beans).await, 5, "given back once");

    apply(&repos, "order-1", pay_late(300)).await;
    assert_eq!(stock_of(&repos, &beans).await, 2, "taken again");
    let paid = repos
        .receipts
        .fetch(Some(merchant), &receipt_id("order-1"))
        .await
        .unwrap()
        .unwrap();
    assert!(paid.paid_late);
    assert!(!paid.stock_short);
}

pub(crate) async fn a_late_payment_short_of_stock_is_marked_and_takes_nothing(repos: Repositories) {
    let merchant = wallet('a');
    let beans = product_id(&repos, fixtures::product(merchant, "BEAN-8", 2, &[])).await;
    repos
        .receipts
        .create(fixtures::order_sale(merchant, "order-1", &beans, 2))
        .await
        .unwrap();
    apply(&repos, "order-1", expire()).await;
    repos
        .receipts
        .create(fixtures::order_sale(merchant, "order-2", &beans, 1))
        .await
        .unwrap();

    apply(&repos, "order-1", pay_late(200)).await;

    assert_eq!(
        stock_of(&repos, &beans).await,
        1,
        "nothing taken below what is there"
    );
    let paid = repos
        .receipts
        .fetch(Some(merchant), &receipt_id("order-1"))
        .await
        .unwrap()
        .unwrap();
    assert!(paid.paid_late && paid.stock_short);
}

pub(crate) async fn the_paid_late_filter_lists_only_late_or_only_other_receipts(repos: Repositories) {
    let merchant = wallet('a');
    for id in ["tea-1", "tea-2"] {
        let receipt = fixtures::new_receipt(merchant, id, 300);
        repos
            .receipts
            .create(fixtures::receipt_sale(receipt))
            .await
            .unwrap();
    }
    apply(&repos, "tea-2", pay_late(300)).await;
    let listed = |paid_late: Option<bool>| {
        let repos = repos.clone();
        async move {
            let filter = ReceiptFilter { paid_late };
            let page = repos
                .receipts
                .list_page(merchant, 10, None, filter)
                .await
                .unwrap();
            page.receipts
                .into_iter()
                .map(|receipt| receipt.id.to_string())
                .collect::<Vec<_>>()
        }
    };

    assert_eq!(listed(Some(true)).await, ["tea-2"]);
    assert_eq!(listed(Some(false)).await, ["tea-1"]);
    assert_eq!(listed(None).await.len(), 2);
}
