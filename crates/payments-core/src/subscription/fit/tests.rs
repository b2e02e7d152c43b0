use super::*;
use alloy_primitives::aliases::U48;
use alloy_primitives::{Bytes, U256, address};

const USDC: Address = address!("0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913");
const PLATFORM: Address = address!("0xCFF51a4cF434AF9f98f3d4276d14b977571d52b3");
const OTHER: Address = address!("0x0000000000000000000000000000000000000001");
/// One day after the permission's start, in unix ms.
const NOW: i64 = 1_768_416_400_000;

fn config() -> SpendingConfig {
    SpendingConfig {
        token: USDC,
        spender: PLATFORM,
    }
}

fn weekly_999() -> PlanTerms {
    PlanTerms {
        price: Cents::new(999),
        period: BillingPeriod::Weekly,
    }
}

/// A weekly permission of 9.99 USD from unix second 1_768_330_000 to 1_768_330_000 + 10 weeks.
fn permission() -> SpendPermission {
    SpendPermission {
        account: address!("0x16624e3d19e7cB99C70E7FeD141ab4eF96BaD05e"),
        spender: PLATFORM,
        token: USDC,
        allowance: U160::from(9_990_000_u64),
        period: U48::from(604_800_u64),
        start: U48::from(1_768_330_000_u64),
        end: U48::from(1_774_378_000_u64),
        salt: U256::from(1_u8),
        extra_data: Bytes::new(),
    }
}

fn check(permission: &SpendPermission, plan: &PlanTerms) -> Result<(), PlanFitError> {
    check_permission_fits_plan(permission, plan, &config(), NOW, NOW)
}

#[test]
fn a_matching_permission_fits_the_plan() {
    assert_eq!(check(&permission(), &weekly_999()), Ok(()));
}

#[test]
fn an_allowance_above_the_price_fits() {
    let generous = SpendPermission {
        allowance: U160::MAX,
        ..permission()
    };

    assert_eq!(check(&generous, &weekly_999()), Ok(()));
}

#[test]
fn another_token_is_refused() {
    let other_token = SpendPermission {
        token: OTHER,
        ..permission()
    };

    assert_eq!(
        check(&other_token, &weekly_999()),
        Err(PlanFitError::WrongToken {
            expected: USDC,
            actual: OTHER
        })
    );
}

#[test]
fn another_spender_is_refused() {
    let other_spender = SpendPermission {
        spender: OTHER,
        ..permission()
    };

    assert_eq!(
        check(&other_spender, &weekly_999()),
        Err(PlanFitError::WrongSpender {
            expected: PLATFORM,
            actual: OTHER
        })
    );
}

#[test]
fn a_period_other_than_the_plan_period_is_refused() {
    let monthly_plan = PlanTerms {
        period: BillingPeriod::Monthly,
        ..weekly_999()
    };

    assert_eq!(
        check(&permission(), &monthly_plan),
        Err(PlanFitError::WrongPeriod {
            expected_secs: 2_592_000,
            actual_secs: 604_800
        })
    );
}

#[test]
fn an_allowance_one_unit_below_the_price_is_refused() {
    let short = SpendPermission {
        allowance: U160::from(9_989_999_u64),
        ..permission()
    };

    assert_eq!(
        check(&short, &weekly_999()),
        Err(PlanFitError::AllowanceBelowPrice {
            allowance: U160::from(9_989_999_u64),
            required: TokenAmount::from_base_units(9_990_000)
        })
    );
}

#[test]
fn a_negative_price_is_refused() {
    let negative = PlanTerms {
        price: Cents::new(-1),
        ..weekly_999()
    };

    assert_eq!(
        check(&permission(), &negative),
        Err(PlanFitError::NegativePrice {
            price: Cents::new(-1)
        })
    );
}

#[test]
fn a_permission_that_starts_later_is_refused() {
    let later = SpendPermission {
        start: U48::from(1_768_416_401_u64),
        ..permission()
    };

    assert_eq!(
        check(&later, &weekly_999()),
        Err(PlanFitError::NotStarted {
            start_secs: 1_768_416_401,
            now_ms: NOW
        })
    );
}

#[test]
fn a_permission_starting_exactly_now_fits() {
    let starts_now = SpendPermission {
        start: U48::from(1_768_416_400_u64),
        ..permission()
    };

    assert_eq!(check(&starts_now, &weekly_999()), Ok(()));
}

#[test]
fn a_permission_ending_now_is_refused() {
    let ended = SpendPermission {
        end: U48::from(1_768_416_400_u64),
        ..permission()
    };

    assert_eq!(
        check(&ended, &weekly_999()),
        Err(PlanFitError::Ended {
            end_secs: 1_768_416_400,
            now_ms: NOW
        })
    );
}

#[test]
fn a_permission_ending_at_the_next_charge_is_refused() {
    let one_week = SpendPermission {
        end: U48::from(1_769_021_200_u64),
        ..permission()
    };

    assert_eq!(
        check(&one_week, &weekly_999()),
        Err(PlanFitError::EndsBeforeNextCharge {
            end_secs: 1_769_021_200,
            next_charge_ms: 1_769_021_200_000
        })
    );
}

#[test]
fn a_permission_ending_just_after_the_next_charge_fits() {
    let just_enough = SpendPermission {
        end: U48::from(1_769_021_201_u64),
        ..permission()
    };

    assert_eq!(check(&just_enough, &weekly_999()), Ok(()));
}

#[test]
fn the_next_charge_follows_the_anchor_not_now() {
    // Anchored three days before now: the next charge is four days away, before the permission ends.
    let five_days = SpendPermission {
        end: U48::from(1_768_848_400_u64),
        ..permission()
    };
    let anchor = NOW - 3 * 86_400_000;

    let result = check_permission_fits_plan(&five_days, &weekly_999(), &config(), anchor, NOW);

    assert_eq!(result, Ok(()));
}
