//! Product image rows (schema v8): appended by uploads, replaced by upserts that name `images` (kept images
//! are copied row to row, never read into memory), read one at a time by the image route, or a few at a
//! time for the images an answer embeds.

use payments_core::Wallet;
use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::sqlite::rows;
use payments_domain::inventory::{
    ContentHash, ImageFetch, ImageInput, ImageKey, ImageMeta, NewImage, StoredImage,
};

const INSERT: &str = "INSERT INTO inventory_images (item_id, position, content_type, byte_size, sha256, data)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
/// Moves a product's images out of the way (place `p` becomes `-1 - p`) before its new list is written;
/// the new places are never negative, so `UNIQUE (item_id, position)` holds at every step.
const SET_ASIDE: &str = "UPDATE inventory_images SET position = -1 - position WHERE item_id = ?1";
const COPY_SET_ASIDE: &str =
    "INSERT INTO inventory_images (item_id, position, content_type, byte_size, sha256, data)
    SELECT item_id, ?3, content_type, byte_size, sha256, data FROM inventory_images
    WHERE item_id = ?1 AND position = -1 - ?2";
const DROP_SET_ASIDE: &str = "DELETE FROM inventory_images WHERE item_id = ?1 AND position < 0";
/// The bytes are left unread (NULL) when the hash is one of `?4` (a JSON array): a revalidation costs no
/// blob read.
const FETCH_ONE: &str = "SELECT image.position, image.content_type, image.byte_size, image.sha256,
    CASE WHEN image.sha256 IN (SELECT value FROM json_each(?4)) THEN NULL ELSE image.data END
    FROM inventory_images AS image JOIN inventory_items AS item ON item.id = image.item_id
    WHERE item.wallet = ?1 AND item.public_id = ?2 AND image.position = ?3";
const FETCH_WITH_BYTES: &str =
    "SELECT image.position, image.content_type, image.byte_size, image.sha256, image.data
    FROM inventory_images AS image JOIN inventory_items AS item ON item.id = image.item_id
    WHERE item.wallet = ?1 AND item.public_id = ?2 AND image.position = ?3";

/// Stores `image` at `position` of the product with row id `item`.
pub(super) fn insert(tx: &Connection, item: i64, position: usize, image: &NewImage) -> rusqlite::Result<()> {
    tx.prepare_cached(INSERT)?.execute(params![
        item,
        rows::integer(position),
        image.content_type(),
        rows::integer(image.bytes().len()),
        image.hash().as_str(),
        image.bytes().as_ref()
    ])?;
    Ok(())
}

/// Makes `images` the product's images, in order. Kept images must be this product's (checked by the caller
/// before anything is written).
pub(super) fn replace(tx: &Connection, item: i64, images: &[ImageInput]) -> rusqlite::Result<()> {
    tx.prepare_cached(SET_ASIDE)?.execute([item])?;
    for (position, image) in images.iter().enumerate() {
        match image {
            ImageInput::New(image) => insert(tx, item, position, image)?,
            ImageInput::Kept(key) => {
                tx.prepare_cached(COPY_SET_ASIDE)?.execute(params![
                    item,
                    rows::integer(key.index),
                    rows::integer(position)
                ])?;
            }
        }
    }
    tx.prepare_cached(DROP_SET_ASIDE)?.execute([item])?;
    Ok(())
}

fn meta_from_row(row: &Row<'_>) -> rusqlite::Result<ImageMeta> {
    let byte_size: i64 = row.get(2)?;
    Ok(ImageMeta {
        index: rows::non_negative(row.get(0)?),
        content_type: row.get(1)?,
        byte_size: u64::try_from(byte_size).unwrap_or_default(),
        sha256: ContentHash::from_stored(row.get(3)?),
    })
}

pub(super) fn fetch_one(
    conn: &Connection,
    wallet: Wallet,
    key: &ImageKey,
    known: &[ContentHash],
) -> rusqlite::Result<Option<ImageFetch>> {
    let known = rows::to_json(&known)?;
    conn.prepare_cached(FETCH_ONE)?
        .query_row(
            params![
                wallet.to_string(),
                key.product.as_str(),
                rows::integer(key.index),
                known
            ],
            |row| {
                let meta = meta_from_row(row)?;
                Ok(match row.get::<_, Option<Vec<u8>>>(4)? {
                    Some(bytes) => ImageFetch::Fetched(StoredImage { meta, bytes }),
                    None => ImageFetch::Unchanged(meta),
                })
            },
        )
        .optional()
}

pub(super) fn fetch_many(
    conn: &Connection,
    wallet: Wallet,
    keys: &[ImageKey],
) -> rusqlite::Result<Vec<(ImageKey, StoredImage)>> {
    let wallet = wallet.to_string();
    let mut statement = conn.prepare_cached(FETCH_WITH_BYTES)?;
    let mut found = Vec::with_capacity(keys.len());
    for key in keys {
        let image = statement
            .query_row(
                params![wallet, key.product.as_str(), rows::integer(key.index)],
                |row| {
                    Ok(StoredImage {
                        meta: meta_from_row(row)?,
                        bytes: row.get(4)?,
                    })
                },
            )
            .optional()?;
        found.extend(image.map(|image| (key.clone(), image)));
    }
    Ok(found)
}
