//! Inventory: products of one merchant, identified by id and by SKU.

mod attributes;
mod image;
mod item;
mod query;
mod request;
mod shipping;
mod shown;
mod stored_image;
pub(crate) mod text;

pub(crate) use image::{ImageDataUrl, ImageError, MAX_IMAGE_BYTES, MAX_IMAGES, NewImage};
pub(crate) use item::{InventoryItem, ItemDraft, ItemFields, ProductId, Sku};
pub(crate) use query::{InventoryPage, InventoryQuery, SortField, SortOrder, StockFilter, TagsMode};
pub(crate) use request::InventoryItemRequest;
pub(crate) use shown::{EMBEDDED_IMAGES_BUDGET, ShownItem, images_to_embed, show, show_one};
pub(crate) use stored_image::{
    ContentHash, ImageFetch, ImageInput, ImageKey, ImageMeta, StoredImage, first_unknown_kept, parse_index,
};
