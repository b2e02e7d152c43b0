//! Inventory: products of one merchant, identified by id and by SKU.

mod attributes;
mod image;
mod item;
mod query;
mod request;
mod shipping;
mod shown;
mod stored_image;
pub mod text;

pub use image::{ImageDataUrl, ImageError, MAX_IMAGE_BYTES, MAX_IMAGES, NewImage};
pub use item::{InventoryItem, ItemDraft, ItemFields, ProductId, Sku};
pub use query::{InventoryPage, InventoryQuery, SortField, SortOrder, StockFilter, TagsMode};
pub use request::InventoryItemRequest;
pub use shipping::{DimensionUnit, Dimensions, ShippingClass, ShippingConfig, ShippingMethod};
pub use shown::{EMBEDDED_IMAGES_BUDGET, ShownImage, ShownItem, images_to_embed, show, show_one};
pub use stored_image::{
    ContentHash, ImageFetch, ImageInput, ImageKey, ImageMeta, StoredImage, first_unknown_kept, parse_index,
};
