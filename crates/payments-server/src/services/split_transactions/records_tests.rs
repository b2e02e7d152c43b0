use alloy_primitives::B256;
use payments_core::{Split, SplitRecipient, TokenAmount, Wallet};

use super::*;
use crate::chain::{BlockRef, TokenTransfer};

fn wallet(digit: char) -> Wallet {
    Wallet::parse(&format!("0x{}", digit.to_string().repeat(40))).unwrap()
}

const SPLIT: char = '5';
const MERCHANT: char = 'a';
const PLATFORM: char = 'f';
const DEPOSIT: char = 'd';

fn split() -> Split {
    Split::new(vec![
        SplitRecipient {
            address: wallet(MERCHANT),
            shares_bps: 9_950,
        },
        SplitRecipient {
            address: wallet(PLATFORM),
            shares_bps: 50,
        },
    ])
    .unwrap()
}

fn transfer(tx: u8, block: u64, log_index: u64, from: char, to: char, units: u128) -> TokenTransfer {
    TokenTransfer {
        token: wallet('7'),
        from: wallet(from),
        to: wallet(to),
        amount: Some(TokenAmount::from_base_units(units)),
        transaction_hash: B256::repeat_byte(tx),
        log_index,
        block: BlockRef {
            number: block,
            hash: B256::repeat_byte(block as u8),
        },
    }
}

/// A forwarded 7.75 USD deposit, then its distribution (99.5 % / 0.5 %).
fn settled_receipt() -> Vec<TokenTransfer> {
    vec![
        transfer(1, 5, 0, DEPOSIT, SPLIT, 7_750_000),
        transfer(2, 6, 3, SPLIT, MERCHANT, 7_711_250),
        transfer(2, 6, 4, SPLIT, PLATFORM, 38_750),
    ]
}

#[test]
fn a_forwarded_deposit_and_its_distribution_are_two_records_with_the_platform_part_as_fees() {
    let records = flow_records(
        &settled_receipt(),
        wallet(SPLIT),
        &split(),
        Some(wallet(PLATFORM)),
        View::Split,
    );

    assert_eq!(records.len(), 2);
    let (inflow, payout) = (&records[0], &records[1]);
    assert_eq!(inflow.flow, SplitFlow::Received);
    assert_eq!(inflow.amount, TokenAmount::from_base_units(7_750_000));
    assert_eq!(inflow.fees, TokenAmount::from_base_units(38_750));
    assert_eq!(inflow.sender, Some(wallet(DEPOSIT)));
    assert_eq!(
        inflow.position,
        LogPosition {
            block: 5,
            log_index: 0
        }
    );
    assert_eq!(payout.flow, SplitFlow::Distributed);
    assert_eq!(payout.amount, TokenAmount::from_base_units(7_750_000));
    assert_eq!(payout.fees, TokenAmount::from_base_units(38_750));
    assert_eq!(
        payout.position,
        LogPosition {
            block: 6,
            log_index: 3
        }
    );
    assert_eq!(payout.transaction_hash, B256::repeat_byte(2));
}

#[test]
fn a_recipients_view_shows_only_payouts_with_its_own_part() {
    let records = flow_records(
        &settled_receipt(),
        wallet(SPLIT),
        &split(),
        Some(wallet(PLATFORM)),
        View::Recipient(wallet(MERCHANT)),
    );

    assert_eq!(records.len(), 1);
    assert_eq!(records[0].flow, SplitFlow::Distributed);
    assert_eq!(records[0].amount, TokenAmount::from_base_units(7_711_250));
    assert_eq!(records[0].fees, TokenAmount::from_base_units(38_750));
}

#[test]
fn a_payout_that_skipped_the_recipient_is_not_in_its_view() {
    let release = vec![transfer(3, 9, 0, SPLIT, PLATFORM, 10)];

    let records = flow_records(
        &release,
        wallet(SPLIT),
        &split(),
        Some(wallet(PLATFORM)),
        View::Recipient(wallet(MERCHANT)),
    );

    assert!(records.is_empty());
}

#[test]
fn without_a_platform_recipient_there_are_no_fees() {
    let records = flow_records(&settled_receipt(), wallet(SPLIT), &split(), None, View::Split);

    assert!(records.iter().all(|record| record.fees == TokenAmount::default()));
}

#[test]
fn one_transaction_receiving_and_paying_out_keeps_one_position_for_both_records() {
    let both = vec![
        transfer(4, 8, 10, DEPOSIT, SPLIT, 100),
        transfer(4, 8, 11, SPLIT, MERCHANT, 100),
        transfer(4, 8, 12, SPLIT, SPLIT, 5),
    ];

    let records = flow_records(
        &both,
        wallet(SPLIT),
        &split(),
        Some(wallet(PLATFORM)),
        View::Split,
    );

    assert_eq!(records.len(), 2);
    assert_eq!(records[0].position, records[1].position);
    assert_eq!((records[0].first_log, records[1].first_log), (10, 11));
    assert_eq!(records[1].amount, TokenAmount::from_base_units(100));
}
