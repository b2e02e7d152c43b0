//! The one format of amounts in webhook bodies (docs/webhooks.md, "Amounts"): each amount is two fields,
//! `<name>Usd`, a JSON number written exactly from its decimal text (`9.99`, `0.00495`: two decimals for
//! whole cents, up to six for a fraction of a cent, never through a float), and `<name>BaseUnits`, the
//! 6-decimal token's integer count as a string. Receipts' balances (`amountDueUsd` / `amountDueBaseUnits`)
//! and subscription events (`priceUsd` / `priceBaseUnits`, `grossUsd` / `grossBaseUnits`, ...) alike.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::ser::{SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::money::{Cents, TokenAmount};

/// The exact JSON number of `amount` in USD (`"12.50"` as a number). The text is always a valid number;
/// should that ever not hold, the nearest double is written rather than nothing.
pub(crate) fn serialize_usd_field<S: SerializeStruct>(
    fields: &mut S,
    name: &'static str,
    amount: TokenAmount,
) -> Result<(), S::Error> {
    match RawValue::from_string(amount.to_usd_exact()) {
        Ok(raw) => fields.serialize_field(name, &raw),
        Err(_) => fields.serialize_field(name, &amount.to_usd_json_number()),
    }
}

/// The two field names of one amount of a body.
pub trait AmountName {
    /// `<name>Usd`.
    const USD: &'static str;
    /// `<name>BaseUnits`.
    const BASE_UNITS: &'static str;
}

macro_rules! amount_names {
    ($($(#[$doc:meta])* $marker:ident => $usd:literal, $units:literal;)*) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum $marker {}

        impl AmountName for $marker {
            const USD: &'static str = $usd;
            const BASE_UNITS: &'static str = $units;
        }
    )*};
}

amount_names! {
    /// `priceUsd` / `priceBaseUnits`: the price per period a customer signed for.
    PriceField => "priceUsd", "priceBaseUnits";
    /// `grossUsd` / `grossBaseUnits`: what a charge takes from the customer.
    GrossField => "grossUsd", "grossBaseUnits";
    /// `feeUsd` / `feeBaseUnits`: the platform's fee of a charge.
    FeeField => "feeUsd", "feeBaseUnits";
    /// `netUsd` / `netBaseUnits`: what the merchant receives of a charge.
    NetField => "netUsd", "netBaseUnits";
    /// `amountUsd` / `amountBaseUnits`: what an announced charge will take.
    AmountField => "amountUsd", "amountBaseUnits";
}

/// One amount of a webhook body, written as its two fields `N::USD` and `N::BASE_UNITS`; use it with
/// `#[serde(flatten)]` so the pair sits beside the other fields of its object.
///
/// ```
/// use payments_core::{Cents, PriceField, WebhookAmount};
///
/// #[derive(serde::Serialize, serde::Deserialize)]
/// struct Body {
///     #[serde(flatten)]
///     price: WebhookAmount<PriceField>,
/// }
///
/// let json = serde_json::to_string(&Body { price: WebhookAmount::of(Cents::new(999)) })?;
/// assert_eq!(json, r#"{"priceUsd":9.99,"priceBaseUnits":"9990000"}"#);
/// let back: Body = serde_json::from_str(&json)?;
/// assert_eq!(back.price.amount().base_units(), 9_990_000);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WebhookAmount<N> {
    amount: TokenAmount,
    name: PhantomData<N>,
}

impl<N> WebhookAmount<N> {
    /// The amount of `cents`; a negative amount (never charged) is written as zero.
    pub fn of(cents: Cents) -> Self {
        Self::of_units(cents.to_token_amount().unwrap_or_default())
    }

    /// An exact token amount, to the base unit (a fee of `0.00495`).
    pub fn of_units(amount: TokenAmount) -> Self {
        WebhookAmount {
            amount,
            name: PhantomData,
        }
    }

    /// The amount, exact.
    pub fn amount(&self) -> TokenAmount {
        self.amount
    }
}

impl<N: AmountName> Serialize for WebhookAmount<N> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut fields = serializer.serialize_struct("WebhookAmount", 2)?;
        serialize_usd_field(&mut fields, N::USD, self.amount)?;
        fields.serialize_field(N::BASE_UNITS, &self.amount.to_string())?;
        fields.end()
    }
}

/// Reads `N::BASE_UNITS` (the exact amount) among the object's fields and skips the rest: the `...Usd`
/// number is for people, and a flattened amount sees every field its object did not claim.
struct AmountVisitor<N>(PhantomData<N>);

impl<'de, N: AmountName> Visitor<'de> for AmountVisitor<N> {
    type Value = WebhookAmount<N>;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "an object with `{}`", N::BASE_UNITS)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut units = None;
        while let Some(key) = map.next_key::<String>()? {
            if key == N::BASE_UNITS {
                let text: String = map.next_value()?;
                units = Some(TokenAmount::parse_base_units(&text).map_err(de::Error::custom)?);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        let amount = units.ok_or_else(|| de::Error::missing_field(N::BASE_UNITS))?;
        Ok(WebhookAmount::of_units(amount))
    }
}

impl<'de, N: AmountName> Deserialize<'de> for WebhookAmount<N> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(AmountVisitor(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Charge {
        period_index: u64,
        #[serde(flatten)]
        gross: WebhookAmount<GrossField>,
        #[serde(flatten)]
        fee: WebhookAmount<FeeField>,
    }

    #[test]
    fn each_amount_is_an_exact_usd_number_beside_its_base_units() {
        let charge = Charge {
            period_index: 2,
            gross: WebhookAmount::of(Cents::new(1250)),
            fee: WebhookAmount::of_units(TokenAmount::from_base_units(4_950)),
        };

        let json = serde_json::to_string(&charge).unwrap();

        assert_eq!(
            json,
            r#"{"periodIndex":2,"grossUsd":12.50,"grossBaseUnits":"12500000","feeUsd":0.00495,"feeBaseUnits":"4950"}"#
        );
        assert_eq!(serde_json::from_str::<Charge>(&json).unwrap(), charge);
    }

    #[test]
    fn the_base_units_are_what_is_read_and_they_must_be_there() {
        let read: Charge = serde_json::from_str(
            r#"{"periodIndex":0,"grossUsd":1,"grossBaseUnits":"9990000","feeBaseUnits":"0"}"#,
        )
        .unwrap();
        assert_eq!(read.gross.amount(), TokenAmount::from_base_units(9_990_000));

        let missing = serde_json::from_str::<Charge>(r#"{"periodIndex":0,"grossBaseUnits":"1"}"#);
        assert!(missing.unwrap_err().to_string().contains("feeBaseUnits"));
        let negative =
            serde_json::from_str::<Charge>(r#"{"periodIndex":0,"grossBaseUnits":"-1","feeBaseUnits":"0"}"#);
        assert!(negative.is_err());
    }

    #[test]
    fn a_negative_amount_of_cents_is_written_as_zero() {
        let amount: WebhookAmount<PriceField> = WebhookAmount::of(Cents::new(-5));
        assert_eq!(amount.amount(), TokenAmount::from_base_units(0));
    }
}
