//! The listing's paging on the test-mode chain: a page reads at most [`MAX_SCAN_BLOCKS`] blocks, hands a
//! cursor to the next page, and the listing ends at the merchant's first recorded deposit.

use std::sync::Arc;

use payments_core::{Split, SplitRecipient, TokenAmount, Wallet};

use super::*;
use crate::chain::simulated::SimulatedChain;
use crate::domain::split::StoredSplit;
use crate::runtime::clock::ManualClock;
use crate::store::{Availability, ChainCursor, RecordedTransfer, Repositories, SqliteStore};
use payments_store::testing::fixtures::{self, T0, wallet};

const CHAIN_ID: u64 = 31_337;

struct Setup {
    service: SplitTransactionsService,
    chain: Arc<SimulatedChain>,
    split: Wallet,
    _dir: tempfile::TempDir,
}

/// A merchant (`0xaaaa…`) whose split is `0x5555…`, and whose receipt's deposit `0xdddd…` was seen in
/// block `first_deposit`.
async fn setup(first_deposit: u64) -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(&dir.path().join("scan.db"), T0, Availability::default()).unwrap();
    let repos = Repositories::of(Arc::new(store), Availability::default());
    let (merchant, split) = (wallet('a'), wallet('5'));
    let recipients = Split::new(vec![
        SplitRecipient {
            address: merchant,
            shares_bps: 9_950,
        },
        SplitRecipient {
            address: wallet('f'),
            shares_bps: 50,
        },
    ])
    .unwrap();
    let stored = StoredSplit {
        address: split,
        split: recipients,
    };
    repos
        .shops
        .save_split(merchant, &stored, false, T0)
        .await
        .unwrap();
    let receipt = fixtures::receipt_sale(fixtures::new_receipt(merchant, "r-1", 100));
    repos.receipts.create(receipt).await.unwrap();
    let seen = RecordedTransfer {
        transaction_hash: format!("0x{:064x}", 1),
        log_index: 0,
        block_number: first_deposit,
        block_hash: format!("0x{:064x}", 2),
        token: token(),
        from: wallet('b'),
        to: wallet('d'),
        amount: Some(1_000_000),
    };
    let cursor = ChainCursor {
        next_block: first_deposit + 1,
        last_block_hash: None,
    };
    repos
        .chain
        .record_scan(CHAIN_ID, &[seen], &cursor, T0)
        .await
        .unwrap();
    let chain = Arc::new(SimulatedChain::with_clock(
        CHAIN_ID,
        &[],
        Arc::new(ManualClock::new(T0)),
    ));
    let service = SplitTransactionsService {
        chain: chain.clone(),
        shops: Arc::clone(&repos.shops),
        reserve: Arc::clone(&repos.reserve),
        chain_id: CHAIN_ID,
        token: token(),
        confirmations: 0,
        platform_recipient: Some(wallet('f')),
    };
    Setup {
        service,
        chain,
        split,
        _dir: dir,
    }
}

fn token() -> Wallet {
    wallet('7')
}

async fn pay(setup: &Setup, units: u128) {
    setup
        .chain
        .simulate_payment(token(), setup.split, TokenAmount::from_base_units(units))
        .await
        .unwrap();
}

fn query(before: Option<LogPosition>) -> SplitTransactionsQuery {
    SplitTransactionsQuery {
        address: None,
        before,
        limit: 10,
    }
}

fn amounts(page: &SplitTransactionsPage) -> Vec<u128> {
    page.transactions
        .iter()
        .map(|listed| listed.record.amount.base_units())
        .collect()
}

#[tokio::test]
async fn a_page_reads_a_bounded_block_range_and_the_cursor_continues_down_to_the_first_deposit() {
    let setup = setup(1).await;
    pay(&setup, 1_000_000).await; // block 1
    setup.chain.mine(MAX_SCAN_BLOCKS + 5_000);
    pay(&setup, 2_000_000).await; // block MAX_SCAN_BLOCKS + 5_002
    setup.chain.mine(3);

    let first = setup.service.list(wallet('a'), query(None)).await.unwrap();
    let second = setup.service.list(wallet('a'), query(first.next)).await.unwrap();

    assert_eq!(amounts(&first), vec![2_000_000]);
    let head = MAX_SCAN_BLOCKS + 5_005;
    assert_eq!(
        first.next,
        Some(LogPosition::block_start(head + 1 - MAX_SCAN_BLOCKS))
    );
    assert_eq!(amounts(&second), vec![1_000_000]);
    assert_eq!(second.next, None);
}

#[tokio::test]
async fn without_older_deposits_the_listing_ends_after_the_recent_blocks() {
    let setup = setup(RECENT_BLOCKS + 10).await;
    pay(&setup, 1_000_000).await; // block 1: before the floor, never listed
    setup.chain.mine(RECENT_BLOCKS + 100);
    pay(&setup, 3_000_000).await;

    let page = setup.service.list(wallet('a'), query(None)).await.unwrap();

    assert_eq!(amounts(&page), vec![3_000_000]);
    assert_eq!(page.next, None);
}

#[tokio::test]
async fn a_full_page_stops_between_transactions_and_resumes_after_them() {
    let setup = setup(1).await;
    for units in 1..=3 {
        pay(&setup, units).await;
    }
    let two = SplitTransactionsQuery {
        limit: 2,
        ..query(None)
    };

    let first = setup.service.list(wallet('a'), two).await.unwrap();
    let rest = SplitTransactionsQuery {
        before: first.next,
        ..two
    };
    let second = setup.service.list(wallet('a'), rest).await.unwrap();

    assert_eq!(amounts(&first), vec![3, 2]);
    assert_eq!(
        first.next,
        Some(LogPosition {
            block: 2,
            log_index: 1
        })
    );
    assert_eq!(amounts(&second), vec![1]);
    assert_eq!(second.next, None);
}
