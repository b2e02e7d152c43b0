//! The 0.5% platform fee on every subscription charge, and what the merchant keeps.

use crate::{Cents, MoneyError, TokenAmount};

/// 0.5% is one part in 200.
const FEE_DIVISOR: i64 = 200;

/// The platform fee on a subscription charge of `price`: 0.5% of the price, rounded to the cent with half
/// a cent rounding up, in integer arithmetic only.
///
/// The rule is `fee = round_half_up(price_cents * 5 / 1000)`, computed as `floor((price_cents + 100) / 200)`
/// without the intermediate sum, so no input overflows. For example:
///
/// | price (cents) | exact fee (cents) | fee |
/// |---------------|-------------------|-----|
/// | 1             | 0.005             | 0   |
/// | 100           | 0.5               | 1   |
/// | 999           | 4.995             | 5   |
/// | 1000          | 5                 | 5   |
///
/// Prices are never negative; for a negative input the same formula applies (halves round towards
/// positive infinity) and nothing panics.
///
/// ```
/// # use payments_core::{Cents, subscription_platform_fee};
/// assert_eq!(subscription_platform_fee(Cents::new(999)), Cents::new(5));
/// ```
pub fn subscription_platform_fee(price: Cents) -> Cents {
    let cents = price.as_i64();
    let whole = cents.div_euclid(FEE_DIVISOR);
    let remainder = cents.rem_euclid(FEE_DIVISOR);
    let round_up = i64::from(remainder * 2 >= FEE_DIVISOR);
    Cents::new(whole + round_up)
}

/// What the merchant receives from a subscription charge of `price`: the price minus
/// [`subscription_platform_fee`].
///
/// The subtraction saturates, but for every `i64` price the fee lies between zero and the price, so it
/// never actually does.
pub fn subscription_merchant_net(price: Cents) -> Cents {
    let fee = subscription_platform_fee(price);
    Cents::new(price.as_i64().saturating_sub(fee.as_i64()))
}

/// One subscription charge split into the platform fee and the merchant's part, as recorded in the
/// billing event. `platform_fee + merchant_net == price` always.
/// The spec's subscription platform fee in basis points: 0.5%.
pub const DEFAULT_SUBSCRIPTION_FEE_BPS: u32 = 50;

/// Basis points in a whole.
const BPS_WHOLE: i128 = 10_000;

/// The platform fee on a subscription charge of `price` at `fee_bps` basis points (capped at 10 000, the
/// whole price), rounded to the cent with half a cent rounding up (toward positive infinity), in integer
/// arithmetic only. At [`DEFAULT_SUBSCRIPTION_FEE_BPS`] it equals [`subscription_platform_fee`].
///
/// ```
/// use payments_core::{Cents, subscription_fee_at};
///
/// assert_eq!(subscription_fee_at(Cents::new(2_500), 50), Cents::new(13));
/// assert_eq!(subscription_fee_at(Cents::new(2_500), 100), Cents::new(25));
/// ```
pub fn subscription_fee_at(price: Cents, fee_bps: u32) -> Cents {
    let scaled = i128::from(price.as_i64()) * i128::from(fee_bps).min(BPS_WHOLE);
    let whole = scaled.div_euclid(BPS_WHOLE);
    let round_up = i128::from(scaled.rem_euclid(BPS_WHOLE) * 2 >= BPS_WHOLE);
    // |fee| <= |price| + 1 cent at most 10 000 bps; the fallback is unreachable but keeps this total.
    Cents::new(i64::try_from(whole + round_up).unwrap_or(price.as_i64()))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SubscriptionCharge {
    /// The plan price charged to the subscriber.
    pub price: Cents,
    /// The 0.5% platform fee ([`subscription_platform_fee`]).
    pub platform_fee: Cents,
    /// The rest, for the merchant ([`subscription_merchant_net`]).
    pub merchant_net: Cents,
}

impl SubscriptionCharge {
    /// The charge of `price` at a platform fee of `fee_bps` basis points (see [`subscription_fee_at`]);
    /// fee and net always sum to the price.
    pub fn with_fee_bps(price: Cents, fee_bps: u32) -> SubscriptionCharge {
        let platform_fee = subscription_fee_at(price, fee_bps);
        SubscriptionCharge {
            price,
            platform_fee,
            merchant_net: Cents::new(price.as_i64().saturating_sub(platform_fee.as_i64())),
        }
    }

    /// Splits a charge of `price`.
    pub fn for_price(price: Cents) -> SubscriptionCharge {
        SubscriptionCharge {
            price,
            platform_fee: subscription_platform_fee(price),
            merchant_net: subscription_merchant_net(price),
        }
    }
}

/// One subscription charge in the token's base units (6 decimals), as it is sent on chain and recorded:
/// the fee is `round_half_up(price_units * fee_bps / 10 000)` in base units, not in cents, so a plan under
/// $1.00 still pays its fee (a $0.99 plan at 50 bps: 4,950 base units). `fee + net == price` always.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SubscriptionChargeUnits {
    /// The plan price charged to the subscriber.
    pub price: TokenAmount,
    /// The platform fee.
    pub platform_fee: TokenAmount,
    /// The rest, for the merchant.
    pub merchant_net: TokenAmount,
}

impl SubscriptionChargeUnits {
    /// The charge of `price` at `fee_bps` basis points (capped at 10 000, the whole price).
    ///
    /// ```
    /// use payments_core::{Cents, SubscriptionChargeUnits};
    ///
    /// let charge = SubscriptionChargeUnits::with_fee_bps(Cents::new(99), 50).unwrap();
    /// assert_eq!(charge.platform_fee.base_units(), 4_950);
    /// assert_eq!(charge.merchant_net.base_units(), 985_050);
    /// ```
    ///
    /// # Errors
    /// [`MoneyError`] for a negative price.
    pub fn with_fee_bps(price: Cents, fee_bps: u32) -> Result<SubscriptionChargeUnits, MoneyError> {
        Ok(Self::of_units(price.to_token_amount()?, fee_bps))
    }

    /// The charge of `price` base units at `fee_bps` (a prorated difference, a price less a credit).
    pub fn of_units(price: TokenAmount, fee_bps: u32) -> SubscriptionChargeUnits {
        let scaled = price.base_units().saturating_mul(u128::from(fee_bps.min(10_000)));
        let fee = scaled / 10_000 + u128::from((scaled % 10_000) * 2 >= 10_000);
        SubscriptionChargeUnits {
            price,
            platform_fee: TokenAmount::from_base_units(fee),
            merchant_net: TokenAmount::from_base_units(price.base_units().saturating_sub(fee)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn fee(cents: i64) -> i64 {
        subscription_platform_fee(Cents::new(cents)).as_i64()
    }

    #[test]
    fn half_a_cent_of_fee_rounds_up() {
        assert_eq!(fee(100), 1);
    }

    #[test]
    fn a_fee_just_under_five_cents_rounds_to_five() {
        assert_eq!(fee(999), 5);
    }

    #[test]
    fn an_exact_fee_is_not_rounded() {
        assert_eq!(fee(1000), 5);
    }

    #[test]
    fn a_fee_under_half_a_cent_rounds_to_zero() {
        assert_eq!(fee(1), 0);
        assert_eq!(fee(99), 0);
    }

    #[test]
    fn a_free_plan_pays_no_fee() {
        assert_eq!(fee(0), 0);
    }

    #[test]
    fn a_typical_price_gives_the_expected_fee_and_net() {
        let charge = SubscriptionCharge::for_price(Cents::new(2_500));

        assert_eq!(charge.platform_fee, Cents::new(13));
        assert_eq!(charge.merchant_net, Cents::new(2_487));
    }

    #[test]
    fn the_largest_price_does_not_overflow() {
        let charge = SubscriptionCharge::for_price(Cents::new(i64::MAX));

        assert_eq!(charge.platform_fee, Cents::new(46_116_860_184_273_879));
        assert_eq!(charge.merchant_net, Cents::new(9_177_255_176_670_501_928));
    }

    #[test]
    fn the_smallest_price_does_not_overflow() {
        let charge = SubscriptionCharge::for_price(Cents::new(i64::MIN));

        assert_eq!(charge.platform_fee, Cents::new(-46_116_860_184_273_879));
        assert_eq!(charge.merchant_net, Cents::new(-9_177_255_176_670_501_929));
    }

    #[test]
    fn a_configured_fee_of_one_percent_takes_one_cent_per_dollar() {
        let charge = SubscriptionCharge::with_fee_bps(Cents::new(999), 100);

        assert_eq!(charge.platform_fee, Cents::new(10));
        assert_eq!(charge.merchant_net, Cents::new(989));
    }

    #[test]
    fn a_zero_fee_leaves_the_whole_price_to_the_merchant() {
        let charge = SubscriptionCharge::with_fee_bps(Cents::new(1_234), 0);

        assert_eq!(charge.platform_fee, Cents::new(0));
        assert_eq!(charge.merchant_net, Cents::new(1_234));
    }

    #[test]
    fn a_fee_above_the_whole_is_capped_at_the_price() {
        assert_eq!(subscription_fee_at(Cents::new(500), 20_000), Cents::new(500));
    }

    proptest! {
        #[test]
        fn the_default_bps_fee_matches_the_half_percent_fee(price in any::<i64>()) {
            prop_assert_eq!(
                subscription_fee_at(Cents::new(price), DEFAULT_SUBSCRIPTION_FEE_BPS),
                subscription_platform_fee(Cents::new(price))
            );
        }

        #[test]
        fn bps_fee_and_net_sum_to_the_price(price in any::<i64>(), bps in 0_u32..=10_000) {
            let charge = SubscriptionCharge::with_fee_bps(Cents::new(price), bps);

            prop_assert_eq!(
                i128::from(charge.platform_fee.as_i64()) + i128::from(charge.merchant_net.as_i64()),
                i128::from(price)
            );
        }

        #[test]
        fn the_fee_is_within_half_a_cent_of_half_a_percent(price in 0_i64..=i64::MAX) {
            let fee = i128::from(fee(price));

            prop_assert!(fee >= 0);
            prop_assert!(fee <= i128::from(price));
            prop_assert!((fee * 1000 - i128::from(price) * 5).abs() <= 500);
        }

        #[test]
        fn fee_and_net_always_sum_to_the_price(price in any::<i64>()) {
            let charge = SubscriptionCharge::for_price(Cents::new(price));

            prop_assert_eq!(
                i128::from(charge.platform_fee.as_i64()) + i128::from(charge.merchant_net.as_i64()),
                i128::from(price)
            );
        }
    }

    #[test]
    fn a_fee_in_base_units_rounds_half_up_and_adds_up_to_the_price() {
        let cases = [
            (99, 50, 4_950),
            (999, 50, 49_950),
            (1, 50, 50),
            (100, 50, 5_000),
            (1, 1, 1),
            (2_500, 10_000, 25_000_000),
        ];
        for (cents, bps, fee) in cases {
            let charge = SubscriptionChargeUnits::with_fee_bps(Cents::new(cents), bps).unwrap();
            assert_eq!(
                charge.platform_fee.base_units(),
                fee,
                "{cents} cents at {bps} bps"
            );
            assert_eq!(
                charge.platform_fee.base_units() + charge.merchant_net.base_units(),
                charge.price.base_units()
            );
        }
        // 1 base unit at 1 bps: 0.0001 units, below half: 0.
        assert!(SubscriptionChargeUnits::with_fee_bps(Cents::new(-1), 50).is_err());
    }
}
