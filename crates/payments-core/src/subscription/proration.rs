//! What a mid-period plan change costs or credits: the price difference for the part of the current period
//! that is left, exact to the token's base unit. The plan-change route is not built yet (see
//! `docs/subscriptions.md`, "Plan changes"); this is its arithmetic, kept in the core so the rule is one
//! pure function with its edge cases tested.

use thiserror::Error;

use crate::TokenAmount;

/// A plan change's effect on money, for the rest of the current period.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Proration {
    /// An upgrade: charged at once.
    Charge(TokenAmount),
    /// A downgrade: taken off the next charge (what exceeds it off the charges after).
    Credit(TokenAmount),
    /// Same price, or no time left in the period.
    Nothing,
}

/// A period that cannot be prorated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ProrationError {
    /// The period's end is not after its start.
    #[error("the period ends at {end_ms} ms, not after its start at {start_ms} ms")]
    EmptyPeriod {
        /// The period's start, unix ms.
        start_ms: i64,
        /// The period's end, unix ms.
        end_ms: i64,
    },
}

/// The proration of a change from `old_price` to `new_price` (per period, in base units) at `at_ms`,
/// within the period `[start_ms, end_ms)` already paid at `old_price`:
///
/// `difference × (end − at) / (end − start)`, rounded half up to the base unit, where `difference` is
/// `new − old` (a charge) or `old − new` (a credit). A change at or before the start prorates the whole
/// difference; one at or after the end, nothing. Integer arithmetic only: no input overflows (a price is
/// at most 2^128 base units and a period at most 2^63 ms, so the product is computed in 256 bits).
///
/// ```
/// use payments_core::{Proration, TokenAmount, prorate};
/// let day = 86_400_000;
/// // $10 → $25 a month (30 days), changed with 12 days left: 15 × 12 / 30 = $6.
/// let change = prorate(
///     TokenAmount::from_base_units(10_000_000),
///     TokenAmount::from_base_units(25_000_000),
///     0,
///     30 * day,
///     18 * day,
/// );
/// assert_eq!(change, Ok(Proration::Charge(TokenAmount::from_base_units(6_000_000))));
/// ```
///
/// # Errors
/// [`ProrationError::EmptyPeriod`] when `end_ms <= start_ms`.
pub fn prorate(
    old_price: TokenAmount,
    new_price: TokenAmount,
    start_ms: i64,
    end_ms: i64,
    at_ms: i64,
) -> Result<Proration, ProrationError> {
    if end_ms <= start_ms {
        return Err(ProrationError::EmptyPeriod { start_ms, end_ms });
    }
    let length = u128::try_from(i128::from(end_ms) - i128::from(start_ms)).unwrap_or(u128::MAX);
    let left = i128::from(end_ms) - i128::from(at_ms.max(start_ms));
    let left = u128::try_from(left.max(0)).unwrap_or(0);
    let (old, new) = (old_price.base_units(), new_price.base_units());
    let share = |difference: u128| TokenAmount::from_base_units(scale_half_up(difference, left, length));
    Ok(match new.cmp(&old) {
        std::cmp::Ordering::Greater if left > 0 => Proration::Charge(share(new - old)),
        std::cmp::Ordering::Less if left > 0 => Proration::Credit(share(old - new)),
        _ => Proration::Nothing,
    })
}

/// `value × numerator / denominator` rounded half up, for `numerator <= denominator < 2^64` (a period in
/// ms): with `value = whole × denominator + rest`, the result is `whole × numerator` plus `rest × numerator /
/// denominator`, and `rest × numerator < 2^128` always fits.
fn scale_half_up(value: u128, numerator: u128, denominator: u128) -> u128 {
    let (whole, rest) = (value / denominator, value % denominator);
    let product = rest.saturating_mul(numerator);
    let (quotient, remainder) = (product / denominator, product % denominator);
    let tail = quotient + u128::from(remainder.saturating_mul(2) >= denominator);
    whole.saturating_mul(numerator).saturating_add(tail)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: i64 = 86_400_000;
    const MONTH: i64 = 30 * DAY;

    fn units(value: u128) -> TokenAmount {
        TokenAmount::from_base_units(value)
    }

    #[test]
    fn an_upgrade_with_twelve_of_thirty_days_left_charges_twelve_thirtieths_of_the_difference() {
        let change = prorate(units(10_000_000), units(25_000_000), 0, MONTH, 18 * DAY);

        assert_eq!(change, Ok(Proration::Charge(units(6_000_000))));
    }

    #[test]
    fn a_downgrade_credits_the_difference_for_the_time_left() {
        let change = prorate(units(25_000_000), units(10_000_000), 0, MONTH, 20 * DAY);

        assert_eq!(change, Ok(Proration::Credit(units(5_000_000))));
    }

    #[test]
    fn a_third_of_a_base_unit_rounds_down_and_a_half_rounds_up() {
        // 1 unit × 1/3 = 0.333… → 0; 1 unit × 1/2 = 0.5 → 1; 2 units × 2/3 = 1.333… → 1.
        assert_eq!(
            prorate(units(0), units(1), 0, 3, 2),
            Ok(Proration::Charge(units(0)))
        );
        assert_eq!(
            prorate(units(0), units(1), 0, 2, 1),
            Ok(Proration::Charge(units(1)))
        );
        assert_eq!(
            prorate(units(0), units(2), 0, 3, 1),
            Ok(Proration::Charge(units(1)))
        );
    }

    #[test]
    fn an_odd_price_difference_is_exact_to_the_base_unit() {
        // $9.99 → $19.99 with 7 of 30 days left: 10,000,000 × 7 / 30 = 2,333,333.33… → 2,333,333.
        let change = prorate(units(9_990_000), units(19_990_000), 0, MONTH, 23 * DAY);

        assert_eq!(change, Ok(Proration::Charge(units(2_333_333))));
    }

    #[test]
    fn a_change_at_the_start_prorates_everything_and_at_the_end_nothing() {
        let at_start = prorate(units(1_000_000), units(3_000_000), DAY, MONTH, DAY);
        let before_start = prorate(units(1_000_000), units(3_000_000), DAY, MONTH, 0);
        let at_end = prorate(units(1_000_000), units(3_000_000), DAY, MONTH, MONTH);
        let after_end = prorate(units(3_000_000), units(1_000_000), DAY, MONTH, MONTH + 1);

        assert_eq!(at_start, Ok(Proration::Charge(units(2_000_000))));
        assert_eq!(before_start, Ok(Proration::Charge(units(2_000_000))));
        assert_eq!(at_end, Ok(Proration::Nothing));
        assert_eq!(after_end, Ok(Proration::Nothing));
    }

    #[test]
    fn the_same_price_prorates_nothing() {
        assert_eq!(prorate(units(5), units(5), 0, MONTH, DAY), Ok(Proration::Nothing));
    }

    #[test]
    fn an_empty_or_inverted_period_is_refused() {
        assert_eq!(
            prorate(units(1), units(2), MONTH, MONTH, MONTH),
            Err(ProrationError::EmptyPeriod {
                start_ms: MONTH,
                end_ms: MONTH
            })
        );
        assert!(prorate(units(1), units(2), MONTH, 0, 0).is_err());
    }

    #[test]
    fn extreme_amounts_and_times_do_not_overflow() {
        let change = prorate(units(0), units(u128::MAX), i64::MIN, i64::MAX, 0);

        let Ok(Proration::Charge(charged)) = change else {
            panic!("{change:?}");
        };
        // About half of the whole difference is left.
        assert!(charged.base_units() > u128::MAX / 2 - u128::MAX / 1_000_000);
        assert!(charged.base_units() <= u128::MAX / 2 + 1);
    }
}
