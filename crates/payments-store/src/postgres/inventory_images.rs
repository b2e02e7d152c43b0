//! Product image rows (schema v8), as in SQLite's `inventory_images.rs`: appended by uploads, replaced by
//! upserts that name `images` (kept images copied row to row inside the database), read one at a time by the
//! image route, or in one statement for the images an answer embeds.

use crate::postgres::connection::{PgClient, Queries};
use payments_core::Wallet;
use tokio_postgres::Row;

use crate::postgres::error::PgError;
use crate::postgres::rows;
use payments_domain::inventory::{
    ContentHash, ImageFetch, ImageInput, ImageKey, ImageMeta, NewImage, StoredImage,
};

const INSERT: &str = "INSERT INTO inventory_images (item_id, position, content_type, byte_size, sha256, data)
    VALUES ($1, $2, $3, $4, $5, $6)";
/// Moves a product's images out of the way (place `p` becomes `-1 - p`) before its new list is written;
/// the new places are never negative, so `UNIQUE (item_id, position)` holds at every step.
const SET_ASIDE: &str = "UPDATE inventory_images SET position = -1 - position WHERE item_id = $1";
const COPY_SET_ASIDE: &str =
    "INSERT INTO inventory_images (item_id, position, content_type, byte_size, sha256, data)
    SELECT item_id, $3::integer, content_type, byte_size, sha256, data FROM inventory_images
    WHERE item_id = $1 AND position = -1 - $2::integer";
const DROP_SET_ASIDE: &str = "DELETE FROM inventory_images WHERE item_id = $1 AND position < 0";
/// The bytes stay unread (NULL) when the hash is one of `$4`: a revalidation costs no TOAST read.
const FETCH_ONE: &str = "SELECT image.position, image.content_type, image.byte_size, image.sha256,
    CASE WHEN image.sha256 = ANY($4::text[]) THEN NULL ELSE image.data END AS data
    FROM inventory_images AS image JOIN inventory_items AS item ON item.id = image.item_id
    WHERE item.wallet = $1 AND item.public_id = $2 AND image.position = $3";
/// Every wanted (product, place) pair in one round trip; `wanted` says which pair a row answers.
const FETCH_MANY: &str = "SELECT wanted.ordinality AS wanted, image.position, image.content_type,
    image.byte_size, image.sha256, image.data
    FROM unnest($2::text[], $3::integer[]) WITH ORDINALITY AS wanted (public_id, position, ordinality)
    JOIN inventory_items AS item ON item.wallet = $1 AND item.public_id = wanted.public_id
    JOIN inventory_images AS image ON image.item_id = item.id AND image.position = wanted.position";

fn position(index: usize) -> i32 {
    // At most MAX_IMAGES places exist; an index past i32 cannot match one.
    i32::try_from(index).unwrap_or(i32::MAX)
}

/// Stores `image` at `index` of the product with row id `item`.
pub(super) async fn insert(
    tx: &impl Queries,
    item: i64,
    index: usize,
    image: &NewImage,
) -> Result<(), PgError> {
    let statement = tx.prepare_cached(INSERT).await?;
    let size = i64::try_from(image.bytes().len()).unwrap_or(i64::MAX);
    let bytes: &[u8] = image.bytes();
    tx.execute(
        &statement,
        &[
            &item,
            &position(index),
            &image.content_type(),
            &size,
            &image.hash().as_str(),
            &bytes,
        ],
    )
    .await?;
    Ok(())
}

/// Makes `images` the product's images, in order. Kept images must be this product's (checked by the caller,
/// under the product row's lock, before anything is written).
pub(super) async fn replace(tx: &impl Queries, item: i64, images: &[ImageInput]) -> Result<(), PgError> {
    let set_aside = tx.prepare_cached(SET_ASIDE).await?;
    tx.execute(&set_aside, &[&item]).await?;
    for (index, image) in images.iter().enumerate() {
        match image {
            ImageInput::New(image) => insert(tx, item, index, image).await?,
            ImageInput::Kept(key) => {
                let copy = tx.prepare_cached(COPY_SET_ASIDE).await?;
                tx.execute(&copy, &[&item, &position(key.index), &position(index)])
                    .await?;
            }
        }
    }
    let drop = tx.prepare_cached(DROP_SET_ASIDE).await?;
    tx.execute(&drop, &[&item]).await?;
    Ok(())
}

fn meta_from_row(row: &Row) -> Result<ImageMeta, PgError> {
    let index: i32 = rows::get(row, "position")?;
    let byte_size: i64 = rows::get(row, "byte_size")?;
    Ok(ImageMeta {
        index: usize::try_from(index).map_err(|error| PgError::corrupt("column position", error))?,
        content_type: rows::get(row, "content_type")?,
        byte_size: rows::non_negative(byte_size),
        sha256: ContentHash::from_stored(rows::get(row, "sha256")?),
    })
}

pub(super) async fn fetch_one(
    client: PgClient,
    wallet: Wallet,
    key: &ImageKey,
    known: &[ContentHash],
) -> Result<Option<ImageFetch>, PgError> {
    let known: Vec<&str> = known.iter().map(ContentHash::as_str).collect();
    let statement = client.prepare_cached(FETCH_ONE).await?;
    let params: [&(dyn tokio_postgres::types::ToSql + Sync); 4] = [
        &wallet.to_string(),
        &key.product.as_str(),
        &position(key.index),
        &known,
    ];
    let Some(row) = client.query_opt(&statement, &params).await? else {
        return Ok(None);
    };
    let meta = meta_from_row(&row)?;
    Ok(Some(match rows::get::<Option<Vec<u8>>>(&row, "data")? {
        Some(bytes) => ImageFetch::Fetched(StoredImage { meta, bytes }),
        None => ImageFetch::Unchanged(meta),
    }))
}

pub(super) async fn fetch_many(
    client: PgClient,
    wallet: Wallet,
    keys: &[ImageKey],
) -> Result<Vec<(ImageKey, StoredImage)>, PgError> {
    if keys.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<&str> = keys.iter().map(|key| key.product.as_str()).collect();
    let positions: Vec<i32> = keys.iter().map(|key| position(key.index)).collect();
    let statement = client.prepare_cached(FETCH_MANY).await?;
    let found = client
        .query(&statement, &[&wallet.to_string(), &ids, &positions])
        .await?;
    found
        .iter()
        .filter_map(|row| {
            let wanted = rows::get::<i64>(row, "wanted")
                .ok()
                .and_then(|ordinality| usize::try_from(ordinality - 1).ok())
                .and_then(|at| keys.get(at));
            wanted.map(|key| {
                Ok((
                    key.clone(),
                    StoredImage {
                        meta: meta_from_row(row)?,
                        bytes: rows::get(row, "data")?,
                    },
                ))
            })
        })
        .collect()
}
