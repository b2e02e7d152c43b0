//! The built-in tax catalog: US state-level base sales-tax rates, as data.
//!
//! Rates are the statewide base rates in force in 2025 (Utah and Virginia include their mandatory
//! statewide local add-ons, as retailers collect them everywhere in the state). Local (county, city,
//! district) rates vary by address and are not included: merchants add their own jurisdictions or
//! components through shop settings, and theirs override the catalog. This is reference data, not tax
//! advice.

use std::sync::LazyLock;

use crate::rate::TaxRate;
use crate::tax::{Jurisdiction, TaxComponent};

/// `(code, name, statewide rate)`.
const US_STATE_RATES: [(&str, &str, &str); 51] = [
    ("US-AL", "Alabama", "0.04"),
    ("US-AK", "Alaska", "0"),
    ("US-AZ", "Arizona", "0.056"),
    ("US-AR", "Arkansas", "0.065"),
    ("US-CA", "California", "0.0725"),
    ("US-CO", "Colorado", "0.029"),
    ("US-CT", "Connecticut", "0.0635"),
    ("US-DE", "Delaware", "0"),
    ("US-DC", "District of Columbia", "0.06"),
    ("US-FL", "Florida", "0.06"),
    ("US-GA", "Georgia", "0.04"),
    ("US-HI", "Hawaii", "0.04"),
    ("US-ID", "Idaho", "0.06"),
    ("US-IL", "Illinois", "0.0625"),
    ("US-IN", "Indiana", "0.07"),
    ("US-IA", "Iowa", "0.06"),
    ("US-KS", "Kansas", "0.065"),
    ("US-KY", "Kentucky", "0.06"),
    ("US-LA", "Louisiana", "0.05"),
    ("US-ME", "Maine", "0.055"),
    ("US-MD", "Maryland", "0.06"),
    ("US-MA", "Massachusetts", "0.0625"),
    ("US-MI", "Michigan", "0.06"),
    ("US-MN", "Minnesota", "0.06875"),
    ("US-MS", "Mississippi", "0.07"),
    ("US-MO", "Missouri", "0.04225"),
    ("US-MT", "Montana", "0"),
    ("US-NE", "Nebraska", "0.055"),
    ("US-NV", "Nevada", "0.0685"),
    ("US-NH", "New Hampshire", "0"),
    ("US-NJ", "New Jersey", "0.06625"),
    ("US-NM", "New Mexico", "0.04875"),
    ("US-NY", "New York", "0.04"),
    ("US-NC", "North Carolina", "0.0475"),
    ("US-ND", "North Dakota", "0.05"),
    ("US-OH", "Ohio", "0.0575"),
    ("US-OK", "Oklahoma", "0.045"),
    ("US-OR", "Oregon", "0"),
    ("US-PA", "Pennsylvania", "0.06"),
    ("US-RI", "Rhode Island", "0.07"),
    ("US-SC", "South Carolina", "0.06"),
    ("US-SD", "South Dakota", "0.042"),
    ("US-TN", "Tennessee", "0.07"),
    ("US-TX", "Texas", "0.0625"),
    ("US-UT", "Utah", "0.061"),
    ("US-VT", "Vermont", "0.06"),
    ("US-VA", "Virginia", "0.053"),
    ("US-WA", "Washington", "0.065"),
    ("US-WV", "West Virginia", "0.06"),
    ("US-WI", "Wisconsin", "0.05"),
    ("US-WY", "Wyoming", "0.04"),
];

/// The code of the one component every catalog jurisdiction has.
pub const STATE_COMPONENT_CODE: &str = "state";

/// Built once: every order is priced against it, and building it (51 jurisdictions, their names and parsed
/// rates) cost more than the rest of an order's pricing.
static CATALOG: LazyLock<Vec<Jurisdiction>> = LazyLock::new(build_catalog);

/// The built-in jurisdictions: every US state and DC, each with one `state` component.
pub fn builtin_tax_catalog() -> &'static [Jurisdiction] {
    &CATALOG
}

fn build_catalog() -> Vec<Jurisdiction> {
    US_STATE_RATES
        .iter()
        .map(|(code, name, rate)| Jurisdiction {
            code: (*code).to_owned(),
            name: (*name).to_owned(),
            components: vec![TaxComponent {
                code: STATE_COMPONENT_CODE.to_owned(),
                name: format!("{name} state sales tax"),
                // The table above is fixed, well-formed data; a bad entry would read as zero and fail
                // the catalog test below.
                rate: TaxRate::parse(rate).unwrap_or(TaxRate::ZERO),
            }],
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tax::{TaxSelection, resolve_tax_rate};

    #[test]
    fn every_catalog_rate_is_well_formed_and_codes_are_unique() {
        let catalog = builtin_tax_catalog();
        assert_eq!(catalog.len(), 51);
        for (code, _, rate) in US_STATE_RATES {
            assert!(TaxRate::parse(rate).is_ok(), "{code}");
        }
        let mut codes: Vec<_> = catalog.iter().map(|j| j.code.clone()).collect();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), 51);
    }

    #[test]
    fn the_catalog_resolves_state_rates() {
        let catalog = builtin_tax_catalog();
        let california = TaxSelection {
            jurisdiction_code: Some("US-CA"),
            ..Default::default()
        };
        assert_eq!(
            resolve_tax_rate(california, catalog, None),
            Ok(TaxRate::parse("0.0725").unwrap())
        );
        let oregon = TaxSelection {
            jurisdiction_code: Some("us-or"),
            ..Default::default()
        };
        assert_eq!(resolve_tax_rate(oregon, catalog, None), Ok(TaxRate::ZERO));
    }
}
