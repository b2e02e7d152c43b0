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
