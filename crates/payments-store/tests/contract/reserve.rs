//! [`ReserveRepository`](payments_store::ReserveRepository): a merchant's volume over a window, its receipts
//! by deposit address, and the first block a deposit of its was seen in.

use payments_core::{Cents, ReserveVolume, Wallet};

use crate::Repositories;
use crate::fixtures::{self, T0, receipt_id, wallet};
use payments_domain::receipt::PaymentTarget;
use payments_store::{ChainCursor, RecordedTransfer};

async fn receipt_paying_to(repos: &Repositories, merchant: Wallet, id: &str, deposit: Wallet) {
    let mut receipt = fixtures::new_receipt(merchant, id, 1_000);
    receipt.payment = Some(PaymentTarget {
        to: deposit,
        split: wallet('e'),
    });
    repos
        .receipts
        .create(fixtures::receipt_sale(receipt))
        .await
        .unwrap();
}

async fn paid(repos: &Repositories, merchant: Wallet, id: &str, cents: i64) {
    let sale = fixtures::receipt_sale(fixtures::new_receipt(merchant, id, cents));
    repos.receipts.create(sale).await.unwrap();
    let change = fixtures::transition(merchant, id, fixtures::mark_paid(cents));
    repos.receipts.transition(change).await.unwrap();
}

fn transfer(to: Wallet, block: u64, log_index: u64) -> RecordedTransfer {
    RecordedTransfer {
        transaction_hash: format!("0x{block:064x}"),
        log_index,
        block_number: block,
        block_hash: format!("0x{:064x}", block + 1_000),
        token: wallet('f'),
        from: wallet('b'),
        to,
        amount: Some(1_000),
    }
}

pub(crate) async fn volume_counts_the_windows_payments_and_refunds_of_one_merchant(repos: Repositories) {
    let (merchant, other) = (wallet('a'), wallet('c'));
    paid(&repos, merchant, "paid-1", 3_000).await;
    paid(&repos, merchant, "paid-2", 1_250).await;
    let refund = fixtures::transition(merchant, "paid-1", fixtures::refund(1_000));
    repos.receipts.transition(refund).await.unwrap();
    let unpaid = fixtures::receipt_sale(fixtures::new_receipt(merchant, "open-1", 9_999));
    repos.receipts.create(unpaid).await.unwrap();
    paid(&repos, other, "theirs-1", 5_000).await;

    // The fixtures' transitions happen at T0 + 1000.
    let window = repos.reserve.volume_since(merchant, T0 + 1_000).await.unwrap();
    let after = repos.reserve.volume_since(merchant, T0 + 1_001).await.unwrap();
    let theirs = repos.reserve.volume_since(other, T0).await.unwrap();

    assert_eq!(
        window,
        ReserveVolume {
            paid: Cents::new(4_250),
            refunded: Cents::new(1_000)
        }
    );
    assert_eq!(after, ReserveVolume::default());
    assert_eq!(
        theirs,
        ReserveVolume {
            paid: Cents::new(5_000),
            refunded: Cents::ZERO
        }
    );
}

pub(crate) async fn deposit_addresses_name_only_the_merchants_own_receipts(repos: Repositories) {
    let (merchant, other) = (wallet('a'), wallet('c'));
    receipt_paying_to(&repos, merchant, "mine-1", wallet('1')).await;
    receipt_paying_to(&repos, merchant, "mine-2", wallet('2')).await;
    receipt_paying_to(&repos, other, "theirs-1", wallet('3')).await;

    let mut found = repos
        .reserve
        .receipts_paid_to(merchant, &[wallet('1'), wallet('2'), wallet('3'), wallet('9')])
        .await
        .unwrap();
    found.sort_by(|a, b| a.1.as_str().cmp(b.1.as_str()));

    assert_eq!(
        found,
        vec![
            (wallet('1'), receipt_id("mine-1")),
            (wallet('2'), receipt_id("mine-2"))
        ]
    );
    assert_eq!(
        repos.reserve.receipts_paid_to(merchant, &[]).await.unwrap(),
        vec![]
    );
}

pub(crate) async fn the_first_deposit_block_is_the_merchants_lowest_recorded_transfer(repos: Repositories) {
    let (merchant, other) = (wallet('a'), wallet('c'));
    receipt_paying_to(&repos, merchant, "mine-1", wallet('1')).await;
    receipt_paying_to(&repos, merchant, "mine-2", wallet('2')).await;
    receipt_paying_to(&repos, other, "theirs-1", wallet('3')).await;
    let cursor = ChainCursor {
        next_block: 20,
        last_block_hash: None,
    };
    let seen = [
        transfer(wallet('1'), 12, 0),
        transfer(wallet('2'), 7, 3),
        transfer(wallet('3'), 3, 0),
        transfer(wallet('9'), 1, 0),
    ];
    repos.chain.record_scan(8453, &seen, &cursor, T0).await.unwrap();
    repos
        .chain
        .record_scan(1, &[transfer(wallet('1'), 2, 0)], &cursor, T0)
        .await
        .unwrap();

    assert_eq!(
        repos.reserve.first_deposit_block(merchant, 8453).await.unwrap(),
        Some(7)
    );
    assert_eq!(
        repos.reserve.first_deposit_block(merchant, 1).await.unwrap(),
        Some(2)
    );
    assert_eq!(
        repos
            .reserve
            .first_deposit_block(wallet('7'), 8453)
            .await
            .unwrap(),
        None
    );
}
