//! The JSON form of a spend permission (`permissionData` when subscribing) and its parse step.

use super::{PermissionError, SpendPermission};
use alloy_primitives::aliases::U48;
use alloy_primitives::{Address, Bytes, Uint};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A spend permission as it travels in JSON: addresses and big integers as strings, times as integer
/// unix seconds, `extraData` as `0x` hex.
///
/// ```
/// # use payments_core::SpendPermissionData;
/// let data: SpendPermissionData = serde_json::from_str(r#"{
///     "account": "0x4A2Bd4f4A39EC4541baD64e197b26471523B7D41",
///     "spender": "0x013D66f00e046393cDA5fc85598ED045449DF2ED",
///     "token": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
///     "allowance": "1000000", "period": 604800, "start": 1769189627, "end": 1776447227,
///     "salt": "508", "extraData": "0x"
/// }"#)?;
/// let permission = data.parse()?;
/// assert_eq!(permission.period_secs(), 604_800);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SpendPermissionData {
    /// The granting wallet address.
    pub account: String,
    /// The spender address.
    pub spender: String,
    /// The token contract address.
    pub token: String,
    /// Allowance per period in token base units, as a decimal string.
    pub allowance: String,
    /// Period length in seconds.
    pub period: u64,
    /// Start, unix seconds.
    pub start: u64,
    /// End, unix seconds.
    pub end: u64,
    /// Salt as a decimal string.
    pub salt: String,
    /// Extra data as `0x`-prefixed hex (`"0x"` when empty).
    pub extra_data: String,
}

impl SpendPermissionData {
    /// Converts the wire form into a typed [`SpendPermission`], checking every field against its
    /// on-chain type. Never panics, whatever the input.
    ///
    /// # Errors
    ///
    /// [`PermissionError::InvalidAddress`] for an address that is not 20 bytes of hex,
    /// [`PermissionError::NotDecimal`] for an allowance or salt that is empty or has anything but the
    /// digits 0-9 (no sign, spaces or `0x`), [`PermissionError::OutOfRange`] for a value wider than
    /// `uint160` (allowance), `uint48` (period, start, end) or `uint256` (salt), and
    /// [`PermissionError::InvalidExtraData`] for extra data that is not `0x`-prefixed hex.
    pub fn parse(&self) -> Result<SpendPermission, PermissionError> {
        Ok(SpendPermission {
            account: parse_address(&self.account, PermissionField::Account)?,
            spender: parse_address(&self.spender, PermissionField::Spender)?,
            token: parse_address(&self.token, PermissionField::Token)?,
            allowance: parse_decimal::<160, 3>(&self.allowance, PermissionField::Allowance)?,
            period: narrow_u48(self.period, PermissionField::Period)?,
            start: narrow_u48(self.start, PermissionField::Start)?,
            end: narrow_u48(self.end, PermissionField::End)?,
            salt: parse_decimal::<256, 4>(&self.salt, PermissionField::Salt)?,
            extra_data: parse_extra_data(&self.extra_data)?,
        })
    }
}

impl TryFrom<&SpendPermissionData> for SpendPermission {
    type Error = PermissionError;

    fn try_from(data: &SpendPermissionData) -> Result<Self, Self::Error> {
        data.parse()
    }
}

impl From<&SpendPermission> for SpendPermissionData {
    fn from(permission: &SpendPermission) -> Self {
        Self {
            account: permission.account.to_checksum(None),
            spender: permission.spender.to_checksum(None),
            token: permission.token.to_checksum(None),
            allowance: permission.allowance.to_string(),
            period: permission.period_secs(),
            start: permission.start_secs(),
            end: permission.end_secs(),
            salt: permission.salt.to_string(),
            extra_data: permission.extra_data.to_string(),
        }
    }
}

/// A field of [`SpendPermissionData`], named in errors by its JSON name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PermissionField {
    /// `account`
    Account,
    /// `spender`
    Spender,
    /// `token`
    Token,
    /// `allowance`
    Allowance,
    /// `period`
    Period,
    /// `start`
    Start,
    /// `end`
    End,
    /// `salt`
    Salt,
    /// `extraData`
    ExtraData,
}

impl PermissionField {
    /// The field's JSON name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Account => "account",
            Self::Spender => "spender",
            Self::Token => "token",
            Self::Allowance => "allowance",
            Self::Period => "period",
            Self::Start => "start",
            Self::End => "end",
            Self::Salt => "salt",
            Self::ExtraData => "extraData",
        }
    }
}

impl fmt::Display for PermissionField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

fn parse_address(text: &str, field: PermissionField) -> Result<Address, PermissionError> {
    text.parse()
        .map_err(|_| PermissionError::InvalidAddress { field })
}

fn parse_decimal<const BITS: usize, const LIMBS: usize>(
    text: &str,
    field: PermissionField,
) -> Result<Uint<BITS, LIMBS>, PermissionError> {
    if text.is_empty() || !text.bytes().all(|byte| byte.is_ascii_digit()) {
        return Err(PermissionError::NotDecimal { field });
    }
    Uint::from_str_radix(text, 10).map_err(|_| out_of_range(field, BITS))
}

fn narrow_u48(value: u64, field: PermissionField) -> Result<U48, PermissionError> {
    U48::try_from(value).map_err(|_| out_of_range(field, U48::BITS))
}

fn out_of_range(field: PermissionField, bits: usize) -> PermissionError {
    PermissionError::OutOfRange {
        field,
        bits: u16::try_from(bits).unwrap_or(u16::MAX),
    }
}

fn parse_extra_data(text: &str) -> Result<Bytes, PermissionError> {
    let digits = text.strip_prefix("0x").ok_or(PermissionError::InvalidExtraData)?;
    hex::decode(digits)
        .map(Bytes::from)
        .map_err(|_| PermissionError::InvalidExtraData)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_primitives::address;
    use alloy_primitives::aliases::U160;

    fn valid() -> SpendPermissionData {
        SpendPermissionData {
            account: "0x16624e3d19e7cB99C70E7FeD141ab4eF96BaD05e".to_owned(),
            spender: "0xCFF51a4cF434AF9f98f3d4276d14b977571d52b3".to_owned(),
            token: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913".to_owned(),
            allowance: "9990000".to_owned(),
            period: 604_800,
            start: 1_768_330_000,
            end: 281_474_976_710_655,
            salt: "100042566594547667590869811986889420250097115833722947930304495009269076338806".to_owned(),
            extra_data: "0x".to_owned(),
        }
    }

    #[test]
    fn a_valid_permission_parses_into_typed_fields() {
        let permission = valid().parse().expect("valid data parses");

        assert_eq!(
            permission.account,
            address!("0x16624e3d19e7cB99C70E7FeD141ab4eF96BaD05e")
        );
        assert_eq!(permission.allowance, U160::from(9_990_000_u64));
        assert_eq!(permission.end_secs(), 281_474_976_710_655);
        assert!(permission.extra_data.is_empty());
    }

    #[test]
    fn the_wire_form_round_trips_through_the_typed_struct() {
        let data = valid();

        let back = SpendPermissionData::from(&data.parse().expect("valid data parses"));

        assert_eq!(back, data);
    }

    #[test]
    fn json_uses_camel_case_names() {
        let json = r#"{"account":"0x16624e3d19e7cB99C70E7FeD141ab4eF96BaD05e","spender":"0xCFF51a4cF434AF9f98f3d4276d14b977571d52b3","token":"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913","allowance":"1","period":1,"start":0,"end":2,"salt":"0","extraData":"0xab"}"#;

        let data: SpendPermissionData = serde_json::from_str(json).expect("valid json");

        assert_eq!(data.extra_data, "0xab");
    }

    #[test]
    fn the_largest_uint160_allowance_is_accepted() {
        let data = SpendPermissionData {
            allowance: "1461501637330902918203684832716283019655932542975".to_owned(),
            ..valid()
        };

        assert_eq!(data.parse().map(|p| p.allowance), Ok(U160::MAX));
    }

    #[test]
    fn an_allowance_above_uint160_is_out_of_range() {
        let data = SpendPermissionData {
            allowance: "1461501637330902918203684832716283019655932542976".to_owned(),
            ..valid()
        };

        assert_eq!(
            data.parse(),
            Err(PermissionError::OutOfRange {
                field: PermissionField::Allowance,
                bits: 160
            })
        );
    }

    #[test]
    fn a_period_above_uint48_is_out_of_range() {
        let data = SpendPermissionData {
            period: 281_474_976_710_656,
            ..valid()
        };

        assert_eq!(
            data.parse(),
            Err(PermissionError::OutOfRange {
                field: PermissionField::Period,
                bits: 48
            })
        );
    }

    #[test]
    fn start_and_end_above_uint48_are_out_of_range() {
        let late_start = SpendPermissionData {
            start: u64::MAX,
            ..valid()
        };
        let late_end = SpendPermissionData {
            end: 281_474_976_710_656,
            ..valid()
        };

        assert_eq!(
            late_start.parse(),
            Err(PermissionError::OutOfRange {
                field: PermissionField::Start,
                bits: 48
            })
        );
        assert_eq!(
            late_end.parse(),
            Err(PermissionError::OutOfRange {
                field: PermissionField::End,
                bits: 48
            })
        );
    }

    #[test]
    fn a_salt_above_uint256_is_out_of_range() {
        let data = SpendPermissionData {
            salt: "115792089237316195423570985008687907853269984665640564039457584007913129639936".to_owned(),
            ..valid()
        };

        assert_eq!(
            data.parse(),
            Err(PermissionError::OutOfRange {
                field: PermissionField::Salt,
                bits: 256
            })
        );
    }

    #[test]
    fn negative_signed_spaced_hex_or_empty_allowances_are_not_decimal() {
        for text in ["-1", "+1", " 1", "1 ", "0x10", "1e6", "1.5", "", "abc", "１"] {
            let data = SpendPermissionData {
                allowance: text.to_owned(),
                ..valid()
            };

            assert_eq!(
                data.parse(),
                Err(PermissionError::NotDecimal {
                    field: PermissionField::Allowance
                }),
                "allowance {text:?}"
            );
        }
    }

    #[test]
    fn a_garbage_salt_is_not_decimal() {
        let data = SpendPermissionData {
            salt: "salt".to_owned(),
            ..valid()
        };

        assert_eq!(
            data.parse(),
            Err(PermissionError::NotDecimal {
                field: PermissionField::Salt
            })
        );
    }

    #[test]
    fn malformed_addresses_name_their_field() {
        let short_token = SpendPermissionData {
            token: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA029".to_owned(),
            ..valid()
        };
        let garbage_spender = SpendPermissionData {
            spender: "spender".to_owned(),
            ..valid()
        };

        assert_eq!(
            short_token.parse(),
            Err(PermissionError::InvalidAddress {
                field: PermissionField::Token
            })
        );
        assert_eq!(
            garbage_spender.parse(),
            Err(PermissionError::InvalidAddress {
                field: PermissionField::Spender
            })
        );
    }

    #[test]
    fn extra_data_without_prefix_or_with_bad_hex_is_rejected() {
        for text in ["ab", "0xabc", "0xzz", ""] {
            let data = SpendPermissionData {
                extra_data: text.to_owned(),
                ..valid()
            };

            assert_eq!(
                data.parse(),
                Err(PermissionError::InvalidExtraData),
                "extraData {text:?}"
            );
        }
    }

    #[test]
    fn a_negative_period_in_json_is_rejected_by_deserialization() {
        let json = r#"{"account":"0x16624e3d19e7cB99C70E7FeD141ab4eF96BaD05e","spender":"0xCFF51a4cF434AF9f98f3d4276d14b977571d52b3","token":"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913","allowance":"1","period":-1,"start":0,"end":2,"salt":"0","extraData":"0x"}"#;

        let result = serde_json::from_str::<SpendPermissionData>(json);

        assert!(result.is_err());
    }

    #[test]
    fn errors_read_as_lowercase_sentences() {
        let error = PermissionError::OutOfRange {
            field: PermissionField::ExtraData,
            bits: 48,
        };

        assert_eq!(error.to_string(), "extraData does not fit in uint48");
    }
}
