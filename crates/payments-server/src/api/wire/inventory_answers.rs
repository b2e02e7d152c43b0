//! The product answers (`ShownItem` and its parts), written from the domain's records: the domain's
//! `InventoryItem` and `ShownItem` have no JSON form of their own, and its `ShippingConfig` keeps serde only
//! for the stored column and the upsert body, so an answer can change without touching what is stored.

use std::collections::BTreeMap;

use payments_core::{Cents, Wallet};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::api::openapi::core_types::{Usd, Wallet as WalletSchema};
use crate::domain::inventory as domain;

/// Public product id: `prod_` + 32 hex digits when generated; any id a caller sends is looked up as is.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(transparent)]
pub(crate) struct ProductId<'a>(&'a str);

/// Stock keeping unit, unique per merchant: trimmed, 1 to 64 printable characters.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(transparent)]
pub(crate) struct Sku<'a>(&'a str);

/// The writable fields of a product, validated.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ItemFields<'a> {
    sku: Sku<'a>,
    name: &'a str,
    #[schema(value_type = Usd)]
    price_usd: Cents,
    currency: &'a str,
    stock_qty: i64,
    category: &'a str,
    description: &'a str,
    #[schema(value_type = Vec<String>)]
    tags: &'a [String],
    #[schema(value_type = Object)]
    attributes: &'a Map<String, Value>,
    #[schema(value_type = Usd)]
    cost_usd: Cents,
    taxable: bool,
    jurisdiction_code: Option<&'a str>,
    industry_pack: &'a str,
    shipping_enabled: bool,
    shipping_config: ShippingConfig,
}

impl<'a> From<&'a domain::ItemFields> for ItemFields<'a> {
    fn from(fields: &'a domain::ItemFields) -> Self {
        ItemFields {
            sku: Sku(fields.sku.as_str()),
            name: &fields.name,
            price_usd: fields.price_usd,
            currency: &fields.currency,
            stock_qty: fields.stock_qty,
            category: &fields.category,
            description: &fields.description,
            tags: &fields.tags,
            attributes: &fields.attributes,
            cost_usd: fields.cost_usd,
            taxable: fields.taxable,
            jurisdiction_code: fields.jurisdiction_code.as_deref(),
            industry_pack: &fields.industry_pack,
            shipping_enabled: fields.shipping_enabled,
            shipping_config: ShippingConfig::from(&fields.shipping_config),
        }
    }
}

// The schema's description names the domain type it was written from; kept as is so the OpenAPI document
// stays byte-identical.
/// A stored product, as the spec's InventoryItem; its `images` are answered through
/// [`ShownItem`](crate::domain::inventory::ShownItem) (embedded or linked).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct InventoryItem<'a> {
    id: ProductId<'a>,
    #[schema(value_type = WalletSchema)]
    wallet: Wallet,
    #[serde(flatten)]
    fields: ItemFields<'a>,
    created_at: i64,
    updated_at: i64,
}

impl<'a> From<&'a domain::InventoryItem> for InventoryItem<'a> {
    fn from(item: &'a domain::InventoryItem) -> Self {
        InventoryItem {
            id: ProductId(item.id.as_str()),
            wallet: item.wallet,
            fields: ItemFields::from(&item.fields),
            created_at: item.created_at,
            updated_at: item.updated_at,
        }
    }
}

/// A product with its images as answered.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub(crate) struct ShownItem<'a> {
    #[serde(flatten)]
    item: InventoryItem<'a>,
    // Each image as its data URL (embedded) or as the URL of its own route (linked).
    #[schema(value_type = Vec<String>)]
    images: Vec<&'a str>,
}

impl<'a> From<&'a domain::ShownItem> for ShownItem<'a> {
    fn from(shown: &'a domain::ShownItem) -> Self {
        ShownItem {
            item: InventoryItem::from(&shown.item),
            images: shown
                .images
                .iter()
                .map(|image| match image {
                    domain::ShownImage::Embedded(url) => url.as_str(),
                    domain::ShownImage::Linked(url) => url.as_str(),
                })
                .collect(),
        }
    }
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

impl From<domain::ShippingClass> for ShippingClass {
    fn from(class: domain::ShippingClass) -> Self {
        match class {
            domain::ShippingClass::Standard => ShippingClass::Standard,
            domain::ShippingClass::Expedited => ShippingClass::Expedited,
            domain::ShippingClass::Freight => ShippingClass::Freight,
            domain::ShippingClass::Oversized => ShippingClass::Oversized,
        }
    }
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

impl From<domain::ShippingMethod> for ShippingMethod {
    fn from(method: domain::ShippingMethod) -> Self {
        match method {
            domain::ShippingMethod::Standard => ShippingMethod::Standard,
            domain::ShippingMethod::Express => ShippingMethod::Express,
            domain::ShippingMethod::Overnight => ShippingMethod::Overnight,
            domain::ShippingMethod::Pickup => ShippingMethod::Pickup,
        }
    }
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

impl From<&domain::Dimensions> for Dimensions {
    fn from(dimensions: &domain::Dimensions) -> Self {
        Dimensions {
            length: dimensions.length,
            width: dimensions.width,
            height: dimensions.height,
            unit: match dimensions.unit {
                domain::DimensionUnit::In => DimensionUnit::In,
                domain::DimensionUnit::Cm => DimensionUnit::Cm,
            },
        }
    }
}

// `default` and `deny_unknown_fields` only shape the schema (the upsert body decodes the domain's type,
// which carries the same attributes); serializing ignores them.
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
