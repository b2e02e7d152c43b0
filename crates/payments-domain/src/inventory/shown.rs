//! Products as answered: each image either embedded as a data URL (the spec's form) or, once an answer's
//! embedded images would pass [`EMBEDDED_IMAGES_BUDGET`], as the URL of its own route. A listing of products
//! with large images thus stays small, and the server never holds a whole page of image bytes.

use std::collections::HashMap;

use crate::inventory::image::ImageDataUrl;
use crate::inventory::item::InventoryItem;
use crate::inventory::stored_image::{ImageKey, StoredImage};

/// Most bytes of data-URL text one answer embeds, over all its products (4 MiB: one or two full-size
/// images, or a page of thumbnails).
pub const EMBEDDED_IMAGES_BUDGET: usize = 4 * 1024 * 1024;

/// One image in an answer: either form is written as its text (`api/wire/inventory_answers.rs`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShownImage {
    Embedded(ImageDataUrl),
    /// `/api/inventory/{id}/images/{n}?v=<version>` (see [`ImageKey::url`]).
    Linked(String),
}

/// A product with its images as answered.
#[derive(Debug, Clone, PartialEq)]
pub struct ShownItem {
    pub item: InventoryItem,
    pub images: Vec<ShownImage>,
}

/// The images of `items` to embed: walking the products and their images in answer order, every image whose
/// data URL still fits in what is left of `budget`; the others are linked.
pub fn images_to_embed(items: &[InventoryItem], budget: usize) -> Vec<ImageKey> {
    let mut left = budget;
    let mut chosen = Vec::new();
    for item in items {
        for meta in &item.images {
            let size = meta.data_url_len();
            if size <= left {
                left -= size;
                chosen.push(ImageKey {
                    product: item.id.clone(),
                    index: meta.index,
                });
            }
        }
    }
    chosen
}

/// Renders `items`, embedding the images found in `fetched` and linking every other one.
pub fn show(items: Vec<InventoryItem>, fetched: Vec<(ImageKey, StoredImage)>) -> Vec<ShownItem> {
    let mut fetched: HashMap<ImageKey, StoredImage> = fetched.into_iter().collect();
    items
        .into_iter()
        .map(|item| shown_item(item, &mut fetched))
        .collect()
}

/// [`show`] for a single product.
pub fn show_one(item: InventoryItem, fetched: Vec<(ImageKey, StoredImage)>) -> ShownItem {
    shown_item(item, &mut fetched.into_iter().collect())
}

fn shown_item(item: InventoryItem, fetched: &mut HashMap<ImageKey, StoredImage>) -> ShownItem {
    let images = item
        .images
        .iter()
        .map(|meta| {
            let key = ImageKey {
                product: item.id.clone(),
                index: meta.index,
            };
            match fetched.remove(&key) {
                Some(image) => ShownImage::Embedded(image.data_url()),
                None => ShownImage::Linked(key.url(&meta.sha256)),
            }
        })
        .collect();
    ShownItem { item, images }
}

#[cfg(test)]
mod tests {
    use payments_core::{Cents, Wallet};

    use super::*;
    use crate::inventory::item::{ItemFields, ProductId, Sku};
    use crate::inventory::stored_image::{ContentHash, ImageMeta};

    fn meta(index: usize, byte_size: u64) -> ImageMeta {
        ImageMeta {
            index,
            content_type: "image/png".to_owned(),
            byte_size,
            sha256: ContentHash::from_stored(format!("{index:064x}")),
        }
    }

    fn item(id: &str, sizes: &[u64]) -> InventoryItem {
        InventoryItem {
            id: ProductId::from_stored(id.to_owned()),
            wallet: Wallet::parse("0x00000000000000000000000000000000000000aa").unwrap(),
            fields: ItemFields {
                sku: Sku::parse("sku", id).unwrap(),
                name: id.to_owned(),
                price_usd: Cents::new(100),
                currency: "USD".to_owned(),
                stock_qty: 1,
                category: String::new(),
                description: String::new(),
                tags: Vec::new(),
                attributes: Default::default(),
                cost_usd: Cents::ZERO,
                taxable: false,
                jurisdiction_code: None,
                industry_pack: "general".to_owned(),
                shipping_enabled: false,
                shipping_config: Default::default(),
            },
            images: sizes
                .iter()
                .enumerate()
                .map(|(index, size)| meta(index, *size))
                .collect(),
            created_at: 1,
            updated_at: 1,
        }
    }

    fn key(id: &str, index: usize) -> ImageKey {
        ImageKey {
            product: ProductId::from_stored(id.to_owned()),
            index,
        }
    }

    #[test]
    fn images_are_embedded_in_order_while_they_fit_and_smaller_later_ones_still_do() {
        // 3 bytes make 4 base64 characters; "data:image/png;base64," is 22 characters.
        let items = [item("p1", &[300, 3000]), item("p2", &[30])];

        // 422 (p1/0) + 62 (p2/0) fit in 500; p1/1 (4022) does not.
        assert_eq!(images_to_embed(&items, 500), [key("p1", 0), key("p2", 0)]);
        assert_eq!(images_to_embed(&items, 421), [key("p2", 0)]);
        assert!(images_to_embed(&items, 0).is_empty());
    }

    #[test]
    fn images_not_fetched_are_linked_to_their_route_with_their_version() {
        let items = vec![item("p1", &[3, 3])];
        let fetched = vec![(
            key("p1", 1),
            StoredImage {
                meta: meta(1, 3),
                bytes: b"abc".to_vec(),
            },
        )];

        let shown = show(items, fetched);

        assert_eq!(
            shown[0].images,
            [
                ShownImage::Linked("/api/inventory/p1/images/0?v=0000000000000000".to_owned()),
                ShownImage::Embedded(ImageDataUrl::encode("image/png", b"abc")),
            ]
        );
    }
}
