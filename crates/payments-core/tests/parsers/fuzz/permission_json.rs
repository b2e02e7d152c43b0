//! `permissionData` (the spend permission's JSON form, `SpendPermissionData`) and its parse step.

use super::{config, json_value};
use payments_core::{PermissionError, PermissionField, SpendPermissionData};
use proptest::prelude::*;

const PERMISSION_KEYS: &[&str] = &[
    "account",
    "spender",
    "token",
    "allowance",
    "period",
    "start",
    "end",
    "salt",
    "extraData",
];

/// 2^160 and 2^256 in decimal: the first values that do not fit `uint160` (allowance) and `uint256` (salt).
const TWO_POW_160: &str = "1461501637330902918203684832716283019655932542976";
const TWO_POW_256: &str = "115792089237316195423570985008687907853269984665640564039457584007913129639936";
const U48_LIMIT: u64 = 1 << 48;

/// Whether `text` is a decimal the parser must accept below `limit`: digits only, non-empty, and smaller
/// than `limit` once leading zeros are dropped (compared as digit strings, independently of the parser).
fn fits_below(text: &str, limit: &str) -> bool {
    if text.is_empty() || !text.bytes().all(|byte| byte.is_ascii_digit()) {
        return false;
    }
    let digits = text.trim_start_matches('0');
    digits.len() < limit.len() || (digits.len() == limit.len() && digits < limit)
}

fn address_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "0x[0-9a-f]{40}",
        "0x[0-9A-F]{40}",
        "[0-9a-f]{40}",
        "0x[0-9a-fA-F]{0,44}",
        "0X[0-9a-f]{40}",
        " ?0x[0-9a-f]{40} ?",
        ".{0,44}",
    ]
}

fn decimal_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[0-9]{1,30}",
        "[1-9][0-9]{47,49}",
        "0{0,5}[1-9][0-9]{70,80}",
        "0{1,60}[0-9]{1,10}",
        Just(TWO_POW_160.to_owned()),
        Just(TWO_POW_256.to_owned()),
        "[+-]?[0-9 _.eE]{0,12}",
        "0x[0-9a-f]{1,10}",
        ".{0,20}",
    ]
}

fn extra_data_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "0x([0-9a-fA-F]{2}){0,40}",
        "0x[0-9a-f]{0,9}",
        "[0-9a-f]{0,8}",
        ".{0,20}"
    ]
}

/// A permission that parses: canonical addresses, in-range numbers.
fn well_formed() -> impl Strategy<Value = SpendPermissionData> {
    (
        ("0x[0-9a-f]{40}", "0x[0-9a-f]{40}", "0x[0-9a-f]{40}"),
        ("[1-9][0-9]{0,40}", 1..U48_LIMIT, 0..U48_LIMIT, 0..U48_LIMIT),
        ("[0-9]{1,70}", "0x([0-9a-f]{2}){0,8}"),
    )
        .prop_map(
            |((account, spender, token), (allowance, period, start, end), (salt, extra_data))| {
                SpendPermissionData {
                    account,
                    spender,
                    token,
                    allowance,
                    period,
                    start,
                    end,
                    salt,
                    extra_data,
                }
            },
        )
}

fn refused_field(error: &PermissionError) -> Option<PermissionField> {
    match error {
        PermissionError::InvalidAddress { field }
        | PermissionError::NotDecimal { field }
        | PermissionError::OutOfRange { field, .. } => Some(*field),
        PermissionError::InvalidExtraData => Some(PermissionField::ExtraData),
        _ => None,
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn arbitrary_json_never_panics_and_a_parsed_permission_writes_back_to_itself(
        value in json_value(PERMISSION_KEYS),
    ) {
        if let Ok(data) = serde_json::from_value::<SpendPermissionData>(value)
            && let Ok(permission) = data.parse()
        {
            let written = SpendPermissionData::from(&permission);
            prop_assert_eq!(written.parse(), Ok(permission));
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic_the_json_parse(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        if let Ok(data) = serde_json::from_slice::<SpendPermissionData>(&bytes) {
            let _ = data.parse();
        }
    }

    #[test]
    fn decimal_fields_accept_exactly_the_digits_that_fit_their_on_chain_width(
        base in well_formed(),
        allowance in decimal_text(),
        salt in decimal_text(),
    ) {
        let with_allowance = SpendPermissionData { allowance: allowance.clone(), ..base.clone() };
        match with_allowance.parse() {
            Ok(permission) => {
                prop_assert!(fits_below(&allowance, TWO_POW_160), "accepted {allowance:?}");
                let canonical = allowance.trim_start_matches('0');
                let expected = if canonical.is_empty() { "0" } else { canonical };
                prop_assert_eq!(permission.allowance.to_string(), expected);
            }
            Err(error) => {
                prop_assert!(!fits_below(&allowance, TWO_POW_160), "refused {allowance:?}: {error}");
                prop_assert_eq!(refused_field(&error), Some(PermissionField::Allowance));
            }
        }
        let with_salt = SpendPermissionData { salt: salt.clone(), ..base };
        match with_salt.parse() {
            Ok(_) => prop_assert!(fits_below(&salt, TWO_POW_256), "accepted {salt:?}"),
            Err(error) => {
                prop_assert!(!fits_below(&salt, TWO_POW_256), "refused {salt:?}: {error}");
                prop_assert_eq!(refused_field(&error), Some(PermissionField::Salt));
            }
        }
    }

    #[test]
    fn times_and_periods_wider_than_uint48_are_refused_naming_their_field(
        base in well_formed(),
        value in prop_oneof![0..U48_LIMIT, U48_LIMIT - 2..U48_LIMIT + 2, any::<u64>()],
        which in 0..3_usize,
    ) {
        let (data, field) = match which {
            0 => (SpendPermissionData { period: value, ..base }, PermissionField::Period),
            1 => (SpendPermissionData { start: value, ..base }, PermissionField::Start),
            _ => (SpendPermissionData { end: value, ..base }, PermissionField::End),
        };
        match data.parse() {
            Ok(_) => prop_assert!(value < U48_LIMIT),
            Err(error) => {
                prop_assert!(value >= U48_LIMIT, "refused {value}: {error}");
                prop_assert_eq!(refused_field(&error), Some(field));
            }
        }
    }

    #[test]
    fn an_address_parses_only_to_the_twenty_bytes_its_text_spells(
        base in well_formed(),
        text in address_text(),
        which in 0..3_usize,
    ) {
        let (data, field) = match which {
            0 => (SpendPermissionData { account: text.clone(), ..base }, PermissionField::Account),
            1 => (SpendPermissionData { spender: text.clone(), ..base }, PermissionField::Spender),
            _ => (SpendPermissionData { token: text.clone(), ..base }, PermissionField::Token),
        };
        match data.parse() {
            Ok(permission) => {
                let parsed = match field {
                    PermissionField::Account => permission.account,
                    PermissionField::Spender => permission.spender,
                    _ => permission.token,
                };
                let trimmed = text.trim();
                let digits = trimmed
                    .strip_prefix("0x")
                    .or_else(|| trimmed.strip_prefix("0X"))
                    .unwrap_or(trimmed)
                    .to_ascii_lowercase();
                prop_assert_eq!(hex::encode(parsed), digits);
            }
            Err(error) => prop_assert_eq!(refused_field(&error), Some(field)),
        }
    }

    #[test]
    fn extra_data_is_accepted_exactly_as_0x_prefixed_whole_bytes_of_hex(
        base in well_formed(),
        text in extra_data_text(),
    ) {
        let data = SpendPermissionData { extra_data: text.clone(), ..base };
        let digits = text.strip_prefix("0x");
        let valid = digits.is_some_and(|digits| {
            digits.len() % 2 == 0 && digits.bytes().all(|byte| byte.is_ascii_hexdigit())
        });
        match data.parse() {
            Ok(permission) => {
                prop_assert!(valid, "accepted {text:?}");
                prop_assert_eq!(hex::encode(&permission.extra_data), digits.unwrap_or_default().to_ascii_lowercase());
            }
            Err(error) => {
                prop_assert!(!valid, "refused {text:?}: {error}");
                prop_assert_eq!(error, PermissionError::InvalidExtraData);
            }
        }
    }
}
