//! Exact rates: a tax rate (a fraction 0..=1) and fee percentages.

use std::fmt;

use rust_decimal::{Decimal, RoundingStrategy};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use thiserror::Error;

use crate::money::Cents;

/// A tax rate as an exact fraction between 0 and 1 (`0.0825` = 8.25%).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct TaxRate(Decimal);

/// A fee rate in percent (`0.5` = 0.5%), exact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct FeePct(Decimal);

/// Why a rate was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum RateError {
    /// Not a decimal number.
    #[error("'{text}' is not a number")]
    NotANumber {
        /// What was received.
        text: String,
    },
    /// Outside the allowed range.
    #[error("{text} is outside {min}..={max}")]
    OutOfRange {
        /// What was received.
        text: String,
        /// The smallest allowed value.
        min: Decimal,
        /// The largest allowed value.
        max: Decimal,
    },
}

fn parse_decimal(text: &str) -> Result<Decimal, RateError> {
    let trimmed = text.trim();
    let parsed = if trimmed.contains(['e', 'E']) {
        Decimal::from_scientific(trimmed)
    } else {
        Decimal::from_str_exact(trimmed)
    };
    parsed.map(|d| d.normalize()).map_err(|_| RateError::NotANumber {
        text: text.to_owned(),
    })
}

fn in_range(value: Decimal, text: &str, min: Decimal, max: Decimal) -> Result<Decimal, RateError> {
    if value < min || value > max {
        return Err(RateError::OutOfRange {
            text: text.to_owned(),
            min,
            max,
        });
    }
    Ok(value)
}

/// Multiplies cents by an exact factor and rounds half up to a whole cent (amounts are non-negative).
pub(crate) fn round_half_up_cents(cents: Cents, factor: Decimal) -> Option<Cents> {
    let product = Decimal::from(cents.as_i64()).checked_mul(factor)?;
    let rounded = product.round_dp_with_strategy(0, RoundingStrategy::MidpointAwayFromZero);
    i64::try_from(rounded).ok().map(Cents::new)
}

impl TaxRate {
    /// No tax.
    pub const ZERO: TaxRate = TaxRate(Decimal::ZERO);

    /// Parses a fraction between 0 and 1 inclusive.
    ///
    /// # Errors
    /// [`RateError::NotANumber`] or [`RateError::OutOfRange`].
    pub fn parse(text: &str) -> Result<TaxRate, RateError> {
        in_range(parse_decimal(text)?, text, Decimal::ZERO, Decimal::ONE).map(TaxRate)
    }

    /// Wraps a decimal fraction between 0 and 1.
    ///
    /// # Errors
    /// [`RateError::OutOfRange`].
    pub fn from_decimal(value: Decimal) -> Result<TaxRate, RateError> {
        in_range(value.normalize(), &value.to_string(), Decimal::ZERO, Decimal::ONE).map(TaxRate)
    }

    /// The exact fraction.
    pub const fn as_decimal(self) -> Decimal {
        self.0
    }

    /// `round_half_up(amount * rate)`.
    pub fn apply(self, amount: Cents) -> Option<Cents> {
        round_half_up_cents(amount, self.0)
    }
}

impl FeePct {
    /// The platform's base processing fee: 0.5%.
    pub const PLATFORM_BASE: FeePct = FeePct(Decimal::from_parts(5, 0, 0, false, 1));
    /// The largest merchant add-on accepted: 10%.
    pub const MAX_MERCHANT_ADD_ON: FeePct = FeePct(Decimal::TEN);
    /// Zero percent.
    pub const ZERO: FeePct = FeePct(Decimal::ZERO);

    /// Parses a percentage between 0 and 100 inclusive.
    ///
    /// # Errors
    /// [`RateError::NotANumber`] or [`RateError::OutOfRange`].
    pub fn parse(text: &str) -> Result<FeePct, RateError> {
        in_range(parse_decimal(text)?, text, Decimal::ZERO, Decimal::ONE_HUNDRED).map(FeePct)
    }

    /// Parses a merchant add-on percentage: between 0 and [`FeePct::MAX_MERCHANT_ADD_ON`].
    ///
    /// # Errors
    /// [`RateError::NotANumber`] or [`RateError::OutOfRange`].
    pub fn parse_merchant_add_on(text: &str) -> Result<FeePct, RateError> {
        in_range(
            parse_decimal(text)?,
            text,
            Decimal::ZERO,
            FeePct::MAX_MERCHANT_ADD_ON.0,
        )
        .map(FeePct)
    }

    /// The exact percentage.
    pub const fn as_decimal(self) -> Decimal {
        self.0
    }

    /// The sum of two percentages (platform base + merchant add-on), capped at 100%.
    pub fn plus(self, other: FeePct) -> FeePct {
        FeePct((self.0 + other.0).min(Decimal::ONE_HUNDRED))
    }

    /// `round_half_up(amount * pct / 100)`.
    pub fn apply(self, amount: Cents) -> Option<Cents> {
        round_half_up_cents(amount, self.0 / Decimal::ONE_HUNDRED)
    }
}

macro_rules! decimal_json {
    ($type:ty, $parse:path) => {
        impl fmt::Display for $type {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}", self.0)
            }
        }

        impl Serialize for $type {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                decimal_to_json_number(&self.0).serialize(serializer)
            }
        }

        impl<'de> Deserialize<'de> for $type {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let number = serde_json::Number::deserialize(deserializer)?;
                $parse(&number.to_string()).map_err(serde::de::Error::custom)
            }
        }
    };
}

/// Renders an exact decimal as a JSON number through its shortest float form (rates have few digits,
/// so the float reads back to the same decimal).
fn decimal_to_json_number(value: &Decimal) -> serde_json::Number {
    let as_float: f64 = value.to_string().parse().unwrap_or(0.0);
    serde_json::Number::from_f64(as_float).unwrap_or_else(|| serde_json::Number::from(0))
}

decimal_json!(TaxRate, TaxRate::parse);
decimal_json!(FeePct, FeePct::parse);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tax_rates_outside_zero_to_one_are_refused() {
        assert!(TaxRate::parse("0.0825").is_ok());
        assert!(TaxRate::parse("1").is_ok());
        assert!(TaxRate::parse("0").is_ok());
        assert!(matches!(
            TaxRate::parse("1.01"),
            Err(RateError::OutOfRange { .. })
        ));
        assert!(matches!(
            TaxRate::parse("-0.1"),
            Err(RateError::OutOfRange { .. })
        ));
        assert!(matches!(TaxRate::parse("x"), Err(RateError::NotANumber { .. })));
    }

    #[test]
    fn tax_rounds_half_up_to_the_cent() {
        let rate = TaxRate::parse("0.095").unwrap();
        assert_eq!(rate.apply(Cents::new(2500)), Some(Cents::new(238)));
        assert_eq!(
            TaxRate::parse("0.5").unwrap().apply(Cents::new(1)),
            Some(Cents::new(1))
        );
    }

    #[test]
    fn fee_percentages_are_exact_and_add_up() {
        let total = FeePct::PLATFORM_BASE.plus(FeePct::parse_merchant_add_on("1.5").unwrap());
        assert_eq!(total.to_string(), "2.0");
        assert_eq!(total.apply(Cents::new(10950)), Some(Cents::new(219)));
        assert!(FeePct::parse_merchant_add_on("10.01").is_err());
    }

    #[test]
    fn rates_serialize_as_json_numbers() {
        let rate: TaxRate = serde_json::from_str("0.0825").unwrap();
        assert_eq!(serde_json::to_string(&rate).unwrap(), "0.0825");
        assert!(serde_json::from_str::<TaxRate>("2").is_err());
        assert!(serde_json::from_str::<TaxRate>("\"0.1\"").is_err());
    }
}
