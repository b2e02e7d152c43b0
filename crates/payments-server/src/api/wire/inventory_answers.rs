//! The schemas of the product answers (`ShownItem` and its parts).
//!
//! The answers are written by the domain's own `Serialize` (`ShownItem`; `ShippingConfig` is also the
//! stored JSON), so the types here are documentation only: never built, same names, fields and serde
//! attributes as `crate::domain::inventory`'s.

// Read only by the derives: the enums' variants are never built.
#![allow(dead_code, reason = "documentation-only schema types")]

use std::collections::BTreeMap;

use payments_core::{Cents, Wallet};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::api::openapi::core_types::{Usd, Wallet as WalletSchema};

/// Public product id: `prod_` + 32 hex digits when generated; any id a caller sends is looked up as is.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(transparent)]
pub(crate) struct ProductId(String);

/// Stock keeping unit, unique per merchant: trimmed, 1 to 64 printable characters.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(transparent)]
pub(crate) struct Sku(String);

/// The writable fields of a product, validated.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ItemFields {
    sku: Sku,
    name: String,
    #[schema(value_type = Usd)]
    price_usd: Cents,
    currency: String,
    stock_qty: i64,
    category: String,
    description: String,
    tags: Vec<String>,
    #[schema(value_type = Object)]
    attributes: Map<String, Value>,
    #[schema(value_type = Usd)]
    cost_usd: Cents,
    taxable: bool,
    jurisdiction_code: Option<String>,
    industry_pack: String,
    shipping_enabled: bool,
    shipping_config: ShippingConfig,
}

/// A stored product, as the spec's InventoryItem; its `images` are answered through
/// [`ShownItem`](crate::domain::inventory::ShownItem) (embedded or linked).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct InventoryItem {
    id: ProductId,
    #[schema(value_type = WalletSchema)]
    wallet: Wallet,
    #[serde(flatten)]
    fields: ItemFields,
    created_at: i64,
    updated_at: i64,
}

/// A product with its images as answered.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub(crate) struct ShownItem {
    #[serde(flatten)]
    item: InventoryItem,
    images: Vec<String>,
}

/// Parcel size class.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum ShippingClass {
    Standard,
    Expedited,
    Freight,
    Oversized,
}

/// A delivery method a product can be sent with.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum ShippingMethod {
    Standard,
    Express,
    Overnight,
    Pickup,
}

/// Unit of the dimensions.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum DimensionUnit {
    In,
    Cm,
}

/// Package dimensions; all three sizes are required and positive.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Dimensions {
    length: f64,
    width: f64,
    height: f64,
    unit: DimensionUnit,
}

/// Shipping settings. Unknown properties are refused (`deny_unknown_fields`) so typos do not vanish silently.
#[derive(Debug, Serialize, utoipa::ToSchema)]
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
