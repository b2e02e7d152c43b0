//! The chain workers' records: the watcher's cursor, deposit transfers recorded once, funded deposits of
//! unpaid receipts, and paid ones still watched with what their last transition recorded (v19).

use crate::Repositories;
use crate::fixtures::{self, T0, WINDOW_MS, new_receipt, receipt_id, receipt_sale, wallet};
use payments_core::TokenAmount;
use payments_domain::receipt::PaymentTarget;
use payments_store::{ChainCursor, RecordedTransfer};

fn transfer(tx: char, log_index: u64, block: u64, to: char, amount: u128) -> RecordedTransfer {
    RecordedTransfer {
        transaction_hash: format!("0x{}", tx.to_string().repeat(64)),
        log_index,
        block_number: block,
        block_hash: format!("0x{}", "b".repeat(64)),
        token: wallet('7'),
        from: wallet('8'),
        to: wallet(to),
        amount: Some(amount),
    }
}

pub(crate) async fn receipt_paid_to(repos: &Repositories, id: &str, deposit: char) {
    let mut receipt = new_receipt(wallet('a'), id, 500);
    receipt.payment = Some(PaymentTarget {
        to: wallet(deposit),
        split: wallet('e'),
    });
    repos.receipts.create(receipt_sale(receipt)).await.unwrap();
}

pub(crate) async fn a_rescanned_transfer_is_recorded_once_and_credits_only_its_unpaid_receipt(
    repos: Repositories,
) {
    receipt_paid_to(&repos, "order-1", '1').await;
    receipt_paid_to(&repos, "order-2", '2').await;
    assert_eq!(repos.chain.fetch_cursor(1).await.unwrap(), None);
    let mut open = repos.chain.open_deposits(T0 + WINDOW_MS).await.unwrap();
    open.sort();
    assert_eq!(
        open,
        [wallet('1'), wallet('2')],
        "watched until their windows end"
    );
    assert_eq!(
        repos.chain.open_deposits(T0 + WINDOW_MS + 1).await.unwrap(),
        [],
        "payment windows that ended before the watch began"
    );

    let first = transfer('c', 0, 10, '1', 3_000_000);
    let cursor = |next_block: u64| ChainCursor {
        next_block,
        last_block_hash: Some(format!("0x{next_block:064x}")),
    };
    repos
        .chain
        .record_scan(1, &[first.clone(), first.clone()], &cursor(11), T0)
        .await
        .unwrap();
    let second = transfer('d', 3, 20, '1', 2_000_000);
    repos
        .chain
        .record_scan(1, &[first.clone(), second.clone()], &cursor(21), T0 + 1)
        .await
        .unwrap();

    assert_eq!(repos.chain.fetch_cursor(1).await.unwrap(), Some(cursor(21)));
    let funded = repos.chain.funded_deposits(1, 0).await.unwrap();
    assert_eq!(funded.len(), 1, "{funded:?}");
    assert_eq!(funded[0].receipt_id, receipt_id("order-1"));
    assert_eq!(funded[0].merchant, wallet('a'));
    assert_eq!(funded[0].total.as_i64(), 500);
    assert_eq!(
        funded[0].transfers,
        [first.clone(), second.clone()],
        "once each, in chain order"
    );
    assert_eq!(
        repos.chain.deposit_transfers(1, wallet('1')).await.unwrap(),
        [first, second],
        "a deposit's transfers, once each, in chain order"
    );
    assert_eq!(repos.chain.deposit_transfers(2, wallet('1')).await.unwrap(), []);
    assert_eq!(repos.chain.deposit_transfers(1, wallet('2')).await.unwrap(), []);
    assert_eq!(
        repos.chain.funded_deposits(2, 0).await.unwrap(),
        [],
        "another chain's records"
    );
    assert_eq!(
        repos.chain.settlements_due(T0, 10, false).await.unwrap(),
        [],
        "nothing the chain has paid"
    );

    repos
        .receipts
        .transition(fixtures::transition(
            wallet('a'),
            "order-2",
            fixtures::mark_paid(500),
        ))
        .await
        .unwrap();
    let mut still_open = repos.chain.open_deposits(T0).await.unwrap();
    still_open.sort();
    assert_eq!(
        still_open,
        [wallet('1'), wallet('2')],
        "a paid receipt's deposit stays watched"
    );
}

/// Schema v19: a transition records what the deposit held (`received_units`), and the funded deposits report
/// it with whether the receipt is paid, so the watcher sees only new money; a paid receipt past its watch
/// window is no longer reported.
pub(crate) async fn a_transition_records_what_the_deposit_received_and_funded_deposits_report_it(
    repos: Repositories,
) {
    receipt_paid_to(&repos, "order-3", '3').await;
    let cursor = ChainCursor {
        next_block: 11,
        last_block_hash: None,
    };
    let over = transfer('e', 0, 10, '3', 7_000_001);
    repos.chain.record_scan(1, &[over], &cursor, T0).await.unwrap();
    let before = repos.chain.funded_deposits(1, T0).await.unwrap();
    assert_eq!(before.len(), 1, "{before:?}");
    assert_eq!(
        (before[0].paid, before[0].received),
        (false, TokenAmount::from_base_units(0))
    );

    let paid = fixtures::mark_paid(500);
    let recording: fixtures::TransitionDecision = Box::new(move |receipt, merchant| {
        let mut commit = paid(receipt, merchant)?;
        if let Some(commit) = commit.as_mut() {
            commit.received = TokenAmount::from_base_units(7_000_001);
        }
        Ok(commit)
    });
    repos
        .receipts
        .transition(fixtures::transition(wallet('a'), "order-3", recording))
        .await
        .unwrap();

    let read = repos
        .receipts
        .fetch(Some(wallet('a')), &receipt_id("order-3"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(read.received, TokenAmount::from_base_units(7_000_001));
    let after = repos.chain.funded_deposits(1, T0).await.unwrap();
    assert_eq!(
        (after[0].paid, after[0].received),
        (true, TokenAmount::from_base_units(7_000_001))
    );
    assert_eq!(
        repos.chain.funded_deposits(1, T0 + WINDOW_MS + 1).await.unwrap(),
        [],
        "a paid receipt past its watch window"
    );
}
