//! Wallet addresses: `0x` + 40 hex digits, compared case-insensitively.

use std::fmt;
use std::str::FromStr;

use alloy_primitives::Address;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use thiserror::Error;

/// An EVM account address (a merchant, a buyer, a split recipient).
///
/// Parsing accepts any letter case (EIP-55 checksums are not enforced, because wallets and
/// spreadsheets lower-case addresses freely); the canonical text form is lower case, so two spellings
/// of one address are equal and partition data the same way.
///
/// ```
/// use payments_core::Wallet;
/// let a: Wallet = "0xAbC0000000000000000000000000000000000001".parse().unwrap();
/// let b: Wallet = "0xabc0000000000000000000000000000000000001".parse().unwrap();
/// assert_eq!(a, b);
/// assert_eq!(a.to_string(), "0xabc0000000000000000000000000000000000001");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Wallet(Address);

/// Why a wallet address was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("'{text}' is not a 0x-prefixed 40-hex-digit address")]
pub struct WalletError {
    /// What was received (cut to 64 characters).
    pub text: String,
}

impl Wallet {
    /// Parses `0x` followed by exactly 40 hex digits, in any case.
    ///
    /// # Errors
    /// [`WalletError`] for anything else (no prefix, wrong length, non-hex, surrounding spaces).
    pub fn parse(text: &str) -> Result<Wallet, WalletError> {
        let error = || WalletError {
            text: text.chars().take(64).collect(),
        };
        let digits = text
            .strip_prefix("0x")
            .or_else(|| text.strip_prefix("0X"))
            .ok_or_else(error)?;
        if digits.len() != 40 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(error());
        }
        let mut bytes = [0u8; 20];
        hex::decode_to_slice(digits, &mut bytes).map_err(|_| error())?;
        Ok(Wallet(Address::from(bytes)))
    }

    /// Wraps an alloy address.
    pub const fn from_address(address: Address) -> Wallet {
        Wallet(address)
    }

    /// The alloy address.
    pub const fn address(self) -> Address {
        self.0
    }

    /// The EIP-55 mixed-case form, for display to people.
    pub fn to_checksum(self) -> String {
        self.0.to_checksum(None)
    }
}

impl fmt::Display for Wallet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.encode(&mut [0u8; 42]).ok_or(fmt::Error)?)
    }
}

impl Wallet {
    /// `0x` and 40 lowercase hex digits, encoded into `text` on the stack: wallets are written into every
    /// response, log line and SQL parameter, and `hex::encode` built a `String` char by char each time.
    /// `None` cannot happen (20 bytes fill the 40 digits exactly); it keeps the encoding total.
    fn encode<'a>(&self, text: &'a mut [u8; 42]) -> Option<&'a str> {
        text[..2].copy_from_slice(b"0x");
        hex::encode_to_slice(self.0.as_slice(), &mut text[2..]).ok()?;
        std::str::from_utf8(text).ok()
    }
}

impl FromStr for Wallet {
    type Err = WalletError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Wallet::parse(text)
    }
}

impl Serialize for Wallet {
    /// As one string, not through `Display` (`collect_str` feeds the formatter's pieces to the serializer's
    /// escaping writer one at a time).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.encode(&mut [0u8; 42]) {
            Some(text) => serializer.serialize_str(text),
            None => serializer.collect_str(self),
        }
    }
}

impl<'de> Deserialize<'de> for Wallet {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Wallet::parse(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_in_any_case_are_equal_and_render_lower_case() {
        let mixed = Wallet::parse("0x4A2Bd4f4A39EC4541baD64e197b26471523B7D41").unwrap();
        let lower = Wallet::parse("0x4a2bd4f4a39ec4541bad64e197b26471523b7d41").unwrap();
        assert_eq!(mixed, lower);
        assert_eq!(mixed.to_string(), "0x4a2bd4f4a39ec4541bad64e197b26471523b7d41");
        assert_eq!(mixed.to_checksum(), "0x4A2Bd4f4A39EC4541baD64e197b26471523B7D41");
    }

    #[test]
    fn malformed_addresses_are_refused() {
        for bad in [
            "",
            "0x",
            "4a2bd4f4a39ec4541bad64e197b26471523b7d41",
            "0x4a2bd4f4a39ec4541bad64e197b26471523b7d4",
            "0x4a2bd4f4a39ec4541bad64e197b26471523b7d411",
            "0x4a2bd4f4a39ec4541bad64e197b26471523b7dzz",
            " 0x4a2bd4f4a39ec4541bad64e197b26471523b7d41",
            "0x4a2bd4f4a39ec4541bad64e197b26471523b7dé",
        ] {
            assert!(Wallet::parse(bad).is_err(), "{bad} should be refused");
        }
    }

    #[test]
    fn wallets_serialize_as_lower_case_strings() {
        let wallet: Wallet = serde_json::from_str("\"0xABCDEF0000000000000000000000000000000001\"").unwrap();
        assert_eq!(
            serde_json::to_string(&wallet).unwrap(),
            "\"0xabcdef0000000000000000000000000000000001\""
        );
        assert!(serde_json::from_str::<Wallet>("\"0x1\"").is_err());
    }
}
