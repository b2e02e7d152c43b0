//! Schema v21: finality and reorganisations after paid. A transfer the watcher's re-check finds removed stops
//! counting (its receipt stays funded, with nothing), one it finds moved is recorded in its new block, one
//! that comes back counts again; the recorded tip says how deep and how final a paid receipt's payment is,
//! and settlement can wait for finality.

use crate::Repositories;
use crate::chain::receipt_paid_to;
use crate::fixtures::{self, T0, wallet};
use payments_core::PaymentBlock;
use payments_store::{ChainCursor, ChainTip, Recheck, RecordedTransfer, TransferKey};

/// The hash `fixtures::mark_paid` records as the paying transaction.
fn paying_hash() -> String {
    format!("0x{}", "ab".repeat(32))
}

fn transfer(hash: String, log_index: u64, block: u64, amount: u128) -> RecordedTransfer {
    RecordedTransfer {
        transaction_hash: hash,
        log_index,
        block_number: block,
        block_hash: format!("0x{}", "b".repeat(64)),
        token: wallet('7'),
        from: wallet('8'),
        to: wallet('4'),
        amount: Some(amount),
    }
}

fn recheck(
    head: u64,
    finalized: u64,
    removed: &[&RecordedTransfer],
    present: &[&RecordedTransfer],
) -> Recheck {
    Recheck {
        tip: ChainTip { head, finalized },
        removed: removed
            .iter()
            .map(|transfer| TransferKey {
                transaction_hash: transfer.transaction_hash.clone(),
                log_index: transfer.log_index,
            })
            .collect(),
        present: present.iter().map(|transfer| (*transfer).clone()).collect(),
    }
}

pub(crate) async fn a_removed_transfer_stops_counting_until_it_comes_back_and_the_tip_says_how_final_a_payment_is(
    repos: Repositories,
) {
    receipt_paid_to(&repos, "order-f", '4').await;
    let paying = transfer(paying_hash(), 0, 10, 5_000_000);
    let stray = transfer(format!("0x{}", "f".repeat(64)), 1, 12, 1);
    let cursor = |next_block: u64| ChainCursor {
        next_block,
        last_block_hash: None,
    };
    let chain = &repos.chain;
    chain
        .record_scan(1, &[paying.clone(), stray.clone()], &cursor(13), T0)
        .await
        .unwrap();
    repos
        .receipts
        .transition(fixtures::transition(
            wallet('a'),
            "order-f",
            fixtures::mark_paid(500),
        ))
        .await
        .unwrap();

    assert_eq!(
        chain.payment_block(wallet('4'), &paying_hash()).await.unwrap(),
        None,
        "no tip recorded yet"
    );
    assert_eq!(chain.settlements_due(T0, 10, false).await.unwrap().len(), 1);
    assert_eq!(
        chain.settlements_due(T0, 10, true).await.unwrap(),
        [],
        "nothing is final before the watcher says so"
    );

    chain
        .record_recheck(1, &recheck(15, 9, &[], &[]), T0 + 1)
        .await
        .unwrap();
    assert_eq!(
        chain.payment_block(wallet('4'), &paying_hash()).await.unwrap(),
        Some(PaymentBlock::at(10, paying.block_hash.clone(), 15, 9))
    );
    let watched = chain.unfinalized_transfers(1, 9, 10).await.unwrap();
    let listed: Vec<_> = watched.iter().map(|w| (w.transfer.clone(), w.removed)).collect();
    assert_eq!(listed, [(paying.clone(), false), (stray.clone(), false)]);
    assert_eq!(
        chain.unfinalized_transfers(1, 9, 1).await.unwrap().len(),
        1,
        "at most the limit"
    );
    assert_eq!(
        chain.unfinalized_transfers(1, 12, 10).await.unwrap(),
        [],
        "final blocks"
    );

    let moved = RecordedTransfer {
        block_number: 11,
        block_hash: format!("0x{}", "c".repeat(64)),
        ..paying.clone()
    };
    chain
        .record_recheck(1, &recheck(80, 10, &[&stray], &[&moved]), T0 + 2)
        .await
        .unwrap();
    assert_eq!(
        chain.deposit_transfers(1, wallet('4')).await.unwrap(),
        std::slice::from_ref(&moved),
        "the removed transfer is no longer listed, the moved one is where it is now"
    );
    assert_eq!(
        chain.funded_deposits(1, 0).await.unwrap()[0].transfers,
        std::slice::from_ref(&moved)
    );
    assert_eq!(
        chain.payment_block(wallet('4'), &paying_hash()).await.unwrap(),
        Some(PaymentBlock::at(11, moved.block_hash.clone(), 80, 10))
    );
    let watched = chain.unfinalized_transfers(1, 10, 10).await.unwrap();
    let listed: Vec<_> = watched.iter().map(|w| (w.transfer.clone(), w.removed)).collect();
    assert_eq!(
        listed,
        [(moved.clone(), false), (stray.clone(), true)],
        "removed transfers stay re-checked: they may come back"
    );

    chain
        .record_recheck(1, &recheck(81, 10, &[&moved], &[]), T0 + 3)
        .await
        .unwrap();
    let funded = chain.funded_deposits(1, 0).await.unwrap();
    assert_eq!(
        funded.len(),
        1,
        "a receipt whose transfers were all removed is still funded: {funded:?}"
    );
    assert_eq!(funded[0].transfers, []);
    assert_eq!(
        chain.payment_block(wallet('4'), &paying_hash()).await.unwrap(),
        None
    );

    chain
        .record_scan(1, std::slice::from_ref(&moved), &cursor(82), T0 + 4)
        .await
        .unwrap();
    assert_eq!(
        chain.funded_deposits(1, 0).await.unwrap()[0].transfers,
        std::slice::from_ref(&moved),
        "back: counted"
    );
    chain
        .record_recheck(1, &recheck(90, 11, &[], &[]), T0 + 5)
        .await
        .unwrap();
    let block = chain.payment_block(wallet('4'), &paying_hash()).await.unwrap();
    assert_eq!(
        block.map(|block| (block.confirmations, block.finalized)),
        Some((79, true))
    );
    assert_eq!(
        chain.settlements_due(T0, 10, true).await.unwrap().len(),
        1,
        "due once every counted transfer is final"
    );
}
