//! Money: integer cents and stablecoin base units.
//!
//! USD amounts travel as JSON numbers (`priceUsd: 19.99`). They are converted to [`Cents`] at the edge,
//! exactly: a value with more than two decimals is refused instead of rounded, so nothing a caller sends
//! is silently changed.

use std::fmt;
use std::str::FromStr;

use rust_decimal::Decimal;
use thiserror::Error;

/// Base units of the 6-decimal stablecoin in one cent.
pub const TOKEN_UNITS_PER_CENT: i64 = 10_000;

/// The largest amount accepted from a caller: one trillion dollars, far above any real payment and far
/// below where sums of many such amounts could overflow an `i64`.
pub const MAX_USD_CENTS: i64 = 100_000_000_000_000;

/// An amount of US dollars in integer cents.
///
/// ```
/// use payments_core::Cents;
/// let price = Cents::parse_usd("19.99").unwrap();
/// assert_eq!(price.as_i64(), 1999);
/// assert_eq!(price.to_string(), "19.99");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Cents(i64);

/// Why an amount could not be read or converted.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum MoneyError {
    /// The text is not a decimal number.
    #[error("'{text}' is not a number")]
    NotANumber {
        /// What was received.
        text: String,
    },
    /// More than two decimal places: cents cannot represent it exactly.
    #[error("{text} has more than 2 decimal places")]
    TooPrecise {
        /// What was received.
        text: String,
    },
    /// More than six decimal places: token base units cannot represent it exactly.
    #[error("{text} has more than 6 decimal places")]
    TooPreciseForToken {
        /// What was received.
        text: String,
    },
    /// A negative amount where only zero or more is allowed.
    #[error("{text} is negative")]
    Negative {
        /// What was received.
        text: String,
    },
    /// Larger than [`MAX_USD_CENTS`].
    #[error("{text} is larger than the maximum of 1000000000000")]
    TooLarge {
        /// What was received.
        text: String,
    },
    /// Arithmetic on amounts left the representable range.
    #[error("amount overflow")]
    Overflow,
    /// A token amount that is not a whole number of cents.
    #[error("{units} base units is not a whole number of cents")]
    NotWholeCents {
        /// The token amount in base units.
        units: u128,
    },
}

impl Cents {
    /// Zero cents.
    pub const ZERO: Cents = Cents(0);

    /// Wraps a count of cents.
    pub const fn new(cents: i64) -> Self {
        Cents(cents)
    }

    /// The count of cents.
    pub const fn as_i64(self) -> i64 {
        self.0
    }

    /// Parses a non-negative USD amount written as a decimal (`"12"`, `"12.5"`, `"12.50"`, `"1.2e1"`).
    ///
    /// # Errors
    /// [`MoneyError::NotANumber`], [`MoneyError::TooPrecise`] (more than 2 decimals),
    /// [`MoneyError::Negative`] or [`MoneyError::TooLarge`].
    pub fn parse_usd(text: &str) -> Result<Cents, MoneyError> {
        let trimmed = text.trim();
        let not_a_number = || MoneyError::NotANumber {
            text: text.to_owned(),
        };
        let is_plain_number = !trimmed.is_empty()
            && trimmed
                .chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E'));
        if !is_plain_number {
            return Err(not_a_number());
        }
        let value = if trimmed.contains(['e', 'E']) {
            Decimal::from_scientific(trimmed)
        } else {
            Decimal::from_str_exact(trimmed)
        }
        .map_err(|_| {
            // rust_decimal refuses values beyond ~7.9e28 the same way as garbage; tell them apart.
            let digits = trimmed.trim_start_matches(['-', '+']);
            if digits.chars().next().is_some_and(|c| c.is_ascii_digit()) && trimmed.parse::<f64>().is_ok() {
                MoneyError::TooLarge {
                    text: text.to_owned(),
                }
            } else {
                not_a_number()
            }
        })?;
        Cents::from_decimal_usd(value, text)
    }

    /// Parses a USD amount from a JSON number exactly (see [`Cents::parse_usd`]).
    ///
    /// `serde_json` renders a parsed float with the shortest text that reads back to the same value, so
    /// `19.99` arrives as `"19.99"` and `1.005` as `"1.005"` (refused), never as a binary approximation.
    ///
    /// # Errors
    /// As [`Cents::parse_usd`].
    pub fn from_json_number(number: &serde_json::Number) -> Result<Cents, MoneyError> {
        Cents::parse_usd(&number.to_string())
    }

    /// Parses a USD amount from any JSON value; anything but a number is [`MoneyError::NotANumber`].
    ///
    /// # Errors
    /// As [`Cents::parse_usd`].
    pub fn from_json_value(value: &serde_json::Value) -> Result<Cents, MoneyError> {
        match value {
            serde_json::Value::Number(number) => Cents::from_json_number(number),
            other => Err(MoneyError::NotANumber {
                text: other.to_string(),
            }),
        }
    }

    fn from_decimal_usd(value: Decimal, text: &str) -> Result<Cents, MoneyError> {
        if value.is_sign_negative() && !value.is_zero() {
            return Err(MoneyError::Negative {
                text: text.to_owned(),
            });
        }
        if value.normalize().scale() > 2 {
            return Err(MoneyError::TooPrecise {
                text: text.to_owned(),
            });
        }
        let too_large = || MoneyError::TooLarge {
            text: text.to_owned(),
        };
        let cents = value.checked_mul(Decimal::ONE_HUNDRED).ok_or_else(too_large)?;
        let cents = i64::try_from(cents.normalize()).map_err(|_| too_large())?;
        if cents > MAX_USD_CENTS {
            return Err(too_large());
        }
        Ok(Cents(cents))
    }

    /// The amount as a JSON number in dollars (`1265` cents -> `12.65`).
    pub fn to_json_number(self) -> serde_json::Number {
        if self.0 % 100 == 0 {
            return serde_json::Number::from(self.0 / 100);
        }
        // Every cents value below 2^53 has a shortest f64 rendering with at most 2 decimals.
        let dollars = self.0 as f64 / 100.0;
        serde_json::Number::from_f64(dollars).unwrap_or_else(|| serde_json::Number::from(0))
    }

    /// The amount as an exact decimal number of dollars.
    pub fn to_decimal_usd(self) -> Decimal {
        Decimal::new(self.0, 2)
    }

    /// Adds, refusing overflow.
    ///
    /// # Errors
    /// [`MoneyError::Overflow`].
    pub fn checked_add(self, other: Cents) -> Result<Cents, MoneyError> {
        self.0.checked_add(other.0).map(Cents).ok_or(MoneyError::Overflow)
    }

    /// Subtracts, refusing overflow.
    ///
    /// # Errors
    /// [`MoneyError::Overflow`].
    pub fn checked_sub(self, other: Cents) -> Result<Cents, MoneyError> {
        self.0.checked_sub(other.0).map(Cents).ok_or(MoneyError::Overflow)
    }

    /// Multiplies by a quantity, refusing overflow.
    ///
    /// # Errors
    /// [`MoneyError::Overflow`].
    pub fn checked_mul(self, quantity: i64) -> Result<Cents, MoneyError> {
        self.0
            .checked_mul(quantity)
            .map(Cents)
            .ok_or(MoneyError::Overflow)
    }

    /// Sums amounts, refusing overflow.
    ///
    /// # Errors
    /// [`MoneyError::Overflow`].
    pub fn checked_sum(amounts: impl IntoIterator<Item = Cents>) -> Result<Cents, MoneyError> {
        amounts.into_iter().try_fold(Cents::ZERO, Cents::checked_add)
    }

    /// The same amount in stablecoin base units (1 cent = 10_000 units); negative amounts are refused.
    ///
    /// # Errors
    /// [`MoneyError::Negative`] for a negative amount.
    pub fn to_token_amount(self) -> Result<TokenAmount, MoneyError> {
        let cents = u128::try_from(self.0).map_err(|_| MoneyError::Negative {
            text: self.to_string(),
        })?;
        Ok(TokenAmount(cents * TOKEN_UNITS_PER_CENT as u128))
    }
}

impl fmt::Display for Cents {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        write!(f, "{sign}{}.{:02}", abs / 100, abs % 100)
    }
}

impl FromStr for Cents {
    type Err = MoneyError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Cents::parse_usd(text)
    }
}

/// An amount of the 6-decimal stablecoin in base units (1 USD = 1_000_000).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct TokenAmount(u128);

impl TokenAmount {
    /// Wraps a count of base units.
    pub const fn from_base_units(units: u128) -> Self {
        TokenAmount(units)
    }

    /// The count of base units.
    pub const fn base_units(self) -> u128 {
        self.0
    }

    /// The exact amount in cents.
    ///
    /// # Errors
    /// [`MoneyError::NotWholeCents`] when the amount has a fraction of a cent,
    /// [`MoneyError::Overflow`] when it does not fit in cents.
    pub fn to_cents_exact(self) -> Result<Cents, MoneyError> {
        let per_cent = TOKEN_UNITS_PER_CENT as u128;
        if !self.0.is_multiple_of(per_cent) {
            return Err(MoneyError::NotWholeCents { units: self.0 });
        }
        i64::try_from(self.0 / per_cent)
            .map(Cents)
            .map_err(|_| MoneyError::Overflow)
    }

    /// The exact amount in USD as decimal text: at least two decimals, up to six, trailing zeros of the
    /// fraction past the cents dropped (`9990000` is `"9.99"`, `4950` is `"0.00495"`, `1` is `"0.000001"`).
    pub fn to_usd_exact(self) -> String {
        let per_usd = 100 * TOKEN_UNITS_PER_CENT as u128;
        let fraction = format!("{:06}", self.0 % per_usd);
        let kept = fraction.trim_end_matches('0').len().max(2);
        format!("{}.{}", self.0 / per_usd, &fraction[..kept])
    }

    /// The amount rounded to the cent, half a cent up (`4950` base units is 0 cents, `5000` is 1).
    ///
    /// # Errors
    /// [`MoneyError::Overflow`] when it does not fit in cents.
    pub fn to_cents_half_up(self) -> Result<Cents, MoneyError> {
        let per_cent = TOKEN_UNITS_PER_CENT as u128;
        let cents = self.0 / per_cent + u128::from((self.0 % per_cent) * 2 >= per_cent);
        i64::try_from(cents).map(Cents).map_err(|_| MoneyError::Overflow)
    }

    /// Parses a decimal string of base units (`"1000000"`), as token amounts travel in JSON.
    ///
    /// # Errors
    /// [`MoneyError::NotANumber`] unless the text is all ASCII digits and fits in a `u128`.
    pub fn parse_base_units(text: &str) -> Result<TokenAmount, MoneyError> {
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(MoneyError::NotANumber {
                text: text.to_owned(),
            });
        }
        text.parse::<u128>()
            .map(TokenAmount)
            .map_err(|_| MoneyError::NotANumber {
                text: text.to_owned(),
            })
    }
}

impl fmt::Display for TokenAmount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
#[path = "money_tests.rs"]
mod tests;
