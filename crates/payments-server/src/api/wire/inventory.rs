//! The product upsert body (`POST /api/inventory`), decoded here and handed to the domain as its request;
//! the answers' schemas are in [`super::inventory_answers`].

use payments_core::{Cents, Wallet};
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::api::openapi::core_types::{Usd, Wallet as WalletSchema};
use crate::api::wire::shipping::ShippingConfig;
use crate::domain::inventory as domain;

/// Wire form. Unknown top-level properties (e.g. `createdAt` echoed back from a GET) are ignored; types are
/// checked by serde so errors name the field.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct InventoryItemRequest {
    id: Option<String>,
    #[schema(value_type = Option<WalletSchema>)]
    wallet: Option<Wallet>,
    sku: String,
    name: String,
    #[schema(value_type = Usd)]
    price_usd: Cents,
    stock_qty: i64,
    currency: Option<String>,
    category: Option<String>,
    description: Option<String>,
    tags: Option<Vec<String>>,
    images: Option<Vec<String>>,
    attributes: Option<Map<String, Value>>,
    #[schema(value_type = Option<Usd>)]
    cost_usd: Option<Cents>,
    taxable: Option<bool>,
    jurisdiction_code: Option<String>,
    industry_pack: Option<String>,
    shipping_enabled: Option<bool>,
    shipping_config: Option<ShippingConfig>,
}

impl From<InventoryItemRequest> for domain::InventoryItemRequest {
    fn from(request: InventoryItemRequest) -> Self {
        domain::InventoryItemRequest {
            id: request.id,
            wallet: request.wallet,
            sku: request.sku,
            name: request.name,
            price_usd: request.price_usd,
            stock_qty: request.stock_qty,
            currency: request.currency,
            category: request.category,
            description: request.description,
            tags: request.tags,
            images: request.images,
            attributes: request.attributes,
            cost_usd: request.cost_usd,
            taxable: request.taxable,
            jurisdiction_code: request.jurisdiction_code,
            industry_pack: request.industry_pack,
            shipping_enabled: request.shipping_enabled,
            shipping_config: request.shipping_config.map(domain::ShippingConfig::from),
        }
    }
}
