//! The product answers (`ShownItem` and its parts), written from the domain's records: the domain's
//! `InventoryItem` and `ShownItem` have no JSON form of their own.

use payments_core::{Cents, Wallet};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::api::openapi::core_types::{Usd, Wallet as WalletSchema};
use crate::api::wire::shipping::ShippingConfig;
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
