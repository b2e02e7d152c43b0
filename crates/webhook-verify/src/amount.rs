//! Amounts as subscription events carry them: decimal text, never a float.

use serde::{Deserialize, Serialize};

/// The most decimal digits of a `usd` text that still names a whole number of cents.
const CENT_DIGITS: usize = 2;
/// The longest digit run parsed; more could not fit the integer types anyway.
const MAX_DIGITS: usize = 38;

/// An amount of money as the body carries it: USD as decimal text (`"9.99"`) and the 6-decimal payment
/// token's base units as integer text (`"9990000"`), so that no receiver rounds them through a float.
///
/// The fields keep the text exactly as sent; [`Amount::cents`] and [`Amount::base_units`] read it as
/// integers.
///
/// ```
/// # let amount: webhook_verify::Amount = serde_json::from_str(r#"{"usd":"9.99","baseUnits":"9990000"}"#)?;
/// assert_eq!(amount.cents(), Some(999));
/// assert_eq!(amount.base_units(), Some(9_990_000));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Amount {
    /// USD, as decimal text: `"9.99"`, `"-0.05"`.
    pub usd: String,
    /// Token base units (1 USD = 1 000 000), as integer text.
    pub base_units: String,
}

impl Amount {
    /// The USD amount in integer cents, when `usd` is a plain decimal with at most two decimals.
    ///
    /// `None` for anything else (an exponent, a third decimal, a number too large for `i64`), so an exact
    /// amount is never silently rounded.
    pub fn cents(&self) -> Option<i64> {
        let (negative, unsigned) = match self.usd.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, self.usd.as_str()),
        };
        let (whole, fraction) = match unsigned.split_once('.') {
            Some((whole, fraction)) if is_digits(fraction) && fraction.len() <= CENT_DIGITS => {
                (whole, fraction)
            }
            Some(_) => return None,
            None => (unsigned, "0"),
        };
        if !is_digits(whole) {
            return None;
        }
        let whole: i64 = whole.parse().ok()?;
        let mut fraction_cents: i64 = fraction.parse().ok()?;
        if fraction.len() == 1 {
            fraction_cents *= 10;
        }
        let cents = whole.checked_mul(100)?.checked_add(fraction_cents)?;
        Some(if negative { -cents } else { cents })
    }

    /// The amount in the token's base units, when `baseUnits` is a non-negative integer.
    pub fn base_units(&self) -> Option<u128> {
        if !is_digits(&self.base_units) {
            return None;
        }
        self.base_units.parse().ok()
    }
}

/// One to [`MAX_DIGITS`] ASCII digits, nothing else.
fn is_digits(text: &str) -> bool {
    !text.is_empty() && text.len() <= MAX_DIGITS && text.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::Amount;

    fn amount(usd: &str, base_units: &str) -> Amount {
        Amount {
            usd: usd.to_owned(),
            base_units: base_units.to_owned(),
        }
    }

    #[test]
    fn usd_text_with_up_to_two_decimals_reads_as_cents() {
        assert_eq!(amount("9.99", "0").cents(), Some(999));
        assert_eq!(amount("0.5", "0").cents(), Some(50));
        assert_eq!(amount("12", "0").cents(), Some(1_200));
        assert_eq!(amount("-0.05", "0").cents(), Some(-5));
    }

    #[test]
    fn usd_text_that_is_not_a_whole_number_of_cents_reads_as_nothing() {
        for usd in [
            "0.00495",
            "",
            ".5",
            "1.",
            "1e3",
            "+1.00",
            "--1",
            "1.0.0",
            " 1.00",
            "99999999999999999999",
        ] {
            assert_eq!(amount(usd, "0").cents(), None, "{usd:?}");
        }
    }

    #[test]
    fn base_units_read_as_an_integer_or_nothing() {
        assert_eq!(amount("0", "9990000").base_units(), Some(9_990_000));
        assert_eq!(amount("0", "-1").base_units(), None);
        assert_eq!(amount("0", "1.5").base_units(), None);
        assert_eq!(amount("0", "").base_units(), None);
    }
}
