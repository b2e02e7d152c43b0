//! Inventory rows: the item mapper, the writes, and [`InventoryRepository`]. Read-modify-write sequences
//! (upsert, image upload) lock the product row first, so concurrent writers apply one after the other.

use std::time::Duration;

use crate::postgres::connection::{PgClient, Queries};
use async_trait::async_trait;
use payments_core::Wallet;
use tokio_postgres::Row;

use crate::postgres::error::{PgError, contended_on_unique};
use crate::postgres::{PgStore, inventory_images, inventory_list, rows};
use crate::rows::{Existing, ItemRow, unknown_image};
use crate::{AttachOutcome, InventoryRepository, ItemColumns, ItemUpsert, StoreError, UpsertOutcome};
use payments_domain::inventory::{
    ContentHash, ImageFetch, ImageKey, InventoryItem, InventoryPage, InventoryQuery, MAX_IMAGES, NewImage,
    ProductId, Sku, StoredImage,
};

/// The columns [`item_from_row`] reads. `images_meta` is each image's metadata as a JSON array (never the
/// bytes); the statement must read `FROM inventory_items` unaliased.
macro_rules! item_columns {
    () => {
        "inventory_items.public_id, inventory_items.wallet, sku, name, price_cents, currency, stock_qty,
        category, description, tags_json,
        (SELECT COALESCE(json_agg(json_build_object('index', position, 'contentType', content_type,
                'byteSize', byte_size, 'sha256', sha256) ORDER BY position), '[]'::json)::text
            FROM inventory_images WHERE item_id = inventory_items.id) AS images_meta,
        attributes_json, cost_cents, taxable, jurisdiction_code, industry_pack, shipping_enabled,
        shipping_config_json, created_at, updated_at"
    };
}
pub(super) use item_columns;

pub(super) const FETCH_BY_ROWID: &str =
    concat!("SELECT ", item_columns!(), " FROM inventory_items WHERE id = $1");
const LOCK_BY_ID: &str = "SELECT id, public_id, sku FROM inventory_items
    WHERE wallet = $1 AND public_id = $2 FOR UPDATE";
const LOCK_BY_SKU: &str =
    "SELECT id, public_id, sku FROM inventory_items WHERE wallet = $1 AND sku = $2 FOR UPDATE";
/// Read after the product row is locked: every image write locks that row first.
const IMAGE_COUNT: &str = "SELECT COUNT(*) AS image_count FROM inventory_images WHERE item_id = $1";
const INSERT: &str = "INSERT INTO inventory_items (public_id, wallet, sku, name, price_cents, currency,
    stock_qty, category, description, tags_json, tag_keys_json, search_text, attributes_json,
    cost_cents, taxable, jurisdiction_code, industry_pack, shipping_enabled, shipping_config_json, created_at,
    updated_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $20)
    RETURNING id";
/// `id`, `public_id` and `created_at` are never updated: an upsert keeps the product's identity and age.
const UPDATE: &str = "UPDATE inventory_items SET sku = $3, name = $4, price_cents = $5, currency = $6,
    stock_qty = $7, category = $8, description = $9, tags_json = $10, tag_keys_json = $11, search_text = $12,
    attributes_json = $13, cost_cents = $14, taxable = $15, jurisdiction_code = $16,
    industry_pack = $17, shipping_enabled = $18, shipping_config_json = $19, updated_at = $20
    WHERE id = $1 AND wallet = $2";
const DELETE: &str = "DELETE FROM inventory_items WHERE wallet = $1 AND public_id = $2";
const TOUCH: &str = "UPDATE inventory_items SET updated_at = $2 WHERE id = $1";

pub(super) fn item_from_row(row: &Row) -> Result<InventoryItem, PgError> {
    ItemRow {
        public_id: rows::get(row, "public_id")?,
        wallet: rows::get(row, "wallet")?,
        sku: rows::get(row, "sku")?,
        name: rows::get(row, "name")?,
        price_cents: rows::get(row, "price_cents")?,
        currency: rows::get(row, "currency")?,
        stock_qty: rows::get(row, "stock_qty")?,
        category: rows::get(row, "category")?,
        description: rows::get(row, "description")?,
        tags_json: rows::get(row, "tags_json")?,
        images_meta: rows::get(row, "images_meta")?,
        attributes_json: rows::get(row, "attributes_json")?,
        cost_cents: rows::get(row, "cost_cents")?,
        taxable: rows::get(row, "taxable")?,
        jurisdiction_code: rows::get(row, "jurisdiction_code")?,
        industry_pack: rows::get(row, "industry_pack")?,
        shipping_enabled: rows::get(row, "shipping_enabled")?,
        shipping_config_json: rows::get(row, "shipping_config_json")?,
        created_at: rows::get(row, "created_at")?,
        updated_at: rows::get(row, "updated_at")?,
    }
    .into_record()
    .map_err(|error| PgError::corrupt("a product", error))
}

async fn lock(tx: &impl Queries, sql: &str, wallet: &str, key: &str) -> Result<Option<Existing>, PgError> {
    let statement = tx.prepare_cached(sql).await?;
    let Some(row) = tx.query_opt(&statement, &[&wallet, &key]).await? else {
        return Ok(None);
    };
    let rowid: i64 = rows::get(&row, "id")?;
    let statement = tx.prepare_cached(IMAGE_COUNT).await?;
    let image_count: i64 = rows::get(&tx.query_one(&statement, &[&rowid]).await?, "image_count")?;
    Ok(Some(Existing {
        rowid,
        id: ProductId::from_stored(rows::get(&row, "public_id")?),
        sku: rows::get(&row, "sku")?,
        image_count: usize::try_from(image_count).unwrap_or_default(),
    }))
}

async fn upsert(mut client: PgClient, upsert: &ItemUpsert) -> Result<UpsertOutcome, PgError> {
    let tx = client.transaction().await?;
    let ItemUpsert {
        wallet,
        draft,
        new_id,
        now_ms,
    } = upsert;
    let (wallet, fields) = (wallet.to_string(), &draft.fields);
    let existing = match &draft.id {
        Some(id) => match lock(&tx, LOCK_BY_ID, &wallet, id.as_str()).await? {
            Some(existing) => Some(existing),
            None => return Ok(UpsertOutcome::UnknownId),
        },
        None => lock(&tx, LOCK_BY_SKU, &wallet, fields.sku.as_str()).await?,
    };
    if let Some(existing) = &existing
        && existing.sku != fields.sku.as_str()
        && lock(&tx, LOCK_BY_SKU, &wallet, fields.sku.as_str())
            .await?
            .is_some()
    {
        return Ok(UpsertOutcome::SkuTaken);
    }
    if let Some(refused) = unknown_image(draft, existing.as_ref()) {
        return Ok(refused);
    }
    let columns = ItemColumns::of(fields).map_err(|error| PgError::corrupt("product to store", error))?;
    let (price, cost) = (fields.price_usd.as_i64(), fields.cost_usd.as_i64());
    // UPDATE ($1 = row id) and INSERT ($1 = new public id) take the same fields as $2..$20.
    let new_public_id = new_id.as_str();
    let first: &(dyn tokio_postgres::types::ToSql + Sync) = match &existing {
        Some(existing) => &existing.rowid,
        None => &new_public_id,
    };
    let params: [&(dyn tokio_postgres::types::ToSql + Sync); 20] = [
        first,
        &wallet,
        &fields.sku.as_str(),
        &fields.name,
        &price,
        &fields.currency,
        &fields.stock_qty,
        &fields.category,
        &fields.description,
        &columns.tags_json,
        &columns.tag_keys_json,
        &columns.search_text,
        &columns.attributes_json,
        &cost,
        &fields.taxable,
        &fields.jurisdiction_code,
        &fields.industry_pack,
        &fields.shipping_enabled,
        &columns.shipping_config_json,
        now_ms,
    ];
    let rowid = match &existing {
        Some(existing) => {
            let statement = tx.prepare_cached(UPDATE).await?;
            tx.execute(&statement, &params)
                .await
                .map_err(|error| contended_on_unique(error.into(), "sku taken concurrently"))?;
            existing.rowid
        }
        None => {
            let statement = tx.prepare_cached(INSERT).await?;
            let row = tx
                .query_one(&statement, &params)
                .await
                .map_err(|error| contended_on_unique(error.into(), "sku created concurrently"))?;
            rows::get(&row, "id")?
        }
    };
    if let Some(images) = &draft.images {
        inventory_images::replace(&tx, rowid, images).await?;
    }
    let statement = tx.prepare_cached(FETCH_BY_ROWID).await?;
    let item = item_from_row(&tx.query_one(&statement, &[&rowid]).await?)?;
    tx.commit().await?;
    Ok(UpsertOutcome::Saved(Box::new(item)))
}

async fn delete(client: PgClient, wallet: Wallet, id: &ProductId) -> Result<bool, PgError> {
    let statement = client.prepare_cached(DELETE).await?;
    let deleted = client
        .execute(&statement, &[&wallet.to_string(), &id.as_str()])
        .await?;
    Ok(deleted == 1)
}

async fn attach_image(
    mut client: PgClient,
    wallet: Wallet,
    sku: &Sku,
    image: &NewImage,
    now_ms: i64,
) -> Result<AttachOutcome, PgError> {
    let tx = client.transaction().await?;
    let Some(existing) = lock(&tx, LOCK_BY_SKU, &wallet.to_string(), sku.as_str()).await? else {
        return Ok(AttachOutcome::UnknownSku);
    };
    if existing.image_count >= MAX_IMAGES {
        return Ok(AttachOutcome::TooManyImages);
    }
    inventory_images::insert(&tx, existing.rowid, existing.image_count, image).await?;
    let statement = tx.prepare_cached(TOUCH).await?;
    tx.execute(&statement, &[&existing.rowid, &now_ms]).await?;
    tx.commit().await?;
    Ok(AttachOutcome::Attached)
}

#[async_trait]
impl InventoryRepository for PgStore {
    async fn list(
        &self,
        wallet: Wallet,
        query: &InventoryQuery,
        budget: Duration,
    ) -> Result<InventoryPage, StoreError> {
        self.run(|client| Box::pin(inventory_list::list(client, wallet, query, budget)))
            .await
    }

    async fn upsert(&self, item: &ItemUpsert) -> Result<UpsertOutcome, StoreError> {
        self.run(|client| Box::pin(upsert(client, item))).await
    }

    async fn delete(&self, wallet: Wallet, id: &ProductId) -> Result<bool, StoreError> {
        self.run(|client| Box::pin(delete(client, wallet, id))).await
    }

    async fn attach_image(
        &self,
        wallet: Wallet,
        sku: &Sku,
        image: &NewImage,
        now_ms: i64,
    ) -> Result<AttachOutcome, StoreError> {
        self.run(|client| Box::pin(attach_image(client, wallet, sku, image, now_ms)))
            .await
    }

    async fn fetch_image(
        &self,
        wallet: Wallet,
        image: &ImageKey,
        known: &[ContentHash],
    ) -> Result<Option<ImageFetch>, StoreError> {
        self.run(|client| Box::pin(inventory_images::fetch_one(client, wallet, image, known)))
            .await
    }

    async fn fetch_images(
        &self,
        wallet: Wallet,
        images: &[ImageKey],
    ) -> Result<Vec<(ImageKey, StoredImage)>, StoreError> {
        self.run(|client| Box::pin(inventory_images::fetch_many(client, wallet, images)))
            .await
    }
}
