//! Inventory rows: the item mapper, the writes, and [`InventoryRepository`]. Read-modify-write sequences
//! (upsert, image upload) lock the product row first, so concurrent writers apply one after the other.

use std::time::Duration;

use async_trait::async_trait;
use deadpool_postgres::{GenericClient, Object};
use payments_core::{Cents, Wallet};
use tokio_postgres::Row;

use crate::domain::inventory::{
    ImageDataUrl, InventoryItem, InventoryPage, InventoryQuery, ItemFields, MAX_IMAGES, ProductId, Sku,
};
use crate::store::postgres::error::{PgError, contended_on_unique};
use crate::store::postgres::{PgStore, inventory_list, rows};
use crate::store::{AttachOutcome, InventoryRepository, ItemColumns, ItemUpsert, StoreError, UpsertOutcome};

pub(super) const FETCH_BY_ROWID: &str =
    "SELECT public_id, wallet, sku, name, price_cents, currency, stock_qty,
    category, description, tags_json, images_json, attributes_json, cost_cents, taxable, jurisdiction_code,
    industry_pack, shipping_enabled, shipping_config_json, created_at, updated_at
    FROM inventory_items WHERE id = $1";
const LOCK_BY_ID: &str =
    "SELECT id, sku, images_json FROM inventory_items WHERE wallet = $1 AND public_id = $2 FOR UPDATE";
const LOCK_BY_SKU: &str =
    "SELECT id, sku, images_json FROM inventory_items WHERE wallet = $1 AND sku = $2 FOR UPDATE";
const INSERT: &str = "INSERT INTO inventory_items (public_id, wallet, sku, name, price_cents, currency,
    stock_qty, category, description, tags_json, tag_keys_json, search_text, images_json, attributes_json,
    cost_cents, taxable, jurisdiction_code, industry_pack, shipping_enabled, shipping_config_json, created_at,
    updated_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $21)
    RETURNING id";
/// `id`, `public_id` and `created_at` are never updated: an upsert keeps the product's identity and age.
const UPDATE: &str = "UPDATE inventory_items SET sku = $3, name = $4, price_cents = $5, currency = $6,
    stock_qty = $7, category = $8, description = $9, tags_json = $10, tag_keys_json = $11, search_text = $12,
    images_json = $13, attributes_json = $14, cost_cents = $15, taxable = $16, jurisdiction_code = $17,
    industry_pack = $18, shipping_enabled = $19, shipping_config_json = $20, updated_at = $21
    WHERE id = $1 AND wallet = $2";
const DELETE: &str = "DELETE FROM inventory_items WHERE wallet = $1 AND public_id = $2";
const SET_IMAGES: &str = "UPDATE inventory_items SET images_json = $2, updated_at = $3 WHERE id = $1";

pub(super) fn item_from_row(row: &Row) -> Result<InventoryItem, PgError> {
    Ok(InventoryItem {
        id: ProductId::from_stored(rows::get(row, "public_id")?),
        wallet: rows::parsed(row, "wallet", Wallet::parse)?,
        fields: ItemFields {
            sku: Sku::from_stored(rows::get(row, "sku")?),
            name: rows::get(row, "name")?,
            price_usd: Cents::new(rows::get(row, "price_cents")?),
            currency: rows::get(row, "currency")?,
            stock_qty: rows::get(row, "stock_qty")?,
            category: rows::get(row, "category")?,
            description: rows::get(row, "description")?,
            tags: rows::json(row, "tags_json")?,
            images: rows::json(row, "images_json")?,
            attributes: rows::json(row, "attributes_json")?,
            cost_usd: Cents::new(rows::get(row, "cost_cents")?),
            taxable: rows::get(row, "taxable")?,
            jurisdiction_code: rows::get(row, "jurisdiction_code")?,
            industry_pack: rows::get(row, "industry_pack")?,
            shipping_enabled: rows::get(row, "shipping_enabled")?,
            shipping_config: rows::json(row, "shipping_config_json")?,
        },
        created_at: rows::get(row, "created_at")?,
        updated_at: rows::get(row, "updated_at")?,
    })
}

/// The few columns an upsert or image upload needs to decide.
struct Existing {
    rowid: i64,
    sku: String,
    images: Vec<String>,
}

async fn lock(
    tx: &impl GenericClient,
    sql: &str,
    wallet: &str,
    key: &str,
) -> Result<Option<Existing>, PgError> {
    let statement = tx.prepare_cached(sql).await?;
    let Some(row) = tx.query_opt(&statement, &[&wallet, &key]).await? else {
        return Ok(None);
    };
    Ok(Some(Existing {
        rowid: rows::get(&row, "id")?,
        sku: rows::get(&row, "sku")?,
        images: rows::json(&row, "images_json")?,
    }))
}

async fn upsert(mut client: Object, upsert: &ItemUpsert) -> Result<UpsertOutcome, PgError> {
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
    let images = match &existing {
        Some(existing) if draft.keep_existing_images => &existing.images,
        _ => &fields.images,
    };
    let columns =
        ItemColumns::of(fields, images).map_err(|error| PgError::corrupt("product to store", error))?;
    let (price, cost) = (fields.price_usd.as_i64(), fields.cost_usd.as_i64());
    // UPDATE ($1 = row id) and INSERT ($1 = new public id) take the same fields as $2..$21.
    let new_public_id = new_id.as_str();
    let first: &(dyn tokio_postgres::types::ToSql + Sync) = match &existing {
        Some(existing) => &existing.rowid,
        None => &new_public_id,
    };
    let params: [&(dyn tokio_postgres::types::ToSql + Sync); 21] = [
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
        &columns.images_json,
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
    let statement = tx.prepare_cached(FETCH_BY_ROWID).await?;
    let item = item_from_row(&tx.query_one(&statement, &[&rowid]).await?)?;
    tx.commit().await?;
    Ok(UpsertOutcome::Saved(Box::new(item)))
}

async fn delete(client: Object, wallet: Wallet, id: &ProductId) -> Result<bool, PgError> {
    let statement = client.prepare_cached(DELETE).await?;
    let deleted = client
        .execute(&statement, &[&wallet.to_string(), &id.as_str()])
        .await?;
    Ok(deleted == 1)
}

async fn attach_image(
    mut client: Object,
    wallet: Wallet,
    sku: &Sku,
    image: &ImageDataUrl,
    now_ms: i64,
) -> Result<AttachOutcome, PgError> {
    let tx = client.transaction().await?;
    let Some(mut existing) = lock(&tx, LOCK_BY_SKU, &wallet.to_string(), sku.as_str()).await? else {
        return Ok(AttachOutcome::UnknownSku);
    };
    if existing.images.len() >= MAX_IMAGES {
        return Ok(AttachOutcome::TooManyImages);
    }
    existing.images.push(image.as_str().to_owned());
    let statement = tx.prepare_cached(SET_IMAGES).await?;
    tx.execute(
        &statement,
        &[&existing.rowid, &rows::to_json(&existing.images)?, &now_ms],
    )
    .await?;
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
        image: &ImageDataUrl,
        now_ms: i64,
    ) -> Result<AttachOutcome, StoreError> {
        self.run(|client| Box::pin(attach_image(client, wallet, sku, image, now_ms)))
            .await
    }
}
