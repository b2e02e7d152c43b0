//! Serde forms of token amounts on the wire: USD numbers to the sixth decimal (`0.03875`), and integer
//! base-unit strings (`"38750"`), both read exactly into [`TokenAmount`].

use payments_core::TokenAmount;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serializer};

/// A USD JSON number with at most 6 decimals (`#[serde(with = "usd_number")]`).
pub(crate) mod usd_number {
    use super::*;

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<TokenAmount, D::Error> {
        let number = serde_json::Number::deserialize(deserializer)?;
        TokenAmount::parse_usd(&number.to_string()).map_err(D::Error::custom)
    }

    pub(crate) fn serialize<S: Serializer>(amount: &TokenAmount, serializer: S) -> Result<S::Ok, S::Error> {
        serde::Serialize::serialize(&amount.to_usd_json_number(), serializer)
    }
}

/// Base units as a decimal string (`#[serde(with = "base_units")]`).
pub(crate) mod base_units {
    use super::*;

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<TokenAmount, D::Error> {
        let text = String::deserialize(deserializer)?;
        TokenAmount::parse_base_units(&text).map_err(D::Error::custom)
    }

    pub(crate) fn serialize<S: Serializer>(amount: &TokenAmount, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(amount)
    }
}
