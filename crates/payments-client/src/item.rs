//! The product record of the inventory and its nested shipping types.

use std::collections::BTreeMap;

use payments_core::{Cents, Wallet};
use serde::{Deserialize, Deserializer, Serialize};

/// A product of the merchant's catalog, as the service returns it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct InventoryItem {
    /// Product id.
    pub id: String,
    /// The merchant wallet that owns the product.
    pub wallet: Wallet,
    /// Stock-keeping unit, unique per merchant.
    pub sku: String,
    /// Display name.
    pub name: String,
    /// Unit price.
    pub price_usd: Cents,
    /// Currency code (`USD` unless set).
    #[serde(default = "default_currency", deserialize_with = "null_as_default_currency")]
    pub currency: String,
    /// `-1` unlimited, `0` out of stock, `> 0` available quantity.
    pub stock_qty: i64,
    /// Category, if any.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "empty_as_none"
    )]
    pub category: Option<String>,
    /// Description, if any.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "empty_as_none"
    )]
    pub description: Option<String>,
    /// Tags (at most 24).
    #[serde(default, deserialize_with = "null_as_default")]
    pub tags: Vec<String>,
    /// Images (at most 3), each a data URL or, once the answer's embedded images reach the service's size
    /// cap, the path of the image's own route (`/api/inventory/{id}/images/{n}?v=...`, read with
    /// [`Client::inventory_image`](crate::Client::inventory_image)). Either form may be posted back.
    #[serde(default, deserialize_with = "null_as_default")]
    pub images: Vec<String>,
    /// Custom key/value attributes.
    #[serde(default, deserialize_with = "null_as_default")]
    pub attributes: serde_json::Map<String, serde_json::Value>,
    /// Cost basis, if recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<Cents>,
    /// Whether tax applies to the product.
    #[serde(default, deserialize_with = "null_as_default")]
    pub taxable: bool,
    /// Tax jurisdiction, e.g. `US-CA`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "empty_as_none"
    )]
    pub jurisdiction_code: Option<String>,
    /// Industry pack (`general` unless set).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "empty_as_none"
    )]
    pub industry_pack: Option<String>,
    /// Whether the product needs physical shipping.
    #[serde(default, deserialize_with = "null_as_default")]
    pub shipping_enabled: bool,
    /// Shipping details, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shipping_config: Option<ShippingConfig>,
    /// Creation time, Unix milliseconds.
    pub created_at: u64,
    /// Last update time, Unix milliseconds.
    pub updated_at: u64,
}

/// How a product ships.
///
/// The spec's named properties and the ones the reference server names for the rest (free-shipping
/// threshold, handling days, origin country, flags) are typed; anything else a server sends is kept
/// verbatim in [`ShippingConfig::extra`] so nothing is lost on a read-modify-write.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ShippingConfig {
    /// Must be `true` when shipping details are given.
    #[serde(default)]
    pub enabled: bool,
    /// Weight in pounds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight_lbs: Option<f64>,
    /// Package dimensions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dimensions: Option<Dimensions>,
    /// Shipping class, e.g. `standard`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shipping_class: Option<String>,
    /// Allowed methods, e.g. `standard`, `express`.
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "null_as_default"
    )]
    pub allowed_methods: Vec<String>,
    /// Flat rate per method.
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        deserialize_with = "null_as_default"
    )]
    pub method_pricing: BTreeMap<String, Cents>,
    /// Cart total from which shipping is free.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub free_shipping_threshold_usd: Option<Cents>,
    /// Handling days before shipping.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handling_days: Option<u32>,
    /// 2-letter ISO country the product ships from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin_country: Option<String>,
    /// Ships only within the origin country.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub domestic_only: Option<bool>,
    /// Delivery needs a signature.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature_required: Option<bool>,
    /// Ships insured only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub insured_only: Option<bool>,
    /// Further properties, verbatim.
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// Package dimensions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Dimensions {
    /// Length.
    pub length: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
    /// Unit of the three lengths, e.g. `in`.
    pub unit: String,
}

fn default_currency() -> String {
    "USD".to_owned()
}

/// A JSON `null` reads as the type's default, like an absent field.
pub(crate) fn null_as_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Ok(Option::<T>::deserialize(deserializer)?.unwrap_or_default())
}

/// An empty string reads as `None`, like `null` or an absent field.
fn empty_as_none<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    Ok(Option::<String>::deserialize(deserializer)?.filter(|text| !text.is_empty()))
}

fn null_as_default_currency<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    Ok(Option::<String>::deserialize(deserializer)?.unwrap_or_else(default_currency))
}

#[cfg(test)]
mod tests {
    use payments_core::Cents;

    use super::InventoryItem;

    #[test]
    fn a_minimal_item_reads_with_documented_defaults() {
        let item: InventoryItem = serde_json::from_str(
            r#"{"id":"p1","wallet":"0x00000000000000000000000000000000000000aa","sku":"A-1","name":"Mug",
                "priceUsd":12.5,"stockQty":-1,"tags":null,"category":"","createdAt":1,"updatedAt":2}"#,
        )
        .unwrap();
        assert_eq!(item.price_usd, Cents::new(1250));
        assert_eq!(item.currency, "USD");
        assert!(item.tags.is_empty());
        assert!(!item.taxable);
        assert_eq!(item.cost_usd, None);
        assert_eq!(item.category, None);
    }

    #[test]
    fn unnamed_shipping_properties_survive_a_round_trip() {
        let json = r#"{"enabled":true,"weightLbs":1.5,"methodPricing":{"express":9.99},"handlingDays":2,"giftWrap":true}"#;
        let config: super::ShippingConfig = serde_json::from_str(json).unwrap();
        assert_eq!(config.method_pricing["express"], Cents::new(999));
        assert_eq!(config.handling_days, Some(2));
        assert_eq!(config.extra["giftWrap"], true);
        let back = serde_json::to_value(&config).unwrap();
        assert_eq!(back, serde_json::from_str::<serde_json::Value>(json).unwrap());
    }
}
