//! `shippingConfig` of a product: the spec's known names plus the ones this server names (docs/inventory.md).
//!
//! Its serde is the stored form (the product's `shipping_config_json` column) only: the upsert body decodes,
//! and the answers write, the server's wire twin (`api/wire/shipping.rs`), so the two can change apart.

use std::collections::BTreeMap;

use payments_core::Cents;
use serde::{Deserialize, Serialize};

use crate::field_error::FieldError;
use crate::inventory::text;

const MAX_HANDLING_DAYS: u32 = 30;

/// Parcel size class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ShippingClass {
    Standard,
    Expedited,
    Freight,
    Oversized,
}

/// A delivery method a product can be sent with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ShippingMethod {
    Standard,
    Express,
    Overnight,
    Pickup,
}

impl ShippingMethod {
    fn name(self) -> &'static str {
        match self {
            ShippingMethod::Standard => "standard",
            ShippingMethod::Express => "express",
            ShippingMethod::Overnight => "overnight",
            ShippingMethod::Pickup => "pickup",
        }
    }
}

/// Unit of the dimensions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DimensionUnit {
    In,
    Cm,
}

/// Package dimensions; all three sizes are required and positive.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Dimensions {
    pub length: f64,
    pub width: f64,
    pub height: f64,
    pub unit: DimensionUnit,
}

/// Shipping settings. Unknown properties are refused (`deny_unknown_fields`) so typos do not vanish silently.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ShippingConfig {
    #[serde(default)]
    pub enabled: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weight_lbs: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dimensions: Option<Dimensions>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shipping_class: Option<ShippingClass>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allowed_methods: Option<Vec<ShippingMethod>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// Keyed by method name (text keys, so a bad price names its key in the error path).
    pub method_pricing: Option<BTreeMap<String, Cents>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub free_shipping_threshold_usd: Option<Cents>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub handling_days: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub origin_country: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub domestic_only: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature_required: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub insured_only: Option<bool>,
}

impl ShippingConfig {
    /// Checks the rules serde cannot express; field names in errors are prefixed with `shippingConfig.`.
    pub fn validated(mut self) -> Result<Self, FieldError> {
        let field = |name: &str| format!("shippingConfig.{name}");
        if self.has_details() && !self.enabled {
            return Err(FieldError::new(
                field("enabled"),
                "must be true when shipping details are given",
            ));
        }
        if let Some(weight) = self.weight_lbs {
            non_negative(&field("weightLbs"), weight)?;
        }
        if let Some(dimensions) = &self.dimensions {
            positive(&field("dimensions.length"), dimensions.length)?;
            positive(&field("dimensions.width"), dimensions.width)?;
            positive(&field("dimensions.height"), dimensions.height)?;
        }
        if let Some(methods) = &mut self.allowed_methods {
            methods.sort();
            methods.dedup();
        }
        if let Some(pricing) = &self.method_pricing {
            let allowed = self.allowed_methods.as_deref().unwrap_or_default();
            if let Some(name) = pricing
                .keys()
                .find(|name| !allowed.iter().any(|method| method.name() == *name))
            {
                return Err(FieldError::new(
                    field(&format!("methodPricing.{name}")),
                    "must be one of allowedMethods",
                ));
            }
        }
        if self.handling_days.is_some_and(|days| days > MAX_HANDLING_DAYS) {
            return Err(FieldError::new(
                field("handlingDays"),
                format!("must be 0 to {MAX_HANDLING_DAYS}"),
            ));
        }
        if self
            .origin_country
            .as_deref()
            .is_some_and(|code| !text::is_country_code(code))
        {
            return Err(FieldError::new(
                field("originCountry"),
                "must be a 2-letter upper-case ISO country code",
            ));
        }
        Ok(self)
    }

    fn has_details(&self) -> bool {
        let ShippingConfig {
            enabled: _,
            weight_lbs,
            dimensions,
            shipping_class,
            allowed_methods,
            method_pricing,
            free_shipping_threshold_usd,
            handling_days,
            origin_country,
            domestic_only,
            signature_required,
            insured_only,
        } = self;
        weight_lbs.is_some()
            || dimensions.is_some()
            || shipping_class.is_some()
            || allowed_methods.is_some()
            || method_pricing.is_some()
            || free_shipping_threshold_usd.is_some()
            || handling_days.is_some()
            || origin_country.is_some()
            || domestic_only.is_some()
            || signature_required.is_some()
            || insured_only.is_some()
    }
}

fn non_negative(field: &str, value: f64) -> Result<(), FieldError> {
    if value.is_finite() && value >= 0.0 {
        Ok(())
    } else {
        Err(FieldError::new(field, "must be a number >= 0"))
    }
}

fn positive(field: &str, value: f64) -> Result<(), FieldError> {
    if value.is_finite() && value > 0.0 {
        Ok(())
    } else {
        Err(FieldError::new(field, "must be a number > 0"))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn parse(value: serde_json::Value) -> Result<ShippingConfig, String> {
        let config: ShippingConfig = serde_json::from_value(value).map_err(|e| e.to_string())?;
        config.validated().map_err(|e| e.to_string())
    }

    #[test]
    fn details_require_enabled() {
        assert_eq!(
            parse(json!({"weightLbs": 1})),
            Err("shippingConfig.enabled: must be true when shipping details are given".to_owned())
        );
    }

    #[test]
    fn method_pricing_keys_must_be_allowed_methods() {
        let config =
            json!({"enabled": true, "allowedMethods": ["standard"], "methodPricing": {"express": 5}});

        assert_eq!(
            parse(config),
            Err("shippingConfig.methodPricing.express: must be one of allowedMethods".to_owned())
        );
    }

    #[test]
    fn a_full_config_round_trips() {
        let config = json!({
            "enabled": true, "weightLbs": 1.5,
            "dimensions": {"length": 10, "width": 5, "height": 2, "unit": "in"},
            "shippingClass": "standard", "allowedMethods": ["standard", "express"],
            "methodPricing": {"standard": 4.99, "express": 12}, "freeShippingThresholdUsd": 50,
            "handlingDays": 2, "originCountry": "US", "domesticOnly": true,
            "signatureRequired": false, "insuredOnly": false
        });

        let parsed = parse(config).unwrap();

        assert_eq!(
            serde_json::to_value(parsed).unwrap(),
            json!({
                "enabled": true, "weightLbs": 1.5,
                "dimensions": {"length": 10.0, "width": 5.0, "height": 2.0, "unit": "in"},
                "shippingClass": "standard", "allowedMethods": ["standard", "express"],
                "methodPricing": {"standard": 4.99, "express": 12}, "freeShippingThresholdUsd": 50,
                "handlingDays": 2, "originCountry": "US", "domesticOnly": true,
                "signatureRequired": false, "insuredOnly": false
            })
        );
    }
}
