//! Inventory: products of one merchant, identified by id and by SKU.

mod attributes;
mod image;
mod item;
mod query;
mod request;
mod shipping;
pub(crate) mod text;

pub(crate) use image::{ImageDataUrl, ImageError, MAX_IMAGE_BYTES, MAX_IMAGES};
pub(crate) use item::{InventoryItem, ItemDraft, ItemFields, ProductId, Sku};
pub(crate) use query::{InventoryPage, InventoryQuery, SortField, SortOrder, StockFilter, TagsMode};
pub(crate) use request::InventoryItemRequest;
