//! Migration 8: product images in their own table, as bytes with their type, size and SHA-256.
//!
//! Until v7 a product's images were a JSON array of data URLs in `inventory_items.images_json`, so every
//! listing read (and the server held) every image of the page: 40 products with three 2 MiB images made one
//! listing peak at 710 MB (issue 10). Now a listing reads only the metadata columns, and an image's bytes
//! are read by its own route or when an answer embeds it. `data` is the last column, so reading the others
//! never walks the blob's overflow pages.
//!
//! The existing data URLs are decoded and hashed by two SQL functions this migration registers on its
//! connection ([`register_functions`]); a stored value that does not decode fails the migration (the
//! server does not start) rather than dropping an image. Then `images_json` is dropped.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use rusqlite::Connection;
use rusqlite::functions::{Context, FunctionFlags};
use sha2::{Digest, Sha256};

pub(super) const SQL: &str = "
CREATE TABLE inventory_images (
    id INTEGER PRIMARY KEY,
    item_id INTEGER NOT NULL REFERENCES inventory_items (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    content_type TEXT NOT NULL,
    byte_size INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    data BLOB NOT NULL,
    UNIQUE (item_id, position)
);

CREATE TRIGGER inventory_images_on_item_delete AFTER DELETE ON inventory_items
BEGIN
    DELETE FROM inventory_images WHERE item_id = OLD.id;
END;

WITH images AS (
    SELECT items.id AS item_id, CAST(urls.key AS INTEGER) AS position,
        substr(urls.value, 6, instr(urls.value, ';base64,') - 6) AS content_type,
        payments_v8_base64_decode(substr(urls.value, instr(urls.value, ';base64,') + 8)) AS data
    FROM inventory_items AS items, json_each(items.images_json) AS urls
)
INSERT INTO inventory_images (item_id, position, content_type, byte_size, sha256, data)
    SELECT item_id, position, content_type, length(data), payments_v8_sha256_hex(data), data FROM images;

ALTER TABLE inventory_items DROP COLUMN images_json;
";

/// The functions [`SQL`] calls: `payments_v8_base64_decode(text) -> blob` and
/// `payments_v8_sha256_hex(blob) -> text`. Registered before any migration runs; harmless afterwards.
pub(super) fn register_functions(conn: &Connection) -> rusqlite::Result<()> {
    let flags = FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC;
    conn.create_scalar_function("payments_v8_base64_decode", 1, flags, |ctx: &Context<'_>| {
        let text: String = ctx.get(0)?;
        STANDARD
            .decode(text)
            .map_err(|error| rusqlite::Error::UserFunctionError(Box::new(error)))
    })?;
    conn.create_scalar_function("payments_v8_sha256_hex", 1, flags, |ctx: &Context<'_>| {
        let bytes: Vec<u8> = ctx.get(0)?;
        Ok(hex::encode(Sha256::digest(bytes)))
    })
}
