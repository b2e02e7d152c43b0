use proptest::prelude::*;

use super::*;

fn volume(paid: i64, refunded: i64) -> ReserveVolume {
    ReserveVolume {
        paid: Cents::new(paid),
        refunded: Cents::new(refunded),
    }
}

#[test]
fn refunds_with_their_margin_decide_when_they_exceed_the_floor() {
    // 150 % of 40.00 = 60.00; 5 % of 200.00 = 10.00.
    let advice = ReserveRule::DEFAULT.recommend(volume(20_000, 4_000)).unwrap();

    assert_eq!(advice.refund_cover, Cents::new(6_000));
    assert_eq!(advice.paid_floor, Cents::new(1_000));
    assert_eq!(advice.amount, Cents::new(6_000));
    assert_eq!(advice.basis, ReserveBasis::Refunds);
}

#[test]
fn the_floor_share_of_paid_volume_decides_when_refunds_are_small() {
    // 5 % of 7.75 = 0.3875, rounded up to 0.39; no refunds.
    let advice = ReserveRule::DEFAULT.recommend(volume(775, 0)).unwrap();

    assert_eq!(advice.amount, Cents::new(39));
    assert_eq!(advice.basis, ReserveBasis::PaidFloor);
}

#[test]
fn every_part_is_rounded_up_to_the_cent() {
    // 150 % of 0.01 = 0.015 -> 0.02; 5 % of 0.01 = 0.0005 -> 0.01.
    let advice = ReserveRule::DEFAULT.recommend(volume(1, 1)).unwrap();

    assert_eq!(advice.refund_cover, Cents::new(2));
    assert_eq!(advice.paid_floor, Cents::new(1));
}

#[test]
fn no_volume_recommends_nothing() {
    let advice = ReserveRule::DEFAULT.recommend(volume(0, 0)).unwrap();

    assert_eq!(advice.amount, Cents::ZERO);
    assert_eq!(advice.basis, ReserveBasis::NoVolume);
}

#[test]
fn refunds_of_older_receipts_count_even_without_new_payments() {
    let advice = ReserveRule::DEFAULT.recommend(volume(0, 1_000)).unwrap();

    assert_eq!(advice.amount, Cents::new(1_500));
    assert_eq!(advice.basis, ReserveBasis::Refunds);
}

#[test]
fn a_negative_volume_is_refused() {
    assert!(matches!(
        ReserveRule::DEFAULT.recommend(volume(-1, 0)),
        Err(MoneyError::Negative { .. })
    ));
}

#[test]
fn a_reserve_beyond_cents_is_an_overflow_not_a_panic() {
    let rule = ReserveRule {
        refund_cover_bps: u32::MAX,
        ..ReserveRule::DEFAULT
    };

    assert_eq!(rule.recommend(volume(0, i64::MAX)), Err(MoneyError::Overflow));
}

#[test]
fn the_window_ends_now_and_spans_its_days() {
    let now = 1_700_000_000_000;

    assert_eq!(ReserveRule::DEFAULT.window_start(now), 1_697_408_000_000);
    assert_eq!(ReserveRule::DEFAULT.window_start(i64::MIN), i64::MIN);
}

proptest! {
    #[test]
    fn the_reserve_covers_both_parts_and_rounds_up_by_less_than_a_cent(
        paid in 0i64..1_000_000_000_000,
        refunded in 0i64..1_000_000_000_000,
    ) {
        let advice = ReserveRule::DEFAULT.recommend(volume(paid, refunded)).unwrap();
        // 150 % and 5 % exactly, in hundredths of a cent, against the rounded-up cents.
        let cover_exact = i128::from(refunded) * 15_000;
        let floor_exact = i128::from(paid) * 500;
        let cover = i128::from(advice.refund_cover.as_i64()) * 10_000;
        let floor = i128::from(advice.paid_floor.as_i64()) * 10_000;
        prop_assert!(cover >= cover_exact && cover - cover_exact < 10_000);
        prop_assert!(floor >= floor_exact && floor - floor_exact < 10_000);
        prop_assert_eq!(advice.amount, advice.refund_cover.max(advice.paid_floor));
    }
}
