use proptest::prelude::*;

use super::*;

#[test]
fn usd_text_with_up_to_two_decimals_becomes_exact_cents() {
    assert_eq!(Cents::parse_usd("19.99"), Ok(Cents::new(1999)));
    assert_eq!(Cents::parse_usd("12.5"), Ok(Cents::new(1250)));
    assert_eq!(Cents::parse_usd("7"), Ok(Cents::new(700)));
    assert_eq!(Cents::parse_usd("0.01"), Ok(Cents::new(1)));
    assert_eq!(Cents::parse_usd("1.50000"), Ok(Cents::new(150)));
    assert_eq!(Cents::parse_usd("1.2e1"), Ok(Cents::new(1200)));
    assert_eq!(Cents::parse_usd("-0"), Ok(Cents::ZERO));
}

#[test]
fn more_than_two_decimals_is_refused_not_rounded() {
    assert!(matches!(
        Cents::parse_usd("1.005"),
        Err(MoneyError::TooPrecise { .. })
    ));
    assert!(matches!(
        Cents::parse_usd("0.001"),
        Err(MoneyError::TooPrecise { .. })
    ));
}

#[test]
fn negative_garbage_and_huge_amounts_get_typed_errors() {
    assert!(matches!(Cents::parse_usd("-1"), Err(MoneyError::Negative { .. })));
    assert!(matches!(
        Cents::parse_usd("abc"),
        Err(MoneyError::NotANumber { .. })
    ));
    assert!(matches!(Cents::parse_usd(""), Err(MoneyError::NotANumber { .. })));
    assert!(matches!(
        Cents::parse_usd("NaN"),
        Err(MoneyError::NotANumber { .. })
    ));
    assert!(matches!(
        Cents::parse_usd("inf"),
        Err(MoneyError::NotANumber { .. })
    ));
    assert!(matches!(
        Cents::parse_usd("1.2.3"),
        Err(MoneyError::NotANumber { .. })
    ));
    assert!(matches!(
        Cents::parse_usd("1e300"),
        Err(MoneyError::TooLarge { .. })
    ));
    assert!(matches!(
        Cents::parse_usd("1000000000001"),
        Err(MoneyError::TooLarge { .. })
    ));
    assert_eq!(Cents::parse_usd("1000000000000"), Ok(Cents::new(MAX_USD_CENTS)));
}

#[test]
fn json_numbers_are_read_exactly() {
    let body: serde_json::Value = serde_json::from_str(r#"[19.99, 0.1, 3, 1.005, -2, 1e2, "5"]"#).unwrap();
    let parsed: Vec<_> = body
        .as_array()
        .unwrap()
        .iter()
        .map(Cents::from_json_value)
        .collect();
    assert_eq!(parsed[0], Ok(Cents::new(1999)));
    assert_eq!(parsed[1], Ok(Cents::new(10)));
    assert_eq!(parsed[2], Ok(Cents::new(300)));
    assert!(matches!(parsed[3], Err(MoneyError::TooPrecise { .. })));
    assert!(matches!(parsed[4], Err(MoneyError::Negative { .. })));
    assert_eq!(parsed[5], Ok(Cents::new(10000)));
    assert!(matches!(parsed[6], Err(MoneyError::NotANumber { .. })));
}

#[test]
fn cents_serialize_as_usd_numbers_and_deserialize_exactly() {
    assert_eq!(serde_json::to_string(&Cents::new(1265)).unwrap(), "12.65");
    assert_eq!(serde_json::to_string(&Cents::new(1200)).unwrap(), "12");
    assert_eq!(serde_json::to_string(&Cents::new(1)).unwrap(), "0.01");
    assert_eq!(
        serde_json::from_str::<Cents>("111.69").unwrap(),
        Cents::new(11169)
    );
    assert!(serde_json::from_str::<Cents>("0.125").is_err());
    assert!(serde_json::from_str::<Cents>("\"1\"").is_err());
}

#[test]
fn display_renders_two_decimals() {
    assert_eq!(Cents::new(5).to_string(), "0.05");
    assert_eq!(Cents::new(-150).to_string(), "-1.50");
}

#[test]
fn token_amounts_convert_exactly_both_ways() {
    assert_eq!(
        Cents::new(1265).to_token_amount().unwrap().base_units(),
        12_650_000
    );
    assert_eq!(
        TokenAmount::from_base_units(12_650_000).to_cents_exact(),
        Ok(Cents::new(1265))
    );
    assert_eq!(
        TokenAmount::from_base_units(12_650_001).to_cents_exact(),
        Err(MoneyError::NotWholeCents { units: 12_650_001 })
    );
    assert!(Cents::new(-1).to_token_amount().is_err());
    assert_eq!(
        TokenAmount::parse_base_units("1000000"),
        Ok(TokenAmount::from_base_units(1_000_000))
    );
    assert!(TokenAmount::parse_base_units("-1").is_err());
    assert!(TokenAmount::parse_base_units("1e6").is_err());
}

#[test]
fn arithmetic_refuses_overflow() {
    assert_eq!(
        Cents::new(i64::MAX).checked_add(Cents::new(1)),
        Err(MoneyError::Overflow)
    );
    assert_eq!(Cents::new(i64::MAX).checked_mul(2), Err(MoneyError::Overflow));
    assert_eq!(
        Cents::checked_sum([Cents::new(1), Cents::new(2)]),
        Ok(Cents::new(3))
    );
}

proptest! {
    #[test]
    fn any_cents_value_round_trips_through_json(cents in 0i64..=MAX_USD_CENTS) {
        let json = serde_json::to_string(&Cents::new(cents)).unwrap();
        prop_assert_eq!(serde_json::from_str::<Cents>(&json).unwrap(), Cents::new(cents));
    }

    #[test]
    fn any_cents_value_round_trips_through_display(cents in 0i64..=MAX_USD_CENTS) {
        prop_assert_eq!(Cents::parse_usd(&Cents::new(cents).to_string()), Ok(Cents::new(cents)));
    }

    #[test]
    fn parsing_arbitrary_text_never_panics(text in "\\PC{0,40}") {
        let _ = Cents::parse_usd(&text);
    }

    #[test]
    fn token_conversion_round_trips(cents in 0i64..=MAX_USD_CENTS) {
        let tokens = Cents::new(cents).to_token_amount().unwrap();
        prop_assert_eq!(tokens.to_cents_exact(), Ok(Cents::new(cents)));
    }
}
