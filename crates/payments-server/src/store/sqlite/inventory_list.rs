//! The inventory listing: one filter clause with optional parameters (NULL = filter off) and a fixed table of
//! ORDER BY clauses, so no caller text is ever spliced into SQL.

use payments_core::Wallet;
use rusqlite::{Connection, ToSql};

use crate::domain::inventory::{InventoryPage, InventoryQuery, SortField, SortOrder, StockFilter, TagsMode};
use crate::store::sqlite::inventory::{ITEM_COLUMNS, item_from_row};
use crate::store::sqlite::rows;

/// `:tags` is a JSON array of lower-cased tags compared with each item's lower-cased `tag_keys_json`.
const FILTER: &str = "FROM inventory_items
WHERE wallet = :wallet
  AND (:q IS NULL OR search_text LIKE :q ESCAPE '\\')
  AND (:category IS NULL OR lower(category) = :category)
  AND (:price_min IS NULL OR price_cents >= :price_min)
  AND (:price_max IS NULL OR price_cents <= :price_max)
  AND (:industry_pack IS NULL OR industry_pack = :industry_pack)
  AND (:taxable IS NULL OR taxable = :taxable)
  AND (:stock = 'all' OR (:stock = 'in' AND stock_qty <> 0) OR (:stock = 'out' AND stock_qty = 0))
  AND (:tags IS NULL
       OR (:tags_mode = 'any' AND EXISTS (
             SELECT 1 FROM json_each(:tags) AS wanted
             JOIN json_each(inventory_items.tag_keys_json) AS have ON have.value = wanted.value))
       OR (:tags_mode = 'all' AND NOT EXISTS (
             SELECT 1 FROM json_each(:tags) AS wanted
             WHERE NOT EXISTS (SELECT 1 FROM json_each(inventory_items.tag_keys_json) AS have
                               WHERE have.value = wanted.value))))";
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

fn like_pattern(text: &str) -> String {
    let escaped = text.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_");
    format!("%{escaped}%")
}

pub(super) fn list(
    conn: &Connection,
    wallet: Wallet,
    query: &InventoryQuery,
) -> rusqlite::Result<InventoryPage> {
    let wallet = wallet.to_string();
    let q = query.q.as_deref().map(like_pattern);
    let tags = if query.tags.is_empty() {
        None
    } else {
        Some(rows::to_json(&query.tags)?)
    };
    let tags_mode = match query.tags_mode {
        TagsMode::All => "all",
        TagsMode::Any => "any",
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
    let filter: [(&str, &dyn ToSql); 10] = [
        (":wallet", &wallet),
        (":q", &q),
        (":category", &query.category),
        (":price_min", &price_min),
        (":price_max", &price_max),
        (":industry_pack", &query.industry_pack),
        (":taxable", &query.taxable),
        (":stock", &stock),
        (":tags", &tags),
        (":tags_mode", &tags_mode),
    ];
    let total: i64 = conn.query_row(&format!("{COUNT}{FILTER}"), &filter[..], |row| row.get(0))?;
    let total = u64::try_from(total).unwrap_or_default();
    let limit = i64::from(query.page_size);
    let offset = i64::from(query.page) * limit;
    let mut paged: Vec<(&str, &dyn ToSql)> = filter.to_vec();
    paged.extend([
        (":limit", &limit as &dyn ToSql),
        (":offset", &offset as &dyn ToSql),
    ]);
    let sql = format!(
        "SELECT {ITEM_COLUMNS} {FILTER} {} {PAGE}",
        order_by(query.sort, query.order)
    );
    let mut statement = conn.prepare(&sql)?;
    let items = statement
        .query_map(&paged[..], item_from_row)?
        .collect::<Result<_, _>>()?;
    Ok(InventoryPage { items, total })
}
