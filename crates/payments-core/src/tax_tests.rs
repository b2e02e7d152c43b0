use super::*;

fn rate(text: &str) -> TaxRate {
    TaxRate::parse(text).unwrap()
}

fn california() -> Jurisdiction {
    Jurisdiction {
        code: "US-CA".into(),
        name: "California".into(),
        components: vec![
            TaxComponent {
                code: "state".into(),
                name: "State".into(),
                rate: rate("0.0725"),
            },
            TaxComponent {
                code: "county".into(),
                name: "County".into(),
                rate: rate("0.01"),
            },
            TaxComponent {
                code: "district".into(),
                name: "District".into(),
                rate: rate("0.0025"),
            },
        ],
    }
}

fn oregon() -> Jurisdiction {
    Jurisdiction {
        code: "US-OR".into(),
        name: "Oregon".into(),
        components: vec![],
    }
}

#[test]
fn an_explicit_rate_wins_over_any_jurisdiction() {
    let selection = TaxSelection {
        explicit_rate: Some(rate("0.05")),
        jurisdiction_code: Some("US-CA"),
        component_codes: None,
    };
    assert_eq!(
        resolve_tax_rate(selection, &[california()], Some("US-CA")),
        Ok(rate("0.05"))
    );
}

#[test]
fn a_jurisdiction_without_components_listed_applies_its_full_rate() {
    let selection = TaxSelection {
        jurisdiction_code: Some("us-ca"),
        ..Default::default()
    };
    assert_eq!(
        resolve_tax_rate(selection, &[california()], None),
        Ok(rate("0.085"))
    );
}

#[test]
fn named_components_apply_their_exact_sum() {
    let codes = vec!["state".to_owned(), "DISTRICT".to_owned(), "state".to_owned()];
    let selection = TaxSelection {
        jurisdiction_code: Some("US-CA"),
        component_codes: Some(&codes),
        ..Default::default()
    };
    assert_eq!(
        resolve_tax_rate(selection, &[california()], None),
        Ok(rate("0.075"))
    );
}

#[test]
fn the_merchant_default_applies_when_the_order_names_no_jurisdiction() {
    let found = resolve_tax_rate(TaxSelection::default(), &[oregon(), california()], Some("US-CA"));
    assert_eq!(found, Ok(rate("0.085")));
}

#[test]
fn no_rate_no_jurisdiction_and_no_default_is_zero_tax() {
    assert_eq!(
        resolve_tax_rate(TaxSelection::default(), &[california()], None),
        Ok(TaxRate::ZERO)
    );
}

#[test]
fn an_unknown_jurisdiction_is_an_error_not_zero() {
    let selection = TaxSelection {
        jurisdiction_code: Some("US-XX"),
        ..Default::default()
    };
    assert_eq!(
        resolve_tax_rate(selection, &[california()], None),
        Err(TaxError::UnknownJurisdiction { code: "US-XX".into() })
    );
    assert!(resolve_tax_rate(TaxSelection::default(), &[california()], Some("US-ZZ")).is_err());
}

#[test]
fn an_unknown_component_is_an_error() {
    let codes = vec!["city".to_owned()];
    let selection = TaxSelection {
        jurisdiction_code: Some("US-CA"),
        component_codes: Some(&codes),
        ..Default::default()
    };
    assert!(matches!(
        resolve_tax_rate(selection, &[california()], None),
        Err(TaxError::UnknownComponent { .. })
    ));
}

#[test]
fn the_merchants_own_jurisdiction_overrides_the_catalog_when_listed_first() {
    let mut own = california();
    own.components.truncate(1);
    let selection = TaxSelection {
        jurisdiction_code: Some("US-CA"),
        ..Default::default()
    };
    assert_eq!(
        resolve_tax_rate(selection, &[own, california()], None),
        Ok(rate("0.0725"))
    );
}

#[test]
fn components_adding_up_past_one_are_refused() {
    let broken = Jurisdiction {
        code: "X-1".into(),
        name: "Broken".into(),
        components: vec![
            TaxComponent {
                code: "a".into(),
                name: "A".into(),
                rate: rate("0.6"),
            },
            TaxComponent {
                code: "b".into(),
                name: "B".into(),
                rate: rate("0.6"),
            },
        ],
    };
    let selection = TaxSelection {
        jurisdiction_code: Some("X-1"),
        ..Default::default()
    };
    assert!(matches!(
        resolve_tax_rate(selection, &[broken], None),
        Err(TaxError::RateAboveOne { .. })
    ));
}
