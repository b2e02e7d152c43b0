//! The POST /api/inventory body and its conversion into a validated draft.

use payments_core::{Cents, Wallet};
use serde_json::{Map, Value};

use crate::field_error::FieldError;
use crate::inventory::attributes;
use crate::inventory::image::{ImageError, MAX_IMAGES, NewImage};
use crate::inventory::item::{ItemDraft, ItemFields, ProductId, Sku};
use crate::inventory::shipping::ShippingConfig;
use crate::inventory::stored_image::{ImageInput, ImageKey};
use crate::inventory::text;

/// The upsert body as decoded (by the server's wire type), before [`ItemDraft::try_from`] checks it.
#[derive(Debug, Default)]
pub struct InventoryItemRequest {
    pub id: Option<String>,
    pub wallet: Option<Wallet>,
    pub sku: String,
    pub name: String,
    pub price_usd: Cents,
    pub stock_qty: i64,
    pub currency: Option<String>,
    pub category: Option<String>,
    pub description: Option<String>,
    pub tags: Option<Vec<String>>,
    pub images: Option<Vec<String>>,
    pub attributes: Option<Map<String, Value>>,
    pub cost_usd: Option<Cents>,
    pub taxable: Option<bool>,
    pub jurisdiction_code: Option<String>,
    pub industry_pack: Option<String>,
    pub shipping_enabled: Option<bool>,
    pub shipping_config: Option<ShippingConfig>,
}

impl TryFrom<InventoryItemRequest> for ItemDraft {
    type Error = FieldError;

    fn try_from(request: InventoryItemRequest) -> Result<Self, Self::Error> {
        let fields = ItemFields {
            sku: Sku::parse("sku", &request.sku)?,
            name: text::printable("name", &request.name, text::NAME_MAX_CHARS)?,
            price_usd: request.price_usd,
            currency: text::currency(request.currency.as_deref())?,
            stock_qty: text::stock_qty(request.stock_qty)?,
            category: text::optional(
                "category",
                request.category.as_deref(),
                text::CATEGORY_MAX_CHARS,
                false,
            )?,
            description: text::optional(
                "description",
                request.description.as_deref(),
                text::DESCRIPTION_MAX_CHARS,
                true,
            )?,
            tags: text::tags(request.tags.unwrap_or_default())?,
            attributes: attributes::validate(request.attributes.unwrap_or_default())?,
            cost_usd: request.cost_usd.unwrap_or(Cents::ZERO),
            taxable: request.taxable.unwrap_or(false),
            jurisdiction_code: request
                .jurisdiction_code
                .map(|code| text::jurisdiction_code("jurisdictionCode", &code))
                .transpose()?,
            industry_pack: text::industry_pack("industryPack", request.industry_pack.as_deref())?,
            shipping_enabled: request.shipping_enabled.unwrap_or(false),
            shipping_config: request
                .shipping_config
                .map(ShippingConfig::validated)
                .transpose()?
                .unwrap_or_default(),
        };
        Ok(ItemDraft {
            id: request.id.map(|id| ProductId::parse("id", &id)).transpose()?,
            claimed_wallet: request.wallet,
            images: request.images.map(images).transpose()?,
            fields,
        })
    }
}

/// Each entry a data URL (a new image) or the URL of one of the product's own stored images (kept).
fn images(urls: Vec<String>) -> Result<Vec<ImageInput>, FieldError> {
    if urls.len() > MAX_IMAGES {
        return Err(FieldError::new(
            "images",
            format!("at most {MAX_IMAGES} images are allowed"),
        ));
    }
    urls.iter()
        .enumerate()
        .map(|(index, url)| {
            let parsed = match ImageKey::parse_url(url) {
                Some(key) => Ok(ImageInput::Kept(key)),
                None => NewImage::parse_data_url(url).map(ImageInput::New),
            };
            parsed.map_err(|error: ImageError| FieldError::new(format!("images[{index}]"), error.to_string()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(sku: &str, stock_qty: i64) -> InventoryItemRequest {
        InventoryItemRequest {
            sku: sku.to_owned(),
            name: "Mug".to_owned(),
            price_usd: Cents::new(100),
            stock_qty,
            ..InventoryItemRequest::default()
        }
    }

    fn with_images(images: &[&str]) -> InventoryItemRequest {
        InventoryItemRequest {
            images: Some(images.iter().map(|url| (*url).to_owned()).collect()),
            ..request("A", 1)
        }
    }

    #[test]
    fn optional_fields_take_their_defaults() {
        let draft = ItemDraft::try_from(request(" A-1 ", -1)).unwrap();

        assert_eq!(draft.fields.sku.as_str(), "A-1");
        assert_eq!(draft.fields.currency, "USD");
        assert_eq!(draft.fields.industry_pack, "general");
        assert_eq!(draft.images, None);
        assert!(!draft.fields.taxable);
    }

    #[test]
    fn a_stock_below_minus_one_names_stock_qty() {
        let error = ItemDraft::try_from(request("A", -2)).unwrap_err();

        assert_eq!(error.field, "stockQty");
    }

    #[test]
    fn images_are_data_urls_or_the_urls_of_stored_images() {
        let draft = ItemDraft::try_from(with_images(&[
            "/api/inventory/prod_1/images/2?v=abc",
            "data:image/png;base64,iVBORw0KGgoAAAANSUhEUg==",
        ]))
        .unwrap();

        let images = draft.images.unwrap();
        assert!(
            matches!(&images[0], ImageInput::Kept(key) if key.product.as_str() == "prod_1" && key.index == 2)
        );
        assert!(matches!(&images[1], ImageInput::New(image) if image.content_type() == "image/png"));
    }

    #[test]
    fn an_image_that_is_neither_names_its_place() {
        let error = ItemDraft::try_from(with_images(&["https://cdn.example/a.png"])).unwrap_err();

        assert_eq!(error.field, "images[0]");
    }
}
