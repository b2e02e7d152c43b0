//! Stored product images: what a listing knows of them without their bytes, their own route
//! (`GET /api/inventory/{id}/images/{n}`), and references to them in an upsert body.

use serde::{Deserialize, Serialize};

use crate::inventory::image::{ImageDataUrl, NewImage, data_url_len};
use crate::inventory::item::ProductId;

/// Lower-case hex SHA-256 of an image's bytes: its `ETag`, and (shortened) the `v` of its route URL.
// serde for the store only: read back from the image metadata a product read aggregates as JSON, and
// written as the JSON list of hashes an image lookup binds.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ContentHash(String);

impl ContentHash {
    /// Hex digits of the hash carried as `?v=` by an image's URL: enough to tell versions of one image apart.
    const VERSION_CHARS: usize = 16;

    pub fn from_stored(hex: String) -> Self {
        ContentHash(hex)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The `v` query value of the image's URL.
    pub fn version(&self) -> &str {
        self.0.get(..Self::VERSION_CHARS).unwrap_or(&self.0)
    }

    /// The strong entity tag: the hash in quotes.
    pub fn etag(&self) -> String {
        format!("\"{}\"", self.0)
    }

    /// The hashes an `If-None-Match` header names (weak or strong tags; `*` and anything else is ignored).
    pub fn from_if_none_match(header: &str) -> Vec<ContentHash> {
        header
            .split(',')
            .filter_map(|tag| {
                let tag = tag.trim();
                let tag = tag.strip_prefix("W/").unwrap_or(tag);
                let hex = tag.strip_prefix('"')?.strip_suffix('"')?;
                let is_hash = hex.len() == 64
                    && hex
                        .bytes()
                        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
                is_hash.then(|| ContentHash(hex.to_owned()))
            })
            .collect()
    }
}

/// One image of one product: the product's id and the image's 0-based place in its `images`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ImageKey {
    pub product: ProductId,
    pub index: usize,
}

impl ImageKey {
    const PREFIX: &str = "/api/inventory/";

    /// The image's route, `/api/inventory/{id}/images/{n}`, with `?v=` naming this version of it.
    /// Product ids are generated (`prod_` + hex), so they need no escaping in a path.
    pub fn url(&self, hash: &ContentHash) -> String {
        format!(
            "{}{}/images/{}?v={}",
            Self::PREFIX,
            self.product.as_str(),
            self.index,
            hash.version()
        )
    }

    /// The image a URL of [`ImageKey::url`]'s form names: the path alone, or an absolute URL (any origin);
    /// the query is ignored. `None` for anything else.
    pub fn parse_url(text: &str) -> Option<ImageKey> {
        let path = match text.split_once("://") {
            Some((_, rest)) => &rest[rest.find('/')?..],
            None => text,
        };
        let path = path.split(['?', '#']).next().unwrap_or(path);
        let rest = path.strip_prefix(Self::PREFIX)?;
        let [id, "images", index] = rest.split('/').collect::<Vec<_>>()[..] else {
            return None;
        };
        let product = ProductId::parse("images", id).ok()?;
        let index = parse_index(index)?;
        Some(ImageKey { product, index })
    }
}

/// A path segment naming an image's place: a plain decimal number (no sign, no leading zeros).
pub fn parse_index(text: &str) -> Option<usize> {
    let canonical = !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'));
    canonical.then(|| text.parse().ok()).flatten()
}

/// What is known of a stored image without reading its bytes.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ImageMeta {
    /// 0-based place in the product's `images`.
    pub index: usize,
    pub content_type: String,
    pub byte_size: u64,
    pub sha256: ContentHash,
}

impl ImageMeta {
    /// Length of this image as a data URL.
    pub fn data_url_len(&self) -> usize {
        data_url_len(
            &self.content_type,
            usize::try_from(self.byte_size).unwrap_or(usize::MAX),
        )
    }
}

/// A stored image with its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredImage {
    pub meta: ImageMeta,
    pub bytes: Vec<u8>,
}

impl StoredImage {
    pub fn data_url(&self) -> ImageDataUrl {
        ImageDataUrl::encode(&self.meta.content_type, &self.bytes)
    }
}

/// One image read through its route: the bytes are left unread when the caller already has this version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImageFetch {
    /// The image's hash is one the caller named (`If-None-Match`): nothing to send but its metadata.
    Unchanged(ImageMeta),
    Fetched(StoredImage),
}

/// One entry of an upsert's `images`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImageInput {
    /// A data URL: a new image.
    New(NewImage),
    /// The URL of one of the product's own stored images (as a listing answers it past its size cap), kept
    /// as it is: a listing's item can be posted back unchanged.
    Kept(ImageKey),
}

/// The place in `images` of the first kept image the product does not have, if any: `product` is the product
/// being saved (its id and how many images it has stored), `None` when the upsert creates it.
pub fn first_unknown_kept(images: &[ImageInput], product: Option<(&ProductId, usize)>) -> Option<usize> {
    images.iter().position(|image| match (image, product) {
        (ImageInput::New(_), _) => false,
        (ImageInput::Kept(_), None) => true,
        (ImageInput::Kept(key), Some((id, count))) => key.product != *id || key.index >= count,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(id: &str, index: usize) -> ImageKey {
        ImageKey {
            product: ProductId::from_stored(id.to_owned()),
            index,
        }
    }

    #[test]
    fn an_image_url_names_its_product_place_and_version() {
        let hash = ContentHash::from_stored(
            "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef".to_owned(),
        );

        assert_eq!(
            key("prod_1f", 2).url(&hash),
            "/api/inventory/prod_1f/images/2?v=0123456789abcdef"
        );
    }

    #[test]
    fn image_urls_parse_back_from_a_path_or_an_absolute_url() {
        assert_eq!(
            ImageKey::parse_url("/api/inventory/prod_1f/images/2?v=0123"),
            Some(key("prod_1f", 2))
        );
        assert_eq!(
            ImageKey::parse_url("https://shop.example/api/inventory/prod_1f/images/0"),
            Some(key("prod_1f", 0))
        );
        for refused in [
            "/api/inventory/prod_1f/images/02",
            "/api/inventory/prod_1f/images/-1",
            "/api/inventory/prod_1f/images/",
            "/api/inventory/prod_1f/thumbs/0",
            "/api/inventory/images/0",
            "/api/receipts/prod_1f/images/0",
            "https://shop.example",
            "prod_1f/images/0",
        ] {
            assert_eq!(ImageKey::parse_url(refused), None, "{refused}");
        }
    }

    #[test]
    fn kept_images_must_be_the_saved_products_own() {
        let own = ProductId::from_stored("prod_1".to_owned());
        let kept = |id: &str, index| ImageInput::Kept(key(id, index));

        assert_eq!(
            first_unknown_kept(&[kept("prod_1", 1), kept("prod_1", 0)], Some((&own, 2))),
            None
        );
        assert_eq!(
            first_unknown_kept(&[kept("prod_1", 0), kept("prod_1", 2)], Some((&own, 2))),
            Some(1)
        );
        assert_eq!(first_unknown_kept(&[kept("prod_2", 0)], Some((&own, 2))), Some(0));
        assert_eq!(first_unknown_kept(&[kept("prod_1", 0)], None), Some(0));
        assert_eq!(first_unknown_kept(&[], None), None);
    }

    #[test]
    fn if_none_match_yields_the_hashes_it_names() {
        let a = "a".repeat(64);
        let b = "b".repeat(64);
        let header = format!("\"{a}\", W/\"{b}\", *, \"short\", {a}");

        assert_eq!(
            ContentHash::from_if_none_match(&header),
            [ContentHash(a), ContentHash(b)]
        );
    }
}
