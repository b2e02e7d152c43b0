//! Products as stored (`inventory_items`); what a product's fields store as is [`crate::ItemColumns`].

use payments_core::{Cents, Wallet};
use payments_domain::inventory::{InventoryItem, ItemDraft, ItemFields, ProductId, Sku, first_unknown_kept};

use super::{bad, json};
use crate::UpsertOutcome;

/// An `inventory_items` row as every product read selects it, with its images' metadata as JSON.
pub(crate) struct ItemRow {
    pub(crate) public_id: String,
    pub(crate) wallet: String,
    pub(crate) sku: String,
    pub(crate) name: String,
    pub(crate) price_cents: i64,
    pub(crate) currency: String,
    pub(crate) stock_qty: i64,
    pub(crate) category: String,
    pub(crate) description: String,
    pub(crate) tags_json: String,
    pub(crate) images_meta: String,
    pub(crate) attributes_json: String,
    pub(crate) cost_cents: i64,
    pub(crate) taxable: bool,
    pub(crate) jurisdiction_code: Option<String>,
    pub(crate) industry_pack: String,
    pub(crate) shipping_enabled: bool,
    pub(crate) shipping_config_json: String,
    pub(crate) created_at: i64,
    pub(crate) updated_at: i64,
}

impl ItemRow {
    pub(crate) fn into_record(self) -> Result<InventoryItem, String> {
        Ok(InventoryItem {
            id: ProductId::from_stored(self.public_id),
            wallet: Wallet::parse(&self.wallet).map_err(|error| bad("wallet", error))?,
            fields: ItemFields {
                sku: Sku::from_stored(self.sku),
                name: self.name,
                price_usd: Cents::new(self.price_cents),
                currency: self.currency,
                stock_qty: self.stock_qty,
                category: self.category,
                description: self.description,
                tags: json("tags_json", &self.tags_json)?,
                attributes: json("attributes_json", &self.attributes_json)?,
                cost_usd: Cents::new(self.cost_cents),
                taxable: self.taxable,
                jurisdiction_code: self.jurisdiction_code,
                industry_pack: self.industry_pack,
                shipping_enabled: self.shipping_enabled,
                shipping_config: json("shipping_config_json", &self.shipping_config_json)?,
            },
            images: json("images_meta", &self.images_meta)?,
            created_at: self.created_at,
            updated_at: self.updated_at,
        })
    }
}

/// The few columns an upsert or image upload needs to decide.
pub(crate) struct Existing {
    pub(crate) rowid: i64,
    pub(crate) id: ProductId,
    pub(crate) sku: String,
    pub(crate) image_count: usize,
}

/// The image of `draft` an upsert refuses as unknown: one it keeps that the product found (if any) lacks.
pub(crate) fn unknown_image(draft: &ItemDraft, existing: Option<&Existing>) -> Option<UpsertOutcome> {
    let kept = existing.map(|existing| (&existing.id, existing.image_count));
    draft
        .images
        .as_deref()
        .and_then(|images| first_unknown_kept(images, kept))
        .map(|index| UpsertOutcome::UnknownImage { index })
}
