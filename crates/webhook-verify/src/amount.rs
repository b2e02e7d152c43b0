//! Amounts as every body carries them: `<name>Usd`, a JSON number, beside `<name>BaseUnits`, the exact
//! integer count of the payment token's base units as text.

/// Base units of the 6-decimal payment token per USD cent.
const UNITS_PER_CENT: u128 = 10_000;
/// Base units per USD.
const UNITS_PER_USD: u128 = 1_000_000;
/// The longest digit run parsed; more could not fit the integer types anyway.
const MAX_DIGITS: usize = 38;

/// One amount of money of a body: the pair `<name>Usd` / `<name>BaseUnits` (e.g. `priceUsd: 9.99`,
/// `priceBaseUnits: "9990000"`), the one format of amounts in the service's webhooks.
///
/// The base units are the exact amount; [`Amount::cents`], [`Amount::base_units`] and
/// [`Amount::usd_text`] read them as integers or exact decimal text, never through a float. `usd` is the
/// number as sent, for display.
///
/// ```
/// use webhook_verify::{Event, Webhook};
///
/// let body = br#"{"event":"subscription.created","subscriptionId":"csub_1","status":"active",
///     "priceUsd":9.99,"priceBaseUnits":"9990000"}"#;
/// let webhook = Webhook::parse(body)?;
/// let price = webhook.event().subscription().and_then(|event| event.price()).unwrap();
/// assert_eq!(price.cents(), Some(999));
/// assert_eq!(price.base_units(), Some(9_990_000));
/// assert_eq!(price.usd_text().as_deref(), Some("9.99"));
/// # Ok::<(), webhook_verify::BodyError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Amount {
    /// `<name>Usd` as sent: written by the service from the exact decimal, read here as the nearest `f64`.
    /// For display only; compute with the base units.
    pub usd: Option<f64>,
    /// `<name>BaseUnits` as sent: the token's base units (1 USD = 1 000 000) as integer text.
    pub base_units: String,
}

impl Amount {
    /// The amount of a body's `<name>Usd` and `<name>BaseUnits` fields; `None` without the base units
    /// (the exact part).
    pub fn from_fields(usd: Option<f64>, base_units: Option<&str>) -> Option<Self> {
        Some(Amount {
            usd,
            base_units: base_units?.to_owned(),
        })
    }

    /// The amount in the token's base units, when `baseUnits` is a non-negative integer.
    pub fn base_units(&self) -> Option<u128> {
        if !is_digits(&self.base_units) {
            return None;
        }
        self.base_units.parse().ok()
    }

    /// The amount in integer USD cents, when it is a whole number of cents (a fee of `0.00495` is not).
    pub fn cents(&self) -> Option<i64> {
        let units = self.base_units()?;
        if units % UNITS_PER_CENT != 0 {
            return None;
        }
        i64::try_from(units / UNITS_PER_CENT).ok()
    }

    /// The amount in USD as exact decimal text: two decimals, more only for a fraction of a cent
    /// (`"9.99"`, `"0.00495"`).
    pub fn usd_text(&self) -> Option<String> {
        let units = self.base_units()?;
        let whole = units / UNITS_PER_USD;
        let fraction = format!("{:06}", units % UNITS_PER_USD);
        let trimmed = fraction.trim_end_matches('0');
        let decimals = if trimmed.len() <= 2 {
            &fraction[..2]
        } else {
            trimmed
        };
        Some(format!("{whole}.{decimals}"))
    }
}

/// One to [`MAX_DIGITS`] ASCII digits, nothing else.
fn is_digits(text: &str) -> bool {
    !text.is_empty() && text.len() <= MAX_DIGITS && text.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::Amount;

    fn units(base_units: &str) -> Amount {
        Amount {
            usd: None,
            base_units: base_units.to_owned(),
        }
    }

    #[test]
    fn whole_cents_read_as_cents_and_usd_text_with_two_decimals() {
        assert_eq!(units("9990000").cents(), Some(999));
        assert_eq!(units("9990000").usd_text().as_deref(), Some("9.99"));
        assert_eq!(units("12500000").usd_text().as_deref(), Some("12.50"));
        assert_eq!(units("0").usd_text().as_deref(), Some("0.00"));
        assert_eq!(units("0").cents(), Some(0));
    }

    #[test]
    fn a_fraction_of_a_cent_has_no_cents_and_shows_every_decimal_it_needs() {
        assert_eq!(units("4950").cents(), None);
        assert_eq!(units("4950").usd_text().as_deref(), Some("0.00495"));
        assert_eq!(units("9940050").usd_text().as_deref(), Some("9.94005"));
        assert_eq!(units("1").usd_text().as_deref(), Some("0.000001"));
    }

    #[test]
    fn base_units_read_as_an_integer_or_nothing() {
        assert_eq!(units("9990000").base_units(), Some(9_990_000));
        for bad in ["-1", "1.5", "", " 1", "1e3", &"9".repeat(39)] {
            assert_eq!(units(bad).base_units(), None, "{bad:?}");
            assert_eq!(units(bad).cents(), None, "{bad:?}");
            assert_eq!(units(bad).usd_text(), None, "{bad:?}");
        }
    }

    #[test]
    fn an_amount_needs_its_base_units() {
        assert_eq!(Amount::from_fields(Some(9.99), None), None);
        assert_eq!(
            Amount::from_fields(Some(9.99), Some("9990000")),
            Some(Amount {
                usd: Some(9.99),
                base_units: "9990000".to_owned()
            })
        );
    }
}
