use proptest::prelude::*;

use super::*;

fn wallet(n: u8) -> Wallet {
    Wallet::parse(&format!("0x{n:040x}")).unwrap()
}

fn recipient(n: u8, bps: u32) -> SplitRecipient {
    SplitRecipient {
        address: wallet(n),
        shares_bps: bps,
    }
}

#[test]
fn shares_summing_to_exactly_10000_are_accepted() {
    let split = Split::new(vec![recipient(1, 9950), recipient(2, 50)]).unwrap();
    assert_eq!(split.share_of(wallet(2)), Some(50));
}

#[test]
fn each_split_rule_has_its_own_error() {
    assert_eq!(Split::new(vec![]), Err(SplitError::Empty));
    assert_eq!(
        Split::new(vec![recipient(1, 9999)]),
        Err(SplitError::SharesDoNotSumToWhole { sum: 9999 })
    );
    assert_eq!(
        Split::new(vec![recipient(1, 10000), recipient(2, 1)]),
        Err(SplitError::SharesDoNotSumToWhole { sum: 10001 })
    );
    assert_eq!(
        Split::new(vec![recipient(1, 10000), recipient(2, 0)]),
        Err(SplitError::ZeroShare { address: wallet(2) })
    );
    assert_eq!(
        Split::new(vec![recipient(1, 5000), recipient(1, 5000)]),
        Err(SplitError::DuplicateRecipient { address: wallet(1) })
    );
    let many: Vec<_> = (0..33).map(|n| recipient(n, 1)).collect();
    assert!(matches!(
        Split::new(many),
        Err(SplitError::TooManyRecipients { count: 33, .. })
    ));
}

#[test]
fn addresses_differing_only_in_case_are_duplicates() {
    let json = r#"[{"address":"0xABCDEF0000000000000000000000000000000001","sharesBps":5000},
                   {"address":"0xabcdef0000000000000000000000000000000001","sharesBps":5000}]"#;
    assert!(serde_json::from_str::<Split>(json).is_err());
}

#[test]
fn the_rounding_remainder_goes_to_the_first_recipient_as_on_chain() {
    // The figures contracts/smoke.sh reads back from the Split contract on anvil: 9000/700/300 bps of
    // 1 000 001 units pay 900 001, 70 000 and 30 000.
    let on_chain = Split::new(vec![recipient(1, 9000), recipient(2, 700), recipient(3, 300)]).unwrap();
    assert_eq!(
        on_chain.allocate(1_000_001),
        vec![(wallet(1), 900_001), (wallet(2), 70_000), (wallet(3), 30_000)]
    );
    let thirds = Split::new(vec![recipient(1, 3333), recipient(2, 3333), recipient(3, 3334)]).unwrap();
    assert_eq!(
        thirds.allocate(100),
        vec![(wallet(1), 34), (wallet(2), 33), (wallet(3), 33)]
    );
    let even = Split::new(vec![recipient(1, 5000), recipient(2, 5000)]).unwrap();
    assert_eq!(even.allocate(1), vec![(wallet(1), 1), (wallet(2), 0)]);
}

#[test]
fn allocation_of_the_largest_amount_does_not_overflow() {
    let split = Split::new(vec![recipient(1, 9999), recipient(2, 1)]).unwrap();
    let parts = split.allocate(u128::MAX);
    assert_eq!(parts.iter().map(|p| p.1).sum::<u128>(), u128::MAX);
}

proptest! {
    #[test]
    fn parts_always_sum_to_the_whole(
        shares in proptest::collection::vec(1u32..2000, 1..20),
        amount in 0u128..1_000_000_000_000_000,
    ) {
        // Scale arbitrary weights to exactly 10000 bps: the last recipient takes the rounding.
        let weight: u32 = shares.iter().sum();
        let mut bps: Vec<u32> = shares.iter().map(|s| (s * 10_000 / weight).max(1)).collect();
        let assigned: u32 = bps[..bps.len() - 1].iter().sum();
        prop_assume!(assigned < 10_000);
        let last = bps.len() - 1;
        bps[last] = 10_000 - assigned;
        let recipients: Vec<_> = bps.iter().enumerate().map(|(i, b)| recipient(i as u8, *b)).collect();
        let split = Split::new(recipients).unwrap();
        let parts = split.allocate(amount);
        prop_assert_eq!(parts.iter().map(|p| p.1).sum::<u128>(), amount);
        for ((_, part), share) in parts.iter().zip(&bps).skip(1) {
            // Every recipient after the first gets its exact share rounded down.
            let exact_x10000 = amount * u128::from(*share);
            prop_assert!(part * 10_000 <= exact_x10000 && exact_x10000 < part * 10_000 + 10_000);
        }
        // The first gets its exact share plus less than one unit per other recipient.
        let first_exact_x10000 = amount * u128::from(bps[0]);
        let others = (parts.len() - 1) as u128;
        prop_assert!(parts[0].1 * 10_000 >= first_exact_x10000);
        prop_assert!(parts[0].1 * 10_000 < first_exact_x10000 + (others + 1) * 10_000);
    }
}
