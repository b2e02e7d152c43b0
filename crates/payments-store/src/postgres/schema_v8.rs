//! Schema version 8 (PostgreSQL counterpart of SQLite's v8): product images in their own table, as bytes
//! with their type, size and SHA-256, instead of data URLs inside `inventory_items.images_json`, so a listing
//! reads only metadata. The existing data URLs are decoded and hashed in SQL (`decode`, `sha256`); a value
//! that does not decode fails the migration rather than dropping an image. Images are already compressed
//! formats: `STORAGE EXTERNAL` keeps them out of line without trying to compress them again.

pub(super) const SQL: &str = "
CREATE TABLE inventory_images (
    id BIGSERIAL PRIMARY KEY,
    item_id BIGINT NOT NULL REFERENCES inventory_items (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    content_type TEXT NOT NULL,
    byte_size BIGINT NOT NULL,
    sha256 TEXT NOT NULL,
    data BYTEA NOT NULL,
    UNIQUE (item_id, position)
);
ALTER TABLE inventory_images ALTER COLUMN data SET STORAGE EXTERNAL;

INSERT INTO inventory_images (item_id, position, content_type, byte_size, sha256, data)
SELECT item_id, position, content_type, length(data), encode(sha256(data), 'hex'), data
FROM (
    SELECT items.id AS item_id, (urls.ordinality - 1)::integer AS position,
        split_part(substr(urls.value, 6), ';base64,', 1) AS content_type,
        decode(split_part(urls.value, ';base64,', 2), 'base64') AS data
    FROM inventory_items AS items
    CROSS JOIN LATERAL jsonb_array_elements_text(items.images_json::jsonb) WITH ORDINALITY AS urls (value, ordinality)
) AS images;

ALTER TABLE inventory_items DROP COLUMN images_json;
";
