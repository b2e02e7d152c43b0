//! Inventory rows: the item mapper and the writes.

use payments_core::Wallet;
use rusqlite::{Connection, OptionalExtension, Row, named_params};

use crate::rows::{Existing, ItemRow, unknown_image};
use crate::sqlite::{inventory_images, rows};
use crate::{AttachOutcome, ItemColumns, ItemUpsert, UpsertOutcome};
use payments_domain::inventory::{InventoryItem, MAX_IMAGES, NewImage, ProductId, Sku};

/// The columns [`item_from_row`] reads, in its order. `images_meta` is each image's metadata as a JSON array
/// (never the bytes); the statement must read `FROM inventory_items` unaliased.
macro_rules! item_columns {
    () => {
        "inventory_items.public_id, inventory_items.wallet, sku, name, price_cents, currency, stock_qty,
        category, description, tags_json,
        (SELECT json_group_array(json_object('index', position, 'contentType', content_type,
                'byteSize', byte_size, 'sha256', sha256) ORDER BY position)
            FROM inventory_images WHERE item_id = inventory_items.id) AS images_meta,
        attributes_json, cost_cents, taxable, jurisdiction_code, industry_pack, shipping_enabled,
        shipping_config_json, created_at, updated_at"
    };
}
pub(super) use item_columns;

/// Columns read by [`item_from_row`], in its order.
pub(super) const ITEM_COLUMNS: &str = item_columns!();

const FETCH_BY_ROWID: &str = concat!("SELECT ", item_columns!(), " FROM inventory_items WHERE id = ?1");
const FIND_BY_ID: &str = "SELECT id, public_id, sku,
    (SELECT COUNT(*) FROM inventory_images WHERE item_id = inventory_items.id) AS image_count
    FROM inventory_items WHERE wallet = :wallet AND public_id = :public_id";
const FIND_BY_SKU: &str = "SELECT id, public_id, sku,
    (SELECT COUNT(*) FROM inventory_images WHERE item_id = inventory_items.id) AS image_count
    FROM inventory_items WHERE wallet = :wallet AND sku = :sku";
const INSERT: &str =
    "INSERT INTO inventory_items (public_id, wallet, sku, name, price_cents, currency, stock_qty,
    category, description, tags_json, tag_keys_json, search_text, attributes_json, cost_cents, taxable,
    jurisdiction_code, industry_pack, shipping_enabled, shipping_config_json, created_at, updated_at)
    VALUES (:public_id, :wallet, :sku, :name, :price_cents, :currency, :stock_qty, :category, :description,
    :tags_json, :tag_keys_json, :search_text, :attributes_json, :cost_cents, :taxable,
    :jurisdiction_code, :industry_pack, :shipping_enabled, :shipping_config_json, :now, :now)";
/// `id` and `created_at` are never updated: an upsert keeps the product's identity and age.
const UPDATE: &str = "UPDATE inventory_items SET sku = :sku, name = :name, price_cents = :price_cents,
    currency = :currency, stock_qty = :stock_qty, category = :category, description = :description,
    tags_json = :tags_json, tag_keys_json = :tag_keys_json, search_text = :search_text,
    attributes_json = :attributes_json, cost_cents = :cost_cents, taxable = :taxable,
    jurisdiction_code = :jurisdiction_code, industry_pack = :industry_pack, shipping_enabled = :shipping_enabled,
    shipping_config_json = :shipping_config_json, updated_at = :now
    WHERE id = :rowid";
const DELETE: &str = "DELETE FROM inventory_items WHERE wallet = ?1 AND public_id = ?2";
const TOUCH: &str = "UPDATE inventory_items SET updated_at = ?2 WHERE id = ?1";

pub(super) fn item_from_row(row: &Row<'_>) -> rusqlite::Result<InventoryItem> {
    ItemRow {
        public_id: row.get(0)?,
        wallet: row.get(1)?,
        sku: row.get(2)?,
        name: row.get(3)?,
        price_cents: row.get(4)?,
        currency: row.get(5)?,
        stock_qty: row.get(6)?,
        category: row.get(7)?,
        description: row.get(8)?,
        tags_json: row.get(9)?,
        images_meta: row.get(10)?,
        attributes_json: row.get(11)?,
        cost_cents: row.get(12)?,
        taxable: row.get(13)?,
        jurisdiction_code: row.get(14)?,
        industry_pack: row.get(15)?,
        shipping_enabled: row.get(16)?,
        shipping_config_json: row.get(17)?,
        created_at: row.get(18)?,
        updated_at: row.get(19)?,
    }
    .into_record()
    .map_err(|error| rows::corrupt(0, error))
}

fn existing_from_row(row: &Row<'_>) -> rusqlite::Result<Existing> {
    Ok(Existing {
        rowid: row.get(0)?,
        id: ProductId::from_stored(row.get(1)?),
        sku: row.get(2)?,
        image_count: rows::non_negative(row.get(3)?),
    })
}

fn find_by_sku(conn: &Connection, wallet: Wallet, sku: &Sku) -> rusqlite::Result<Option<Existing>> {
    let params = named_params! {":wallet": wallet.to_string(), ":sku": sku.as_str()};
    conn.prepare_cached(FIND_BY_SKU)?
        .query_row(params, existing_from_row)
        .optional()
}

fn find_by_id(conn: &Connection, wallet: Wallet, id: &ProductId) -> rusqlite::Result<Option<Existing>> {
    let params = named_params! {":wallet": wallet.to_string(), ":public_id": id.as_str()};
    conn.prepare_cached(FIND_BY_ID)?
        .query_row(params, existing_from_row)
        .optional()
}

pub(super) fn upsert(tx: &Connection, upsert: &ItemUpsert) -> rusqlite::Result<UpsertOutcome> {
    let ItemUpsert {
        wallet,
        draft,
        new_id,
        now_ms,
    } = upsert;
    let fields = &draft.fields;
    let existing = match &draft.id {
        Some(id) => match find_by_id(tx, *wallet, id)? {
            Some(existing) => Some(existing),
            None => return Ok(UpsertOutcome::UnknownId),
        },
        None => find_by_sku(tx, *wallet, &fields.sku)?,
    };
    if let Some(existing) = &existing
        && existing.sku != fields.sku.as_str()
        && find_by_sku(tx, *wallet, &fields.sku)?.is_some()
    {
        return Ok(UpsertOutcome::SkuTaken);
    }
    if let Some(refused) = unknown_image(draft, existing.as_ref()) {
        return Ok(refused);
    }
    let columns =
        ItemColumns::of(fields).map_err(|error| rusqlite::Error::ToSqlConversionFailure(Box::new(error)))?;
    let rowid = match &existing {
        Some(existing) => {
            let params = named_params! {
                ":rowid": existing.rowid, ":sku": fields.sku.as_str(), ":name": fields.name,
                ":price_cents": fields.price_usd.as_i64(), ":currency": fields.currency, ":stock_qty": fields.stock_qty,
                ":category": fields.category, ":description": fields.description, ":tags_json": columns.tags_json,
                ":tag_keys_json": columns.tag_keys_json, ":search_text": columns.search_text,
                ":attributes_json": columns.attributes_json, ":cost_cents": fields.cost_usd.as_i64(), ":taxable": fields.taxable,
                ":jurisdiction_code": fields.jurisdiction_code, ":industry_pack": fields.industry_pack,
                ":shipping_enabled": fields.shipping_enabled, ":shipping_config_json": columns.shipping_config_json,
                ":now": now_ms,
            };
            tx.prepare_cached(UPDATE)?.execute(params)?;
            existing.rowid
        }
        None => {
            let params = named_params! {
                ":public_id": new_id.as_str(), ":wallet": wallet.to_string(), ":sku": fields.sku.as_str(),
                ":name": fields.name, ":price_cents": fields.price_usd.as_i64(), ":currency": fields.currency,
                ":stock_qty": fields.stock_qty, ":category": fields.category, ":description": fields.description,
                ":tags_json": columns.tags_json, ":tag_keys_json": columns.tag_keys_json, ":search_text": columns.search_text,
                ":attributes_json": columns.attributes_json,
                ":cost_cents": fields.cost_usd.as_i64(), ":taxable": fields.taxable,
                ":jurisdiction_code": fields.jurisdiction_code, ":industry_pack": fields.industry_pack,
                ":shipping_enabled": fields.shipping_enabled, ":shipping_config_json": columns.shipping_config_json,
                ":now": now_ms,
            };
            tx.prepare_cached(INSERT)?.execute(params)?;
            tx.last_insert_rowid()
        }
    };
    if let Some(images) = &draft.images {
        inventory_images::replace(tx, rowid, images)?;
    }
    tx.prepare_cached(FETCH_BY_ROWID)?
        .query_row([rowid], item_from_row)
        .map(|item| UpsertOutcome::Saved(Box::new(item)))
}

pub(super) fn delete(tx: &Connection, wallet: Wallet, id: &ProductId) -> rusqlite::Result<bool> {
    tx.prepare_cached(DELETE)?
        .execute([wallet.to_string(), id.as_str().to_owned()])
        .map(|deleted| deleted == 1)
}

pub(super) fn attach_image(
    tx: &Connection,
    wallet: Wallet,
    sku: &Sku,
    image: &NewImage,
    now_ms: i64,
) -> rusqlite::Result<AttachOutcome> {
    let Some(existing) = find_by_sku(tx, wallet, sku)? else {
        return Ok(AttachOutcome::UnknownSku);
    };
    if existing.image_count >= MAX_IMAGES {
        return Ok(AttachOutcome::TooManyImages);
    }
    inventory_images::insert(tx, existing.rowid, existing.image_count, image)?;
    tx.prepare_cached(TOUCH)?
        .execute(rusqlite::params![existing.rowid, now_ms])?;
    Ok(AttachOutcome::Attached)
}
