//! A product's `shippingConfig` on the wire, both ways: decoded from an upsert body (then the domain validates
//! it) and written in the product answers. The domain's `ShippingConfig` keeps its serde for the stored
//! column only, so the stored form and the wire can change apart. Names, fields and attributes are the
//! domain's, so serde's messages (`unknown field`, `expected struct Dimensions`) read as before.

use std::collections::BTreeMap;

use payments_core::Cents;
use serde::{Deserialize, Serialize};

use crate::api::openapi::core_types::Usd;
use crate::domain::inventory as domain;

/// A wire enum with the domain enum's variants (lower-case on the wire) and the conversions both ways: the
/// matches are exhaustive, so a variant added to the domain must be added here.
macro_rules! wire_enum {
    ($(#[$doc:meta])* $name:ident { $($variant:ident),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, Serialize, Deserialize, utoipa::ToSchema)]
        #[serde(rename_all = "lowercase")]
        pub(crate) enum $name {
            $($variant),+
        }

        impl From<domain::$name> for $name {
            fn from(value: domain::$name) -> Self {
                match value {
                    $(domain::$name::$variant => $name::$variant),+
                }
            }
        }

        impl From<$name> for domain::$name {
            fn from(value: $name) -> Self {
                match value {
                    $($name::$variant => domain::$name::$variant),+
                }
            }
        }
    };
}

wire_enum! {
    /// Parcel size class.
    ShippingClass { Standard, Expedited, Freight, Oversized }
}

wire_enum! {
    /// A delivery method a product can be sent with.
    ShippingMethod { Standard, Express, Overnight, Pickup }
}

wire_enum! {
    /// Unit of the dimensions.
    DimensionUnit { In, Cm }
}

/// Package dimensions; all three sizes are required and positive.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Dimensions {
    length: f64,
    width: f64,
    height: f64,
    unit: DimensionUnit,
}

impl From<&domain::Dimensions> for Dimensions {
    fn from(dimensions: &domain::Dimensions) -> Self {
        Dimensions {
            length: dimensions.length,
            width: dimensions.width,
            height: dimensions.height,
            unit: dimensions.unit.into(),
        }
    }
}

impl From<Dimensions> for domain::Dimensions {
    fn from(dimensions: Dimensions) -> Self {
        domain::Dimensions {
            length: dimensions.length,
            width: dimensions.width,
            height: dimensions.height,
            unit: dimensions.unit.into(),
        }
    }
}

/// Shipping settings. Unknown properties are refused (`deny_unknown_fields`) so typos do not vanish silently.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct ShippingConfig {
    #[serde(default)]
    enabled: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    weight_lbs: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dimensions: Option<Dimensions>,
    #[serde(skip_serializing_if = "Option::is_none")]
    shipping_class: Option<ShippingClass>,
    #[serde(skip_serializing_if = "Option::is_none")]
    allowed_methods: Option<Vec<ShippingMethod>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// Keyed by method name (text keys, so a bad price names its key in the error path).
    #[schema(value_type = Option<BTreeMap<String, Usd>>)]
    method_pricing: Option<BTreeMap<String, Cents>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Usd>)]
    free_shipping_threshold_usd: Option<Cents>,
    #[serde(skip_serializing_if = "Option::is_none")]
    handling_days: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    origin_country: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    domestic_only: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    signature_required: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    insured_only: Option<bool>,
}

impl From<&domain::ShippingConfig> for ShippingConfig {
    fn from(config: &domain::ShippingConfig) -> Self {
        ShippingConfig {
            enabled: config.enabled,
            weight_lbs: config.weight_lbs,
            dimensions: config.dimensions.as_ref().map(Dimensions::from),
            shipping_class: config.shipping_class.map(ShippingClass::from),
            allowed_methods: config
                .allowed_methods
                .as_ref()
                .map(|methods| methods.iter().copied().map(ShippingMethod::from).collect()),
            method_pricing: config.method_pricing.clone(),
            free_shipping_threshold_usd: config.free_shipping_threshold_usd,
            handling_days: config.handling_days,
            origin_country: config.origin_country.clone(),
            domestic_only: config.domestic_only,
            signature_required: config.signature_required,
            insured_only: config.insured_only,
        }
    }
}

impl From<ShippingConfig> for domain::ShippingConfig {
    fn from(config: ShippingConfig) -> Self {
        domain::ShippingConfig {
            enabled: config.enabled,
            weight_lbs: config.weight_lbs,
            dimensions: config.dimensions.map(domain::Dimensions::from),
            shipping_class: config.shipping_class.map(domain::ShippingClass::from),
            allowed_methods: config
                .allowed_methods
                .map(|methods| methods.into_iter().map(domain::ShippingMethod::from).collect()),
            method_pricing: config.method_pricing,
            free_shipping_threshold_usd: config.free_shipping_threshold_usd,
            handling_days: config.handling_days,
            origin_country: config.origin_country,
            domestic_only: config.domestic_only,
            signature_required: config.signature_required,
            insured_only: config.insured_only,
        }
    }
}
