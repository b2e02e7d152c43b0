//! The product record and its validated, not-yet-stored form.

use payments_core::{Cents, Wallet};
use serde_json::{Map, Value};

use crate::field_error::FieldError;
use crate::inventory::shipping::ShippingConfig;
use crate::inventory::stored_image::{ImageInput, ImageMeta};
use crate::inventory::text;

const PRODUCT_ID_PREFIX: &str = "prod_";

/// Public product id: `prod_` + 32 hex digits when generated; any id a caller sends is looked up as is.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ProductId(String);

impl ProductId {
    pub fn generate() -> Self {
        ProductId(format!("{PRODUCT_ID_PREFIX}{}", uuid::Uuid::new_v4().simple()))
    }

    pub fn parse(field: &str, text: &str) -> Result<Self, FieldError> {
        text::printable(field, text, 128).map(ProductId)
    }

    pub fn from_stored(id: String) -> Self {
        ProductId(id)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Stock keeping unit, unique per merchant: trimmed, 1 to 64 printable characters.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Sku(String);

impl Sku {
    pub const MAX_CHARS: usize = 64;

    pub fn parse(field: &str, text: &str) -> Result<Self, FieldError> {
        text::printable(field, text, Self::MAX_CHARS).map(Sku)
    }

    pub fn from_stored(sku: String) -> Self {
        Sku(sku)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The writable fields of a product, validated. Stored in columns and answered through `api/wire/`, so
/// it has no serde of its own.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemFields {
    pub sku: Sku,
    pub name: String,
    pub price_usd: Cents,
    pub currency: String,
    pub stock_qty: i64,
    pub category: String,
    pub description: String,
    pub tags: Vec<String>,
    pub attributes: Map<String, Value>,
    pub cost_usd: Cents,
    pub taxable: bool,
    pub jurisdiction_code: Option<String>,
    pub industry_pack: String,
    pub shipping_enabled: bool,
    pub shipping_config: ShippingConfig,
}

/// A validated upsert request.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemDraft {
    /// Present: update exactly this product. Absent: update the product with this SKU, or create one.
    pub id: Option<ProductId>,
    /// A `wallet` the body claims; it must be the caller's own.
    pub claimed_wallet: Option<Wallet>,
    /// The product's images, in order; `None` (`images` absent) keeps what the product has (images usually
    /// arrive through the upload route).
    pub images: Option<Vec<ImageInput>>,
    pub fields: ItemFields,
}

/// A stored product, as the spec's InventoryItem; its `images` are shown through
/// [`ShownItem`](crate::inventory::ShownItem) (embedded or linked).
#[derive(Debug, Clone, PartialEq)]
pub struct InventoryItem {
    pub id: ProductId,
    pub wallet: Wallet,
    pub fields: ItemFields,
    /// What is stored of each image, in order, without the bytes.
    pub images: Vec<ImageMeta>,
    pub created_at: i64,
    pub updated_at: i64,
}
