//! The body of `POST /api/inventory`: create a product, or update the one with the same SKU (or id).

use payments_core::Cents;
use serde::Serialize;

use crate::item::ShippingConfig;

/// The writable fields of a product. Required fields are set by [`UpsertInventoryItem::new`]; unset optional
/// fields are left out of the request.
///
/// The service is idempotent by SKU: posting an existing SKU updates that product.
///
/// ```
/// use payments_client::UpsertInventoryItem;
/// use payments_core::Cents;
/// let mug = UpsertInventoryItem::new("MUG-1", "Blue mug", Cents::new(1299), 25)
///     .category("kitchen")
///     .tags(["blue", "ceramic"])
///     .taxable(true);
/// assert_eq!(mug.sku, "MUG-1");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UpsertInventoryItem {
    /// Id of the product to update; absent means "by SKU".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Stock-keeping unit.
    pub sku: String,
    /// Display name.
    pub name: String,
    /// Unit price.
    pub price_usd: Cents,
    /// `-1` unlimited, `0` out of stock, `> 0` available quantity.
    pub stock_qty: i64,
    /// Currency code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
    /// Category.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// Description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Tags (at most 24).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
    /// Images (at most 3): data URLs, or the route paths a listing gave for this product's stored images
    /// (kept as they are).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub images: Option<Vec<String>>,
    /// Custom key/value attributes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attributes: Option<serde_json::Map<String, serde_json::Value>>,
    /// Cost basis.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<Cents>,
    /// Whether tax applies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub taxable: Option<bool>,
    /// Tax jurisdiction, e.g. `US-CA`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub jurisdiction_code: Option<String>,
    /// Industry pack.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub industry_pack: Option<String>,
    /// Whether the product needs physical shipping.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shipping_enabled: Option<bool>,
    /// Shipping details.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shipping_config: Option<ShippingConfig>,
}

impl UpsertInventoryItem {
    /// A product with the four required fields and nothing else.
    pub fn new(sku: impl Into<String>, name: impl Into<String>, price_usd: Cents, stock_qty: i64) -> Self {
        UpsertInventoryItem {
            id: None,
            sku: sku.into(),
            name: name.into(),
            price_usd,
            stock_qty,
            currency: None,
            category: None,
            description: None,
            tags: None,
            images: None,
            attributes: None,
            cost_usd: None,
            taxable: None,
            jurisdiction_code: None,
            industry_pack: None,
            shipping_enabled: None,
            shipping_config: None,
        }
    }

    /// Targets the product with this id.
    pub fn id(mut self, id: impl Into<String>) -> Self {
        self.id = Some(id.into());
        self
    }

    /// Sets the category.
    pub fn category(mut self, category: impl Into<String>) -> Self {
        self.category = Some(category.into());
        self
    }

    /// Sets the description.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Sets the tags.
    pub fn tags<I, S>(mut self, tags: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.tags = Some(tags.into_iter().map(Into::into).collect());
        self
    }

    /// Sets the cost basis.
    pub fn cost_usd(mut self, cost: Cents) -> Self {
        self.cost_usd = Some(cost);
        self
    }

    /// Sets whether tax applies.
    pub fn taxable(mut self, taxable: bool) -> Self {
        self.taxable = Some(taxable);
        self
    }

    /// Sets the tax jurisdiction.
    pub fn jurisdiction_code(mut self, code: impl Into<String>) -> Self {
        self.jurisdiction_code = Some(code.into());
        self
    }

    /// Sets the industry pack.
    pub fn industry_pack(mut self, pack: impl Into<String>) -> Self {
        self.industry_pack = Some(pack.into());
        self
    }
}

#[cfg(test)]
mod tests {
    use payments_core::Cents;

    use super::UpsertInventoryItem;

    #[test]
    fn only_set_fields_go_on_the_wire_with_exact_money() {
        let body = UpsertInventoryItem::new("S-1", "Shirt", Cents::new(1999), -1).cost_usd(Cents::new(500));
        assert_eq!(
            serde_json::to_string(&body).unwrap(),
            r#"{"sku":"S-1","name":"Shirt","priceUsd":19.99,"stockQty":-1,"costUsd":5}"#
        );
    }
}
