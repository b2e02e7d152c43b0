//! Token amounts as USD numbers: the 6-decimal stablecoin is worth one dollar per 1_000_000 base units, so
//! an amount such as a split's 0.03875 platform part is a USD number with up to 6 decimals, never rounded to
//! cents (what the chain moved is shown to the unit).

use rust_decimal::Decimal;

use crate::money::{MoneyError, TokenAmount};

/// Base units in one dollar.
const UNITS_PER_USD: u128 = 1_000_000;
/// Below this many base units (one billion dollars, 15 significant digits) a 6-decimal amount survives the
/// trip through an `f64` exactly: the shortest text that reads back to the same double is the amount itself.
#[cfg(test)]
const EXACT_F64_UNITS: u128 = 1_000_000_000_000_000;

impl TokenAmount {
    /// The amount as a JSON number of dollars (`38750` units -> `0.03875`, `7750000` -> `7.75`).
    ///
    /// Exact up to one billion dollars; above that, whole dollars stay exact and a fraction is the nearest
    /// double (send the base units as a string where such amounts matter).
    ///
    /// ```
    /// use payments_core::TokenAmount;
    /// assert_eq!(TokenAmount::from_base_units(38_750).to_usd_json_number().to_string(), "0.03875");
    /// assert_eq!(TokenAmount::from_base_units(7_000_000).to_usd_json_number().to_string(), "7");
    /// ```
    pub fn to_usd_json_number(self) -> serde_json::Number {
        let units = self.base_units();
        if units.is_multiple_of(UNITS_PER_USD)
            && let Ok(dollars) = u64::try_from(units / UNITS_PER_USD)
        {
            return serde_json::Number::from(dollars);
        }
        // Exact below EXACT_F64_UNITS (see there); larger fractional amounts are the nearest double.
        let dollars = units as f64 / UNITS_PER_USD as f64;
        serde_json::Number::from_f64(dollars).unwrap_or_else(|| serde_json::Number::from(0))
    }

    /// Reads a non-negative USD amount with at most 6 decimals (`"0.03875"`, `"12"`, `"1e-6"`) exactly.
    ///
    /// ```
    /// use payments_core::TokenAmount;
    /// assert_eq!(TokenAmount::parse_usd("0.03875").unwrap().base_units(), 38_750);
    /// assert!(TokenAmount::parse_usd("0.0000001").is_err());
    /// ```
    ///
    /// # Errors
    /// [`MoneyError::NotANumber`], [`MoneyError::Negative`], [`MoneyError::TooPreciseForToken`] (more than
    /// 6 decimals) or [`MoneyError::TooLarge`] (past `u128` base units or the decimal range).
    pub fn parse_usd(text: &str) -> Result<TokenAmount, MoneyError> {
        let trimmed = text.trim();
        let not_a_number = || MoneyError::NotANumber {
            text: text.to_owned(),
        };
        let plain = !trimmed.is_empty()
            && trimmed
                .chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E'));
        if !plain {
            return Err(not_a_number());
        }
        let value = if trimmed.contains(['e', 'E']) {
            Decimal::from_scientific(trimmed)
        } else {
            Decimal::from_str_exact(trimmed)
        }
        .map_err(|_| not_a_number())?;
        if value.is_sign_negative() && !value.is_zero() {
            return Err(MoneyError::Negative {
                text: text.to_owned(),
            });
        }
        if value.normalize().scale() > 6 {
            return Err(MoneyError::TooPreciseForToken {
                text: text.to_owned(),
            });
        }
        let too_large = || MoneyError::TooLarge {
            text: text.to_owned(),
        };
        let units = value
            .checked_mul(Decimal::from(1_000_000u32))
            .ok_or_else(too_large)?;
        u128::try_from(units.normalize())
            .map(TokenAmount::from_base_units)
            .map_err(|_| too_large())
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn whole_dollars_are_integers_and_fractions_keep_every_unit() {
        let number = |units| {
            TokenAmount::from_base_units(units)
                .to_usd_json_number()
                .to_string()
        };
        assert_eq!(number(0), "0");
        // serde_json writes very small doubles with an exponent: still the exact amount.
        assert_eq!(number(1), "1e-6");
        assert_eq!(number(7_711_250), "7.71125");
        assert_eq!(number(7_750_000), "7.75");
        assert_eq!(number(999_999_999_999_999), "999999999.999999");
    }

    #[test]
    fn usd_text_is_read_to_the_unit_or_refused() {
        assert_eq!(TokenAmount::parse_usd("7.71125").unwrap().base_units(), 7_711_250);
        assert_eq!(TokenAmount::parse_usd("12").unwrap().base_units(), 12_000_000);
        assert!(matches!(
            TokenAmount::parse_usd("0.0000001"),
            Err(MoneyError::TooPreciseForToken { .. })
        ));
        assert!(matches!(
            TokenAmount::parse_usd("-1"),
            Err(MoneyError::Negative { .. })
        ));
        assert!(matches!(
            TokenAmount::parse_usd("abc"),
            Err(MoneyError::NotANumber { .. })
        ));
    }

    proptest! {
        #[test]
        fn amounts_below_a_billion_dollars_round_trip_through_json_exactly(units in 0u128..EXACT_F64_UNITS) {
            let amount = TokenAmount::from_base_units(units);
            let text = amount.to_usd_json_number().to_string();
            prop_assert_eq!(TokenAmount::parse_usd(&text).unwrap(), amount);
        }
    }
}
