//! Tax jurisdictions and the rule that picks an order's tax rate.
//!
//! Precedence (ARCHITECTURE.md): an explicit rate wins; else the named jurisdiction (restricted to the
//! named components when given: their exact sum); else the merchant's default jurisdiction (the same
//! component restriction applies to it); else zero. An unknown jurisdiction or component is an error,
//! never a silent zero.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::rate::{RateError, TaxRate};

/// One named part of a jurisdiction's tax (e.g. state, county, city).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaxComponent {
    /// Code unique within the jurisdiction, compared case-insensitively (e.g. `state`).
    pub code: String,
    /// Human-readable name.
    pub name: String,
    /// The component's rate.
    pub rate: TaxRate,
}

/// A tax jurisdiction: a code like `US-CA` and the components whose sum is its full rate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Jurisdiction {
    /// Code compared case-insensitively (e.g. `US-CA`).
    pub code: String,
    /// Human-readable name.
    pub name: String,
    /// Components; the full rate is their sum.
    pub components: Vec<TaxComponent>,
}

/// What an order says about tax.
#[derive(Debug, Clone, Copy, Default)]
pub struct TaxSelection<'a> {
    /// A manual rate; wins over everything else.
    pub explicit_rate: Option<TaxRate>,
    /// The jurisdiction to tax in.
    pub jurisdiction_code: Option<&'a str>,
    /// Restricts the jurisdiction's components to these codes.
    pub component_codes: Option<&'a [String]>,
}

/// Why no tax rate could be chosen.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum TaxError {
    /// The jurisdiction is neither the merchant's nor in the catalog.
    #[error("unknown jurisdiction '{code}'")]
    UnknownJurisdiction {
        /// The code asked for.
        code: String,
    },
    /// A component code not defined for the jurisdiction.
    #[error("unknown tax component '{component}' in jurisdiction '{jurisdiction}'")]
    UnknownComponent {
        /// The jurisdiction.
        jurisdiction: String,
        /// The component code asked for.
        component: String,
    },
    /// The components add up to more than 100%.
    #[error("tax components of '{jurisdiction}' add up to more than 1")]
    RateAboveOne {
        /// The jurisdiction.
        jurisdiction: String,
        /// The underlying range error.
        #[source]
        source: RateError,
    },
}

impl Jurisdiction {
    /// The sum of all components, or of the named ones only.
    ///
    /// # Errors
    /// [`TaxError::UnknownComponent`] or [`TaxError::RateAboveOne`].
    pub fn rate(&self, only: Option<&[String]>) -> Result<TaxRate, TaxError> {
        let mut sum = Decimal::ZERO;
        match only {
            None => self.components.iter().for_each(|c| sum += c.rate.as_decimal()),
            Some(codes) => {
                for code in dedup_case_insensitive(codes) {
                    let component = self.component(code).ok_or_else(|| TaxError::UnknownComponent {
                        jurisdiction: self.code.clone(),
                        component: code.to_owned(),
                    })?;
                    sum += component.rate.as_decimal();
                }
            }
        }
        TaxRate::from_decimal(sum).map_err(|source| TaxError::RateAboveOne {
            jurisdiction: self.code.clone(),
            source,
        })
    }

    fn component(&self, code: &str) -> Option<&TaxComponent> {
        self.components.iter().find(|c| c.code.eq_ignore_ascii_case(code))
    }
}

fn dedup_case_insensitive(codes: &[String]) -> Vec<&str> {
    let mut seen: Vec<&str> = Vec::with_capacity(codes.len());
    for code in codes {
        if !seen.iter().any(|s| s.eq_ignore_ascii_case(code)) {
            seen.push(code);
        }
    }
    seen
}

/// Finds a jurisdiction by code, case-insensitively; earlier entries win, so list the merchant's own
/// jurisdictions before the built-in catalog to let them override it.
pub fn find_jurisdiction<'a>(jurisdictions: &'a [Jurisdiction], code: &str) -> Option<&'a Jurisdiction> {
    jurisdictions.iter().find(|j| j.code.eq_ignore_ascii_case(code))
}

/// Picks the tax rate for an order by the documented precedence.
///
/// # Errors
/// [`TaxError::UnknownJurisdiction`] for a code not in `jurisdictions` (including an unknown merchant
/// default), [`TaxError::UnknownComponent`], [`TaxError::RateAboveOne`].
pub fn resolve_tax_rate(
    selection: TaxSelection<'_>,
    jurisdictions: &[Jurisdiction],
    merchant_default: Option<&str>,
) -> Result<TaxRate, TaxError> {
    resolve_tax_rate_in(selection, [jurisdictions], merchant_default)
}

/// [`resolve_tax_rate`] over several lists searched in order (the merchant's own jurisdictions, then the
/// built-in catalog), without merging them into one.
///
/// # Errors
/// As [`resolve_tax_rate`].
pub fn resolve_tax_rate_in<const N: usize>(
    selection: TaxSelection<'_>,
    lists: [&[Jurisdiction]; N],
    merchant_default: Option<&str>,
) -> Result<TaxRate, TaxError> {
    if let Some(rate) = selection.explicit_rate {
        return Ok(rate);
    }
    let Some(code) = selection.jurisdiction_code.or(merchant_default) else {
        return Ok(TaxRate::ZERO);
    };
    let jurisdiction = lists
        .iter()
        .find_map(|list| find_jurisdiction(list, code))
        .ok_or_else(|| TaxError::UnknownJurisdiction {
            code: code.to_owned(),
        })?;
    jurisdiction.rate(selection.component_codes)
}

#[cfg(test)]
#[path = "tax_tests.rs"]
mod tests;
