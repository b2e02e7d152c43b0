//! The inventory listing: one filter clause with optional parameters (NULL = filter off) and a fixed table
//! of ORDER BY clauses, so no caller text is ever spliced into SQL. Same filters, order and paging as
//! SQLite's listing.

use deadpool_postgres::{GenericClient, Object};
use payments_core::Wallet;
use tokio_postgres::types::ToSql;

use crate::domain::inventory::{InventoryPage, InventoryQuery, SortField, SortOrder, StockFilter, TagsMode};
use crate::store::postgres::error::PgError;
use crate::store::postgres::inventory::item_from_row;
use crate::store::postgres::rows;

/// `$9` is the lower-cased wanted tags, compared with each item's lower-cased `tag_keys_json` array
/// (`?|`: any of them, `?&`: all of them).
const FILTER: &str = "FROM inventory_items
WHERE wallet = $1
  AND ($2::text IS NULL OR search_text LIKE $2 ESCAPE '\\')
  AND ($3::text IS NULL OR lower(category) = $3)
  AND ($4::bigint IS NULL OR price_cents >= $4)
  AND ($5::bigint IS NULL OR price_cents <= $5)
  AND ($6::text IS NULL OR industry_pack = $6)
  AND ($7::boolean IS NULL OR taxable = $7)
  AND ($8::text = 'all' OR ($8 = 'in' AND stock_qty <> 0) OR ($8 = 'out' AND stock_qty = 0))
  AND ($9::text[] IS NULL
       OR ($10::text = 'any' AND tag_keys_json::jsonb ?| $9)
       OR ($10 = 'all' AND tag_keys_json::jsonb ?& $9))";
const COUNT: &str = "SELECT COUNT(*) AS total ";
const COLUMNS: &str = "SELECT public_id, wallet, sku, name, price_cents, currency, stock_qty, category,
    description, tags_json, images_json, attributes_json, cost_cents, taxable, jurisdiction_code, industry_pack,
    shipping_enabled, shipping_config_json, created_at, updated_at ";
const PAGE: &str = "LIMIT $11 OFFSET $12";

/// Ties are broken by insertion order so paging is stable. Names compare lower-cased bytewise (`C`), like
/// SQLite's `NOCASE`, whatever the database's collation.
fn order_by(sort: SortField, order: SortOrder) -> &'static str {
    match (sort, order) {
        (SortField::Name, SortOrder::Asc) => "ORDER BY lower(name) COLLATE \"C\" ASC, id ASC",
        (SortField::Name, SortOrder::Desc) => "ORDER BY lower(name) COLLATE \"C\" DESC, id DESC",
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

pub(super) async fn list(
    client: Object,
    wallet: Wallet,
    query: &InventoryQuery,
) -> Result<InventoryPage, PgError> {
    let wallet = wallet.to_string();
    let q = query.q.as_deref().map(like_pattern);
    let tags = (!query.tags.is_empty()).then_some(&query.tags);
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
    let limit = i64::from(query.page_size);
    let offset = i64::from(query.page) * limit;
    let filter: [&(dyn ToSql + Sync); 10] = [
        &wallet,
        &q,
        &query.category,
        &price_min,
        &price_max,
        &query.industry_pack,
        &query.taxable,
        &stock,
        &tags,
        &tags_mode,
    ];
    let count = client.prepare_cached(&format!("{COUNT}{FILTER}")).await?;
    let total: i64 = rows::get(&client.query_one(&count, &filter).await?, "total")?;
    let mut paged = filter.to_vec();
    paged.extend([&limit as &(dyn ToSql + Sync), &offset]);
    let sql = format!("{COLUMNS}{FILTER} {} {PAGE}", order_by(query.sort, query.order));
    let page = client.prepare_cached(&sql).await?;
    let items = client
        .query(&page, &paged)
        .await?
        .iter()
        .map(item_from_row)
        .collect::<Result<_, _>>()?;
    Ok(InventoryPage {
        items,
        total: rows::non_negative(total),
    })
}
