//! JSON form of [`Cents`]: a USD number (`12.65`), read exactly.

use std::fmt;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::money::Cents;

impl Serialize for Cents {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_json_number().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Cents {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(UsdVisitor)
    }
}

struct UsdVisitor;

impl Visitor<'_> for UsdVisitor {
    type Value = Cents;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a non-negative USD amount with at most 2 decimals")
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Cents, E> {
        Cents::parse_usd(&value.to_string()).map_err(E::custom)
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Cents, E> {
        Cents::parse_usd(&value.to_string()).map_err(E::custom)
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Cents, E> {
        // Display of f64 is the shortest text that reads back to the same value, without exponent.
        Cents::parse_usd(&value.to_string()).map_err(E::custom)
    }
}
