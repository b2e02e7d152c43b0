//! Money: integer cents and stablecoin base units.

use thiserror::Error;

/// Base units of the 6-decimal stablecoin in one cent.
pub const TOKEN_UNITS_PER_CENT: i64 = 10_000;

/// An amount of US dollars in integer cents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Cents(i64);

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
}

/// Why an amount could not be read or converted.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoneyError {
    /// Placeholder until the full parser lands.
    #[error("invalid amount")]
    Invalid,
}
