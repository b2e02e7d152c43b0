//! What a receipt's deposit holds against its total: received, still due, and received beyond the total,
//! to the base unit of the 6-decimal token.
//!
//! On the wire each amount is two fields (the one amount format of bodies, docs/webhooks.md): `<name>Usd`, a
//! JSON number written exactly as its decimal text (`12.50`, `0.00495`: two decimals for whole cents, up to
//! six for a fraction of a cent, never through a float), and `<name>BaseUnits`, the integer as a string.

use serde::de::{self, Deserializer};
use serde::ser::{SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::money::{Cents, TOKEN_UNITS_PER_CENT, TokenAmount};

/// A receipt's deposit balance: `amountReceived`, `amountDue`, `overpaid` (each `...Usd` and `...BaseUnits`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ReceiptBalance {
    /// Everything of the payment token confirmed at the deposit address.
    pub received: TokenAmount,
    /// What the buyer still has to send to pay the total (zero once paid).
    pub due: TokenAmount,
    /// Received beyond the total: what the merchant may owe the buyer back.
    pub overpaid: TokenAmount,
}

impl ReceiptBalance {
    /// The balance of a receipt of `total` whose deposit received `received`.
    ///
    /// ```
    /// use payments_core::{Cents, ReceiptBalance, TokenAmount};
    /// let short = ReceiptBalance::of(Cents::new(1206), TokenAmount::from_base_units(5_000_000));
    /// assert_eq!(short.due, TokenAmount::from_base_units(7_060_000));
    /// let over = ReceiptBalance::of(Cents::new(1206), TokenAmount::from_base_units(13_000_001));
    /// assert_eq!(over.overpaid, TokenAmount::from_base_units(940_001));
    /// ```
    pub fn of(total: Cents, received: TokenAmount) -> ReceiptBalance {
        let required = u128::try_from(total.as_i64())
            .unwrap_or(0)
            .saturating_mul(TOKEN_UNITS_PER_CENT.unsigned_abs() as u128);
        let units = received.base_units();
        ReceiptBalance {
            received,
            due: TokenAmount::from_base_units(required.saturating_sub(units)),
            overpaid: TokenAmount::from_base_units(units.saturating_sub(required)),
        }
    }

    /// Whether the deposit holds at least the total.
    pub fn is_covered(&self) -> bool {
        self.due.base_units() == 0
    }
}

/// The exact JSON number of `amount` in USD (`"12.50"` as a number). The text is always a valid number;
/// should that ever not hold, the nearest double is written rather than nothing.
pub(crate) fn usd_number(amount: TokenAmount) -> Result<Box<RawValue>, serde_json::Number> {
    RawValue::from_string(amount.to_usd_exact()).map_err(|_| amount.to_usd_json_number())
}

impl Serialize for ReceiptBalance {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut fields = serializer.serialize_struct("ReceiptBalance", 6)?;
        for (usd, units, amount) in [
            ("amountReceivedUsd", "amountReceivedBaseUnits", self.received),
            ("amountDueUsd", "amountDueBaseUnits", self.due),
            ("overpaidUsd", "overpaidBaseUnits", self.overpaid),
        ] {
            match usd_number(amount) {
                Ok(raw) => fields.serialize_field(usd, &raw)?,
                Err(number) => fields.serialize_field(usd, &number)?,
            }
            fields.serialize_field(units, &amount.to_string())?;
        }
        fields.end()
    }
}

/// The exact amounts are the `...BaseUnits` strings; the `...Usd` numbers are for people and are not read.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct BalanceUnits {
    amount_received_base_units: String,
    amount_due_base_units: String,
    overpaid_base_units: String,
}

impl<'de> Deserialize<'de> for ReceiptBalance {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let units = BalanceUnits::deserialize(deserializer)?;
        let parse = |text: &str| TokenAmount::parse_base_units(text).map_err(de::Error::custom);
        Ok(ReceiptBalance {
            received: parse(&units.amount_received_base_units)?,
            due: parse(&units.amount_due_base_units)?,
            overpaid: parse(&units.overpaid_base_units)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units(value: u128) -> TokenAmount {
        TokenAmount::from_base_units(value)
    }

    #[test]
    fn nothing_received_leaves_the_whole_total_due() {
        let balance = ReceiptBalance::of(Cents::new(1206), units(0));
        assert_eq!(
            balance,
            ReceiptBalance {
                received: units(0),
                due: units(12_060_000),
                overpaid: units(0),
            }
        );
        assert!(!balance.is_covered());
    }

    #[test]
    fn an_exact_payment_leaves_nothing_due_and_nothing_over() {
        let balance = ReceiptBalance::of(Cents::new(1206), units(12_060_000));
        assert_eq!((balance.due, balance.overpaid), (units(0), units(0)));
        assert!(balance.is_covered());
    }

    #[test]
    fn one_base_unit_short_is_due_to_the_unit() {
        let balance = ReceiptBalance::of(Cents::new(1206), units(12_059_999));
        assert_eq!((balance.due, balance.overpaid), (units(1), units(0)));
    }

    #[test]
    fn money_beyond_the_total_is_overpaid_to_the_unit() {
        let balance = ReceiptBalance::of(Cents::new(1206), units(24_120_001));
        assert_eq!((balance.due, balance.overpaid), (units(0), units(12_060_001)));
    }

    #[test]
    fn amounts_are_written_as_exact_numbers_with_their_base_units() {
        let balance = ReceiptBalance::of(Cents::new(1250), units(5_004_950));
        let json = serde_json::to_string(&balance).unwrap();
        assert_eq!(
            json,
            r#"{"amountReceivedUsd":5.00495,"amountReceivedBaseUnits":"5004950","amountDueUsd":7.49505,"amountDueBaseUnits":"7495050","overpaidUsd":0.00,"overpaidBaseUnits":"0"}"#
        );
        let whole = serde_json::to_string(&ReceiptBalance::of(Cents::new(1250), units(0))).unwrap();
        assert!(whole.contains(r#""amountDueUsd":12.50,"#), "{whole}");
    }

    #[test]
    fn the_base_units_are_read_back_exactly() {
        let balance = ReceiptBalance::of(Cents::new(1250), units(5_004_950));
        let json = serde_json::to_string(&balance).unwrap();
        assert_eq!(serde_json::from_str::<ReceiptBalance>(&json).unwrap(), balance);
        let bad = r#"{"amountReceivedBaseUnits":"-1","amountDueBaseUnits":"0","overpaidBaseUnits":"0"}"#;
        assert!(serde_json::from_str::<ReceiptBalance>(bad).is_err());
    }
}
