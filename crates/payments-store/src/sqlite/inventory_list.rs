//! The inventory listing: one filter clause with optional parameters (NULL = filter off) and a fixed table of
//! ORDER BY clauses, so no caller text is ever spliced into SQL.

use std::time::{Duration, Instant};

use payments_core::Wallet;
use rusqlite::{Connection, ToSql};

use crate::sqlite::inventory::{ITEM_COLUMNS, item_from_row};
use crate::sqlite::rows;
use payments_domain::inventory::{
    InventoryItem, InventoryPage, InventoryQuery, SortField, SortOrder, StockFilter, TagsMode,
};
use payments_domain::page_cursor::{InventoryKey, SortValue};

const FILTER: &str = "FROM inventory_items
WHERE wallet = :wallet
  AND (:q IS NULL OR search_text LIKE :q ESCAPE '\\')
  AND (:category IS NULL OR lower(category) = :category)
  AND (:price_min IS NULL OR price_cents >= :price_min)
  AND (:price_max IS NULL OR price_cents <= :price_max)
  AND (:industry_pack IS NULL OR industry_pack = :industry_pack)
  AND (:taxable IS NULL OR taxable = :taxable)
  AND (:stock = 'all' OR (:stock = 'in' AND stock_qty <> 0) OR (:stock = 'out' AND stock_qty = 0))";
/// `:tags` is a JSON array of distinct lower-cased tags, looked up in the `(wallet, tag_key, item_id)` key of
/// `inventory_item_tags`: the cost follows the matching products, not the merchant's whole catalog.
const ANY_TAG: &str = "
  AND id IN (SELECT item_id FROM inventory_item_tags
             WHERE wallet = :wallet AND tag_key IN (SELECT value FROM json_each(:tags)))";
/// Every wanted tag: the product has as many of the (distinct) wanted tags as were asked for.
const ALL_TAGS: &str = "
  AND id IN (SELECT item_id FROM inventory_item_tags
             WHERE wallet = :wallet AND tag_key IN (SELECT value FROM json_each(:tags))
             GROUP BY item_id HAVING COUNT(*) = :tag_count)";
const COUNT: &str = "SELECT COUNT(*) ";
const PAGE: &str = "LIMIT :limit OFFSET :offset";

/// Ties are broken by insertion order so paging is stable.
fn order_by(sort: SortField, order: SortOrder) -> &'static str {
    match (sort, order) {
        (SortField::Name, SortOrder::Asc) => "ORDER BY name COLLATE NOCASE ASC, id ASC",
        (SortField::Name, SortOrder::Desc) => "ORDER BY name COLLATE NOCASE DESC, id DESC",
        (SortField::PriceUsd, SortOrder::Asc) => "ORDER BY price_cents ASC, id ASC",
        (SortField::PriceUsd, SortOrder::Desc) => "ORDER BY price_cents DESC, id DESC",
        (SortField::StockQty, SortOrder::Asc) => "ORDER BY stock_qty ASC, id ASC",
        (SortField::StockQty, SortOrder::Desc) => "ORDER BY stock_qty DESC, id DESC",
        (SortField::CreatedAt, SortOrder::Asc) => "ORDER BY created_at ASC, id ASC",
        (SortField::CreatedAt, SortOrder::Desc) => "ORDER BY created_at DESC, id DESC",
        (SortField::UpdatedAt, SortOrder::Asc) => "ORDER BY updated_at ASC, id ASC",
        (SortField::UpdatedAt, SortOrder::Desc) => "ORDER BY updated_at DESC, id DESC",
    }
}

/// Rows after a cursor's key, in the same order as [`order_by`] (ties broken by insertion id). Only the
/// clause of the listed sort is used, with `:after_value` and `:after_id` bound.
fn after_key(sort: SortField, order: SortOrder) -> &'static str {
    match (sort, order) {
        (SortField::Name, SortOrder::Asc) => {
            "\n  AND (name COLLATE NOCASE > :after_value OR (name COLLATE NOCASE = :after_value AND id > :after_id))"
        }
        (SortField::Name, SortOrder::Desc) => {
            "\n  AND (name COLLATE NOCASE < :after_value OR (name COLLATE NOCASE = :after_value AND id < :after_id))"
        }
        (SortField::PriceUsd, SortOrder::Asc) => {
            "\n  AND (price_cents > :after_value OR (price_cents = :after_value AND id > :after_id))"
        }
        (SortField::PriceUsd, SortOrder::Desc) => {
            "\n  AND (price_cents < :after_value OR (price_cents = :after_value AND id < :after_id))"
        }
        (SortField::StockQty, SortOrder::Asc) => {
            "\n  AND (stock_qty > :after_value OR (stock_qty = :after_value AND id > :after_id))"
        }
        (SortField::StockQty, SortOrder::Desc) => {
            "\n  AND (stock_qty < :after_value OR (stock_qty = :after_value AND id < :after_id))"
        }
        (SortField::CreatedAt, SortOrder::Asc) => {
            "\n  AND (created_at > :after_value OR (created_at = :after_value AND id > :after_id))"
        }
        (SortField::CreatedAt, SortOrder::Desc) => {
            "\n  AND (created_at < :after_value OR (created_at = :after_value AND id < :after_id))"
        }
        (SortField::UpdatedAt, SortOrder::Asc) => {
            "\n  AND (updated_at > :after_value OR (updated_at = :after_value AND id > :after_id))"
        }
        (SortField::UpdatedAt, SortOrder::Desc) => {
            "\n  AND (updated_at < :after_value OR (updated_at = :after_value AND id < :after_id))"
        }
    }
}

fn like_pattern(text: &str) -> String {
    let escaped = text.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_");
    format!("%{escaped}%")
}

/// SQLite asks the progress handler every this many virtual-machine steps whether to stop.
const PROGRESS_STEPS: i32 = 10_000;

/// The listing, interrupted (SQLITE_INTERRUPT, answered as busy) once `budget` has passed, so a listing
/// abandoned by its request does not go on holding a reader connection and a core.
pub(super) fn list_within(
    conn: &Connection,
    wallet: Wallet,
    query: &InventoryQuery,
    budget: Duration,
) -> rusqlite::Result<InventoryPage> {
    let deadline = Instant::now().checked_add(budget);
    if budget.is_zero() {
        // No time at all: interrupted before it starts, as SQLite would report it.
        return Err(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_INTERRUPT),
            Some("the listing has no time budget left".to_owned()),
        ));
    }
    conn.progress_handler(
        PROGRESS_STEPS,
        Some(move || deadline.is_some_and(|deadline| Instant::now() >= deadline)),
    )?;
    let listed = list(conn, wallet, query);
    // The connection goes back to the pool: later statements on it must run unbounded.
    conn.progress_handler(0, None::<fn() -> bool>)?;
    listed
}

fn list(conn: &Connection, wallet: Wallet, query: &InventoryQuery) -> rusqlite::Result<InventoryPage> {
    let wallet = wallet.to_string();
    let q = query.q.as_deref().map(like_pattern);
    let tags = if query.tags.is_empty() {
        None
    } else {
        Some(rows::to_json(&query.tags)?)
    };
    let stock = match query.stock {
        StockFilter::All => "all",
        StockFilter::In => "in",
        StockFilter::Out => "out",
    };
    let (price_min, price_max) = (
        query.price_min.map(|c| c.as_i64()),
        query.price_max.map(|c| c.as_i64()),
    );
    let tag_count = i64::try_from(query.tags.len()).unwrap_or(i64::MAX);
    let (tag_clause, tag_params): (&str, Vec<(&str, &dyn ToSql)>) = match (&tags, query.tags_mode) {
        (None, _) => ("", Vec::new()),
        (Some(tags), TagsMode::Any) => (ANY_TAG, vec![(":tags", tags as &dyn ToSql)]),
        (Some(tags), TagsMode::All) => (
            ALL_TAGS,
            vec![(":tags", tags as &dyn ToSql), (":tag_count", &tag_count)],
        ),
    };
    let filter: [(&str, &dyn ToSql); 8] = [
        (":wallet", &wallet),
        (":q", &q),
        (":category", &query.category),
        (":price_min", &price_min),
        (":price_max", &price_max),
        (":industry_pack", &query.industry_pack),
        (":taxable", &query.taxable),
        (":stock", &stock),
    ];
    let mut filter = filter.to_vec();
    filter.extend(tag_params);
    let total: i64 = conn.query_row(&format!("{COUNT}{FILTER}{tag_clause}"), &filter[..], |row| {
        row.get(0)
    })?;
    let total = u64::try_from(total).unwrap_or_default();
    // One row more than the page: whether it exists says whether there is a next page.
    let limit = i64::from(query.page_size) + 1;
    let offset = i64::from(query.page) * i64::from(query.page_size);
    let mut paged = filter;
    paged.extend([
        (":limit", &limit as &dyn ToSql),
        (":offset", &offset as &dyn ToSql),
    ]);
    let (after_clause, after_value, after_id) = match &query.after {
        Some(key) => (
            after_key(query.sort, query.order),
            Some(match &key.value {
                SortValue::Int(number) => rusqlite::types::Value::Integer(*number),
                SortValue::Text(text) => rusqlite::types::Value::Text(text.clone()),
            }),
            key.row_id,
        ),
        None => ("", None, 0),
    };
    if let Some(value) = &after_value {
        paged.extend([
            (":after_value", value as &dyn ToSql),
            (":after_id", &after_id as &dyn ToSql),
        ]);
    }
    let sql = format!(
        "SELECT {ITEM_COLUMNS}, id {FILTER}{tag_clause}{after_clause} {} {PAGE}",
        order_by(query.sort, query.order)
    );
    let mut statement = conn.prepare(&sql)?;
    let mut rows: Vec<(InventoryItem, i64)> = statement
        .query_map(&paged[..], |row| {
            Ok((item_from_row(row)?, row.get(ROW_ID_COLUMN)?))
        })?
        .collect::<Result<_, _>>()?;
    let more = rows.len() > query.page_size as usize;
    rows.truncate(query.page_size as usize);
    let next = rows
        .last()
        .filter(|_| more)
        .map(|(item, row_id)| InventoryKey::of(item, *row_id, query.sort, query.order));
    Ok(InventoryPage {
        items: rows.into_iter().map(|(item, _)| item).collect(),
        total,
        next,
    })
}

/// The position of the row id selected after [`ITEM_COLUMNS`].
const ROW_ID_COLUMN: usize = 20;
