//! The ledger export's records: every payment-token transfer to the merchant's deposits (with what arrived
//! before it), refunds and settlements, in time order, paged by cursor without loss or repeat, and nothing
//! of other tokens, chains or merchants.

use crate::Repositories;
use crate::fixtures::{
    T0, mark_completed, mark_paid_by, new_receipt, receipt_sale, refund, transition, wallet,
};
use payments_core::{Cents, TokenAmount};
use payments_store::{ChainCursor, LedgerCursor, LedgerQuery, LedgerRecord, LedgerSource, RecordedTransfer};

pub(crate) const CHAIN: u64 = 1;

fn transfer(tx: char, block: u64, token: char, to: char, amount: u128) -> RecordedTransfer {
    RecordedTransfer {
        transaction_hash: format!("0x{}", tx.to_string().repeat(64)),
        log_index: 0,
        block_number: block,
        block_hash: format!("0x{}", "b".repeat(64)),
        token: wallet(token),
        from: wallet('8'),
        to: wallet(to),
        amount: Some(amount),
    }
}

fn query(after: Option<LedgerCursor>, limit: u32) -> LedgerQuery {
    LedgerQuery {
        merchant: wallet('a'),
        chain_id: CHAIN,
        token: wallet('7'),
        from_ms: i64::MIN,
        to_ms: i64::MAX,
        after,
        limit,
    }
}

async fn record(repos: &Repositories, transfers: &[RecordedTransfer], block: u64, now_ms: i64) {
    let cursor = ChainCursor {
        next_block: block,
        last_block_hash: Some(format!("0x{block:064x}")),
    };
    repos
        .chain
        .record_scan(CHAIN, transfers, &cursor, now_ms)
        .await
        .unwrap();
}

/// Receipt `order-1` (5.00 USD, deposit `d`, split `e`) paid in two transfers, settled, partly refunded, then
/// paid again after settlement; plus a transfer of another token and another merchant's receipt.
pub(crate) async fn history(repos: &Repositories) {
    repos
        .receipts
        .create(receipt_sale(new_receipt(wallet('a'), "order-1", 500)))
        .await
        .unwrap();
    let mut other = new_receipt(wallet('c'), "theirs", 500);
    other.payment = other.payment.map(|mut target| {
        target.to = wallet('f');
        target
    });
    repos.receipts.create(receipt_sale(other)).await.unwrap();
    record(
        repos,
        &[
            transfer('1', 10, '7', 'd', 3_000_000),
            transfer('2', 11, '9', 'd', 99),
            transfer('3', 11, '7', 'f', 5_000_000),
        ],
        12,
        T0,
    )
    .await;
    record(repos, &[transfer('4', 20, '7', 'd', 2_500_000)], 21, T0 + 1).await;
    repos
        .receipts
        .transition(transition(wallet('a'), "order-1", mark_paid_by(500, wallet('8'))))
        .await
        .unwrap();
    repos
        .receipts
        .transition(transition(wallet('a'), "order-1", mark_completed()))
        .await
        .unwrap();
    repos
        .receipts
        .transition(transition(wallet('a'), "order-1", refund(100)))
        .await
        .unwrap();
    record(repos, &[transfer('5', 30, '7', 'd', 7)], 31, T0 + 5_000).await;
}

pub(crate) async fn the_ledger_reads_the_merchants_transfers_settlements_and_refunds_in_time_order(
    repos: Repositories,
) {
    history(&repos).await;

    let records = repos.billing.ledger_page(query(None, 100)).await.unwrap();

    let sources: Vec<LedgerSource> = records.iter().map(|record| record.source.clone()).collect();
    let deposit = |tx: char, before: u128, amount: u128, block: u64| LedgerSource::Deposit {
        receipt_id: "order-1".to_owned(),
        from: wallet('8'),
        total: Cents::new(500),
        received_before: TokenAmount::from_base_units(before),
        amount: TokenAmount::from_base_units(amount),
        transaction_hash: format!("0x{}", tx.to_string().repeat(64)),
        block_number: block,
    };
    assert_eq!(sources.len(), 5, "{sources:#?}");
    assert_eq!(sources[0], deposit('1', 0, 3_000_000, 10));
    assert_eq!(sources[1], deposit('4', 3_000_000, 2_500_000, 20));
    assert_eq!(
        sources[2],
        LedgerSource::Settlement {
            receipt_id: "order-1".to_owned(),
            split: wallet('e'),
            forwarded: TokenAmount::from_base_units(5_500_000),
        },
        "the deposit's balance when it was settled, not the later transfer"
    );
    assert!(
        matches!(&sources[3], LedgerSource::Refund { receipt_id, amount, .. }
            if receipt_id == "order-1" && *amount == Cents::new(100)),
        "{:?}",
        sources[3]
    );
    assert_eq!(sources[4], deposit('5', 5_500_000, 7, 30));
    assert!(records.windows(2).all(|pair| pair[0].cursor < pair[1].cursor));
}

pub(crate) async fn ledger_pages_after_a_cursor_return_every_record_once_and_ranges_bound_them(
    repos: Repositories,
) {
    history(&repos).await;
    let everything = repos.billing.ledger_page(query(None, 100)).await.unwrap();

    let mut paged: Vec<LedgerRecord> = Vec::new();
    loop {
        let page = repos
            .billing
            .ledger_page(query(paged.last().map(|r| r.cursor), 2))
            .await
            .unwrap();
        if page.is_empty() {
            break;
        }
        assert!(page.len() <= 2);
        paged.extend(page);
    }
    assert_eq!(paged, everything);

    let mut bounded = query(None, 100);
    bounded.from_ms = T0 + 1;
    bounded.to_ms = T0 + 5_000;
    let inside = repos.billing.ledger_page(bounded).await.unwrap();
    assert_eq!(inside.len(), 3, "from inclusive, to exclusive: {inside:#?}");
    assert!(
        inside
            .iter()
            .all(|record| (T0 + 1..T0 + 5_000).contains(&record.cursor.at_ms))
    );

    let mut stranger = query(None, 100);
    stranger.merchant = wallet('9');
    assert_eq!(repos.billing.ledger_page(stranger).await.unwrap(), []);
}
