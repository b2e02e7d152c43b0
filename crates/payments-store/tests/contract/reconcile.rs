//! Reconciliation's reads: every receipt with a deposit, with the transfers of the payment token recorded into
//! it (no other token's) and whether it was settled, then every refund with its transaction, a page at a time
//! by row id, bounded by the window of creation times.

use crate::Repositories;
use crate::fixtures::{T0, wallet};
use crate::ledger::{CHAIN, history};
use payments_core::{Cents, TokenAmount};
use payments_store::ReconcileWindow;

fn window(from_ms: i64, to_ms: i64) -> ReconcileWindow {
    ReconcileWindow {
        chain_id: CHAIN,
        token: wallet('7'),
        from_ms,
        to_ms,
    }
}

fn hash(digit: char) -> String {
    format!("0x{}", digit.to_string().repeat(64))
}

pub(crate) async fn reconcile_pages_give_each_deposit_its_token_transfers_and_settlement_and_each_refund(
    repos: Repositories,
) {
    history(&repos).await;
    let everything = window(i64::MIN, i64::MAX);

    let first = repos.reconcile.deposits_page(&everything, 0, 1).await.unwrap();
    let rest = repos
        .reconcile
        .deposits_page(&everything, first[0].row_id, 10)
        .await
        .unwrap();
    let refunds = repos.reconcile.refunds_page(&everything, 0, 10).await.unwrap();
    let later = repos
        .reconcile
        .refunds_page(&everything, refunds[0].row_id, 10)
        .await
        .unwrap();
    let charges = repos.reconcile.charges_page(&everything, 0, 10).await.unwrap();

    assert_eq!((first.len(), rest.len()), (1, 1), "{first:?} {rest:?}");
    let (ours, theirs) = (&first[0], &rest[0]);
    assert_eq!(
        (ours.receipt_id.as_str(), ours.deposit, ours.split),
        ("order-1", wallet('d'), Some(wallet('e')))
    );
    assert!(ours.completed);
    let mut logs: Vec<(String, u128)> = ours
        .transfers
        .iter()
        .map(|seen| (seen.transaction_hash.clone(), seen.amount.base_units()))
        .collect();
    logs.sort();
    assert_eq!(
        logs,
        [(hash('1'), 3_000_000), (hash('4'), 2_500_000), (hash('5'), 7)],
        "the other token's transfer is not a payment"
    );
    assert_eq!(
        (theirs.receipt_id.as_str(), theirs.deposit, theirs.completed),
        ("theirs", wallet('f'), false)
    );
    assert_eq!(theirs.received, TokenAmount::from_base_units(0));
    assert_eq!(theirs.transfers.len(), 1);
    assert_eq!(refunds.len(), 1);
    assert_eq!(
        (
            refunds[0].receipt_id.as_str(),
            refunds[0].buyer,
            refunds[0].amount
        ),
        ("order-1", wallet('b'), Cents::new(100))
    );
    let hash = &refunds[0].transaction_hash;
    assert!(
        hash.starts_with("0x") && hash.len() == 66,
        "the refund's own transaction: {hash}"
    );
    assert!(later.is_empty());
    assert!(charges.is_empty());
    let none_created_later = repos
        .reconcile
        .deposits_page(&window(T0 + 60_000, i64::MAX), 0, 10)
        .await
        .unwrap();
    assert!(none_created_later.is_empty(), "{none_created_later:?}");
}
