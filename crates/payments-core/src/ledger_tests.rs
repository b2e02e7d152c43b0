use super::*;
use crate::SplitRecipient;

fn wallet(last: char) -> Wallet {
    format!("0x{}", last.to_string().repeat(40)).parse().unwrap()
}

fn units(base_units: u128) -> TokenAmount {
    TokenAmount::from_base_units(base_units)
}

#[test]
fn a_transfer_of_exactly_what_is_due_is_all_payment() {
    let legs = deposit_legs("r", wallet('b'), units(12_650_000), units(0), units(12_650_000));
    assert_eq!(legs.len(), 1);
    assert_eq!(legs[0].movement, LedgerMovement::Payment);
    assert_eq!(legs[0].amount, units(12_650_000));
    assert_eq!(legs[0].debit.to_string(), "deposit:r");
    assert_eq!(legs[0].credit.to_string(), format!("buyer:{}", wallet('b')));
}

#[test]
fn a_transfer_after_the_total_arrived_is_all_overpayment() {
    let legs = deposit_legs("r", wallet('b'), units(1_000_000), units(1_000_000), units(7));
    assert_eq!(legs.len(), 1);
    assert_eq!(
        (legs[0].movement, legs[0].amount),
        (LedgerMovement::Overpayment, units(7))
    );
}

#[test]
fn underpayments_are_payments_and_only_the_transfer_crossing_the_total_splits() {
    let total = units(10_000_000);
    let first = deposit_legs("r", wallet('b'), total, units(0), units(4_000_000));
    let second = deposit_legs("r", wallet('b'), total, units(4_000_000), units(4_000_000));
    let third = deposit_legs("r", wallet('b'), total, units(8_000_000), units(2_000_001));
    let movements: Vec<_> = [first, second, third]
        .concat()
        .into_iter()
        .map(|leg| (leg.movement, leg.amount))
        .collect();
    assert_eq!(
        movements,
        [
            (LedgerMovement::Payment, units(4_000_000)),
            (LedgerMovement::Payment, units(4_000_000)),
            (LedgerMovement::Payment, units(2_000_000)),
            (LedgerMovement::Overpayment, units(1)),
        ]
    );
}

#[test]
fn a_settlement_pays_out_the_whole_deposit_and_names_the_platform_share() {
    let split = Split::new(vec![
        SplitRecipient {
            address: wallet('a'),
            shares_bps: 9_750,
        },
        SplitRecipient {
            address: wallet('f'),
            shares_bps: 250,
        },
    ])
    .unwrap();
    let legs = settlement_legs("r", &split, Some(wallet('f')), units(12_650_001));
    let paid_out: u128 = legs.iter().map(|leg| leg.amount.base_units()).sum();
    assert_eq!(paid_out, 12_650_001);
    assert_eq!(legs[0].movement, LedgerMovement::SplitShare);
    assert_eq!(legs[1].movement, LedgerMovement::PlatformFee);
    assert_eq!(legs[1].amount, units(316_250));
    assert!(legs.iter().all(|leg| leg.credit.to_string() == "deposit:r"));
}

#[test]
fn a_settlement_without_the_platform_among_the_recipients_is_all_split_shares() {
    let split = Split::new(vec![SplitRecipient {
        address: wallet('a'),
        shares_bps: 10_000,
    }])
    .unwrap();
    let legs = settlement_legs("r", &split, Some(wallet('f')), units(5));
    assert_eq!(legs.len(), 1);
    assert_eq!(
        (legs[0].movement, legs[0].amount),
        (LedgerMovement::SplitShare, units(5))
    );
}

#[test]
fn a_charge_credits_the_customer_with_the_price_and_pays_merchant_and_platform() {
    let legs = charge_legs(
        wallet('c'),
        wallet('a'),
        Some(wallet('f')),
        units(985_050),
        units(4_950),
    );
    assert_eq!(legs.len(), 2);
    assert_eq!(legs[0].debit.to_string(), format!("merchant:{}", wallet('a')));
    assert_eq!(legs[1].debit.to_string(), format!("platform:{}", wallet('f')));
    assert!(
        legs.iter()
            .all(|leg| leg.credit == LedgerAccount::Customer(wallet('c')))
    );
    assert_eq!(
        legs.iter().map(|leg| leg.amount.base_units()).sum::<u128>(),
        990_000
    );
}

#[test]
fn a_charge_read_without_a_platform_wallet_still_books_its_fee() {
    let legs = charge_legs(wallet('c'), wallet('a'), None, units(985_050), units(4_950));
    assert_eq!(legs[1].debit.to_string(), "platform:unconfigured");
    let free = charge_legs(wallet('c'), wallet('a'), None, units(990_000), units(0));
    assert_eq!(free.len(), 1);
}

#[test]
fn a_refund_moves_money_from_the_merchant_to_the_buyer() {
    let leg = refund_leg(wallet('a'), wallet('b'), units(100));
    assert_eq!(leg.movement.as_str(), "refund");
    assert_eq!(leg.debit, LedgerAccount::Buyer(wallet('b')));
    assert_eq!(leg.credit, LedgerAccount::Merchant(wallet('a')));
}
