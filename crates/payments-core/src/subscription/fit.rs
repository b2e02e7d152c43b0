//! Whether a signed spend permission can pay for a plan.

use super::{BillingPeriod, next_charge_at};
use crate::{Cents, SpendPermission, TokenAmount};
use alloy_primitives::Address;
use alloy_primitives::aliases::U160;
use thiserror::Error;

/// What a plan charges: the price per period and the period.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PlanTerms {
    /// The price charged each period.
    pub price: Cents,
    /// How often the price is charged.
    pub period: BillingPeriod,
}

/// The platform's side of every spend permission: which token it must allow and who may spend it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SpendingConfig {
    /// The configured stablecoin contract (6 decimals).
    pub token: Address,
    /// The platform's spender address, which charges subscriptions.
    pub spender: Address,
}

/// Checks that `permission` can pay for `plan` on the schedule anchored at `anchor_ms`, at `now_ms`
/// (unix milliseconds):
///
/// - its token is [`SpendingConfig::token`] and its spender [`SpendingConfig::spender`];
/// - its period is exactly the plan period in seconds ([`BillingPeriod::seconds`]);
/// - its allowance covers the price in token base units (`price_cents * 10_000`);
/// - it has started (`start <= now`);
/// - it has not ended (`end > now`) and is still valid at the next charge after now
///   (`end > next_charge_at(anchor, period, now)`), since the contract refuses to spend at or after `end`.
///
/// The checks run in that order and the first mismatch is returned. The signature is checked separately
/// with [`SpendPermission::verify`].
///
/// # Errors
///
/// One [`PlanFitError`] variant per mismatch, and [`PlanFitError::NegativePrice`] for a negative price.
pub fn check_permission_fits_plan(
    permission: &SpendPermission,
    plan: &PlanTerms,
    config: &SpendingConfig,
    anchor_ms: i64,
    now_ms: i64,
) -> Result<(), PlanFitError> {
    if permission.token != config.token {
        return Err(PlanFitError::WrongToken {
            expected: config.token,
            actual: permission.token,
        });
    }
    if permission.spender != config.spender {
        return Err(PlanFitError::WrongSpender {
            expected: config.spender,
            actual: permission.spender,
        });
    }
    if permission.period_secs() != plan.period.seconds() {
        return Err(PlanFitError::WrongPeriod {
            expected_secs: plan.period.seconds(),
            actual_secs: permission.period_secs(),
        });
    }
    let required = plan
        .price
        .to_token_amount()
        .map_err(|_| PlanFitError::NegativePrice { price: plan.price })?;
    if permission.allowance < U160::from(required.base_units()) {
        return Err(PlanFitError::AllowanceBelowPrice {
            allowance: permission.allowance,
            required,
        });
    }
    let start_ms = secs_to_ms(permission.start_secs());
    if start_ms > now_ms {
        return Err(PlanFitError::NotStarted {
            start_secs: permission.start_secs(),
            now_ms,
        });
    }
    let end_ms = secs_to_ms(permission.end_secs());
    if end_ms <= now_ms {
        return Err(PlanFitError::Ended {
            end_secs: permission.end_secs(),
            now_ms,
        });
    }
    let next_charge_ms = next_charge_at(anchor_ms, plan.period, now_ms);
    if end_ms <= next_charge_ms {
        return Err(PlanFitError::EndsBeforeNextCharge {
            end_secs: permission.end_secs(),
            next_charge_ms,
        });
    }
    Ok(())
}

/// Permission times are `uint48` seconds, so the product stays far below `i64::MAX`.
fn secs_to_ms(secs: u64) -> i64 {
    i64::try_from(secs)
        .ok()
        .and_then(|secs| secs.checked_mul(1000))
        .unwrap_or(i64::MAX)
}

/// Why a spend permission cannot pay for a plan: one variant per mismatch.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PlanFitError {
    /// The permission allows a token other than the configured stablecoin.
    #[error("permission token {actual} is not the configured token {expected}")]
    WrongToken {
        /// The configured stablecoin.
        expected: Address,
        /// The permission's token.
        actual: Address,
    },
    /// The permission names a spender other than the platform's.
    #[error("permission spender {actual} is not the platform spender {expected}")]
    WrongSpender {
        /// The platform spender.
        expected: Address,
        /// The permission's spender.
        actual: Address,
    },
    /// The permission period is not the plan period.
    #[error("permission period of {actual_secs} seconds is not the plan period of {expected_secs} seconds")]
    WrongPeriod {
        /// The plan period in seconds.
        expected_secs: u64,
        /// The permission period in seconds.
        actual_secs: u64,
    },
    /// The plan price is negative, which no plan may be.
    #[error("plan price {price} is negative")]
    NegativePrice {
        /// The plan price.
        price: Cents,
    },
    /// The allowance per period is less than the price.
    #[error("permission allowance of {allowance} base units is below the price of {required} base units")]
    AllowanceBelowPrice {
        /// The permission allowance in base units.
        allowance: U160,
        /// The plan price in base units.
        required: TokenAmount,
    },
    /// The permission only starts later.
    #[error("permission starts at {start_secs} (unix seconds), after now ({now_ms} ms)")]
    NotStarted {
        /// The permission start, unix seconds.
        start_secs: u64,
        /// The time of the check, unix milliseconds.
        now_ms: i64,
    },
    /// The permission has already ended.
    #[error("permission ended at {end_secs} (unix seconds), not after now ({now_ms} ms)")]
    Ended {
        /// The permission end, unix seconds.
        end_secs: u64,
        /// The time of the check, unix milliseconds.
        now_ms: i64,
    },
    /// The permission ends before the next scheduled charge could be made.
    #[error("permission ends at {end_secs} (unix seconds), not after the next charge at {next_charge_ms} ms")]
    EndsBeforeNextCharge {
        /// The permission end, unix seconds.
        end_secs: u64,
        /// The next scheduled charge, unix milliseconds.
        next_charge_ms: i64,
    },
}

#[cfg(test)]
mod tests {
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
}
