use super::*;

fn units(base: u128) -> TokenAmount {
    TokenAmount::from_base_units(base)
}

fn seen(hash: &str, log_index: u64, amount: u128) -> LoggedTransfer {
    LoggedTransfer {
        transaction_hash: hash.to_owned(),
        log_index,
        amount: units(amount),
    }
}

#[test]
fn matching_transfers_and_total_are_no_difference_whatever_the_hash_case() {
    let database = [seen("0xAB", 1, 5_000_000), seen("0xcd", 0, 1)];
    let chain = [seen("0xcd", 0, 1), seen("0xab", 1, 5_000_000)];
    assert!(deposit_differences("receipt:r1", &database, &chain, units(5_000_001)).is_empty());
}

#[test]
fn a_transfer_on_one_side_only_or_with_another_amount_is_named_with_both_values() {
    let database = [seen("0xaa", 0, 100), seen("0xbb", 2, 7)];
    let chain = [seen("0xaa", 0, 101), seen("0xcc", 5, 9)];
    let found = deposit_differences("receipt:r1", &database, &chain, units(107));
    let named: Vec<(&str, &str, &str)> = found
        .iter()
        .map(|difference| {
            (
                difference.field.as_str(),
                difference.database.as_str(),
                difference.chain.as_str(),
            )
        })
        .collect();
    assert_eq!(
        named,
        [
            ("transfer 0xaa:0", "100", "101"),
            ("transfer 0xbb:2", "7", "absent"),
            ("transfer 0xcc:5", "absent", "9"),
            ("amountReceivedBaseUnits", "107", "110"),
        ]
    );
    assert!(found.iter().all(|difference| difference.subject == "receipt:r1"));
}

#[test]
fn a_received_total_that_is_not_the_chains_sum_is_a_difference_even_when_every_log_matches() {
    let transfers = [seen("0xaa", 0, 3_000_000)];
    let found = deposit_differences("receipt:r2", &transfers, &transfers, units(12_650_000));
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].field, "amountReceivedBaseUnits");
    assert_eq!(
        (found[0].database.as_str(), found[0].chain.as_str()),
        ("12650000", "3000000")
    );
}

#[test]
fn settlement_must_be_completed_exactly_when_the_deposit_was_forwarded() {
    assert!(settlement_differences("receipt:r", true, units(1)).is_empty());
    assert!(settlement_differences("receipt:r", false, units(0)).is_empty());
    let unforwarded = settlement_differences("receipt:r", true, units(0));
    assert_eq!(
        (unforwarded[0].database.as_str(), unforwarded[0].chain.as_str()),
        ("completed", "nothing forwarded")
    );
    let unrecorded = settlement_differences("receipt:r", false, units(42));
    assert_eq!(
        (unrecorded[0].database.as_str(), unrecorded[0].chain.as_str()),
        ("not settled", "forwarded 42")
    );
}

#[test]
fn a_refund_must_move_at_least_its_amount_and_a_charge_exactly_its_price() {
    let refund = |mined| {
        movement_differences(
            "receipt:r",
            "refund",
            "0xf1",
            Expected::AtLeast(units(500)),
            mined,
        )
    };
    assert!(refund(MinedMovement::Moved(units(500))).is_empty());
    assert!(refund(MinedMovement::Moved(units(501))).is_empty());
    assert_eq!(
        refund(MinedMovement::Moved(units(499)))[0].chain,
        "499 moved by 0xf1"
    );
    assert_eq!(refund(MinedMovement::Missing)[0].chain, "0xf1 absent");
    assert_eq!(refund(MinedMovement::Reverted)[0].chain, "0xf1 reverted");
    assert_eq!(refund(MinedMovement::Missing)[0].database, "500 by 0xf1");

    let charge = |mined| {
        movement_differences(
            "subscription:s",
            "charge 3",
            "0xc3",
            Expected::Exactly(units(990_000)),
            mined,
        )
    };
    assert!(charge(MinedMovement::Moved(units(990_000))).is_empty());
    assert_eq!(
        charge(MinedMovement::Moved(units(990_001)))[0].chain,
        "990001 moved by 0xc3"
    );
    assert_eq!(charge(MinedMovement::Moved(units(990_001)))[0].field, "charge 3");
}
