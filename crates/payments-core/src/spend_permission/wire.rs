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
mod tests;
