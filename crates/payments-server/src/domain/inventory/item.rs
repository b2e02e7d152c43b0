//! The product record and its validated, not-yet-stored form.

use payments_core::{Cents, Wallet};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::domain::field_error::FieldError;
use crate::domain::inventory::shipping::ShippingConfig;
use crate::domain::inventory::stored_image::{ImageInput, ImageMeta};
use crate::domain::inventory::text;

const PRODUCT_ID_PREFIX: &str = "prod_";

/// Public product id: `prod_` + 32 hex digits when generated; any id a caller sends is looked up as is.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(transparent)]
pub(crate) struct ProductId(String);

impl ProductId {
    pub(crate) fn generate() -> Self {
        ProductId(format!("{PRODUCT_ID_PREFIX}{}", uuid::Uuid::new_v4().simple()))
    }

    pub(crate) fn parse(field: &str, text: &str) -> Result<Self, FieldError> {
        text::printable(field, text, 128).map(ProductId)
    }

    pub(crate) fn from_stored(id: String) -> Self {
        ProductId(id)
    }

    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }
}

/// Stock keeping unit, unique per merchant: trimmed, 1 to 64 printable characters.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(transparent)]
pub(crate) struct Sku(String);

impl Sku {
    pub(crate) const MAX_CHARS: usize = 64;

    pub(crate) fn parse(field: &str, text: &str) -> Result<Self, FieldError> {
        text::printable(field, text, Self::MAX_CHARS).map(Sku)
    }

    pub(crate) fn from_stored(sku: String) -> Self {
        Sku(sku)
    }

    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }
}

/// The writable fields of a product, validated.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ItemFields {
    pub(crate) sku: Sku,
    pub(crate) name: String,
    pub(crate) price_usd: Cents,
    pub(crate) currency: String,
    pub(crate) stock_qty: i64,
    pub(crate) category: String,
    pub(crate) description: String,
    pub(crate) tags: Vec<String>,
    #[schema(value_type = Object)]
    pub(crate) attributes: Map<String, Value>,
    pub(crate) cost_usd: Cents,
    pub(crate) taxable: bool,
    pub(crate) jurisdiction_code: Option<String>,
    pub(crate) industry_pack: String,
    pub(crate) shipping_enabled: bool,
    pub(crate) shipping_config: ShippingConfig,
}

/// A validated upsert request.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ItemDraft {
    /// Present: update exactly this product. Absent: update the product with this SKU, or create one.
    pub(crate) id: Option<ProductId>,
    /// A `wallet` the body claims; it must be the caller's own.
    pub(crate) claimed_wallet: Option<Wallet>,
    /// The product's images, in order; `None` (`images` absent) keeps what the product has (images usually
    /// arrive through the upload route).
    pub(crate) images: Option<Vec<ImageInput>>,
    pub(crate) fields: ItemFields,
}

/// A stored product, as the spec's InventoryItem; its `images` are answered through
/// [`ShownItem`](crate::domain::inventory::ShownItem) (embedded or linked).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct InventoryItem {
    pub(crate) id: ProductId,
    pub(crate) wallet: Wallet,
    #[serde(flatten)]
    pub(crate) fields: ItemFields,
    /// What is stored of each image, in order, without the bytes.
    #[serde(skip)]
    pub(crate) images: Vec<ImageMeta>,
    pub(crate) created_at: i64,
    pub(crate) updated_at: i64,
}
