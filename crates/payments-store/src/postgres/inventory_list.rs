//! The inventory listing: one filter clause with optional parameters (NULL = filter off) and a fixed table
//! of ORDER BY clauses, so no caller text is ever spliced into SQL. Same filters, order and paging as
//! SQLite's listing.

use std::time::Duration;

use crate::postgres::connection::{PgClient, Queries};
use payments_core::Wallet;
use tokio_postgres::types::ToSql;

use crate::postgres::error::PgError;
use crate::postgres::inventory::{item_columns, item_from_row};
use crate::postgres::rows;
use payments_domain::inventory::{
    InventoryItem, InventoryPage, InventoryQuery, SortField, SortOrder, StockFilter, TagsMode,
};
use payments_domain::page_cursor::{InventoryKey, SortValue};

const FILTER: &str = "FROM inventory_items
WHERE wallet = $1
  AND ($2::text IS NULL OR search_text LIKE $2 ESCAPE '\\')
  AND ($3::text IS NULL OR lower(category) = $3)
  AND ($4::bigint IS NULL OR price_cents >= $4)
  AND ($5::bigint IS NULL OR price_cents <= $5)
  AND ($6::text IS NULL OR industry_pack = $6)
  AND ($7::boolean IS NULL OR taxable = $7)
  AND ($8::text = 'all' OR ($8 = 'in' AND stock_qty <> 0) OR ($8 = 'out' AND stock_qty = 0))";
/// `$9` is the lower-cased wanted tags, compared with each item's lower-cased tag keys through the GIN index
/// on `tag_keys_json::jsonb` (schema v4): the clause is chosen per mode, never `$9 IS NULL OR ...`, so a
/// cached generic plan can still use the index.
const NO_TAGS: &str = "\n  AND $9::text[] IS NULL";
const ANY_TAG: &str = "\n  AND tag_keys_json::jsonb ?| $9::text[]";
const ALL_TAGS: &str = "\n  AND tag_keys_json::jsonb ?& $9::text[]";
const COUNT: &str = "SELECT COUNT(*) AS total ";
/// The item columns, then the row id the keyset cursor continues from.
const COLUMNS: &str = concat!("SELECT ", item_columns!(), ", inventory_items.id ");
const PAGE: &str = "LIMIT $10 OFFSET $11";

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

/// Rows after a cursor's key (`$12`, `$13` = row id), in the same order as [`order_by`]. Names compare as
/// the listing sorts them: lower-cased, bytewise.
fn after_key(sort: SortField, order: SortOrder) -> &'static str {
    match (sort, order) {
        (SortField::Name, SortOrder::Asc) => {
            "\n  AND (lower(name) COLLATE \"C\" > lower($12::text) COLLATE \"C\"
       OR (lower(name) = lower($12::text) AND id > $13))"
        }
        (SortField::Name, SortOrder::Desc) => {
            "\n  AND (lower(name) COLLATE \"C\" < lower($12::text) COLLATE \"C\"
       OR (lower(name) = lower($12::text) AND id < $13))"
        }
        (SortField::PriceUsd, SortOrder::Asc) => "\n  AND (price_cents, id) > ($12::bigint, $13)",
        (SortField::PriceUsd, SortOrder::Desc) => "\n  AND (price_cents, id) < ($12::bigint, $13)",
        (SortField::StockQty, SortOrder::Asc) => "\n  AND (stock_qty, id) > ($12::bigint, $13)",
        (SortField::StockQty, SortOrder::Desc) => "\n  AND (stock_qty, id) < ($12::bigint, $13)",
        (SortField::CreatedAt, SortOrder::Asc) => "\n  AND (created_at, id) > ($12::bigint, $13)",
        (SortField::CreatedAt, SortOrder::Desc) => "\n  AND (created_at, id) < ($12::bigint, $13)",
        (SortField::UpdatedAt, SortOrder::Asc) => "\n  AND (updated_at, id) > ($12::bigint, $13)",
        (SortField::UpdatedAt, SortOrder::Desc) => "\n  AND (updated_at, id) < ($12::bigint, $13)",
    }
}

fn like_pattern(text: &str) -> String {
    let escaped = text.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_");
    format!("%{escaped}%")
}

/// Bounds every statement of the listing's transaction; the server cancels one that runs over
/// (SQLSTATE 57014, answered as busy), so an abandoned listing does not keep running.
const SET_BUDGET: &str = "SELECT set_config('statement_timeout', $1, true)";

pub(super) async fn list(
    mut client: PgClient,
    wallet: Wallet,
    query: &InventoryQuery,
    budget: Duration,
) -> Result<InventoryPage, PgError> {
    let wallet = wallet.to_string();
    let q = query.q.as_deref().map(like_pattern);
    let tags = (!query.tags.is_empty()).then_some(&query.tags);
    let tag_clause = match (tags, query.tags_mode) {
        (None, _) => NO_TAGS,
        (Some(_), TagsMode::Any) => ANY_TAG,
        (Some(_), TagsMode::All) => ALL_TAGS,
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
    // One row more than the page: whether it exists says whether there is a next page.
    let limit = i64::from(query.page_size) + 1;
    let offset = i64::from(query.page) * i64::from(query.page_size);
    let filter: [&(dyn ToSql + Sync); 9] = [
        &wallet,
        &q,
        &query.category,
        &price_min,
        &price_max,
        &query.industry_pack,
        &query.taxable,
        &stock,
        &tags,
    ];
    let tx = client.transaction().await?;
    // At least 1 ms: 0 would switch the timeout off.
    let budget_ms = budget.as_millis().clamp(1, u128::from(u32::MAX)).to_string();
    let set_budget = tx.prepare_cached(SET_BUDGET).await?;
    tx.execute(&set_budget, &[&budget_ms]).await?;
    let count = tx.prepare_cached(&format!("{COUNT}{FILTER}{tag_clause}")).await?;
    let total: i64 = rows::get(&tx.query_one(&count, &filter).await?, "total")?;
    let mut paged = filter.to_vec();
    paged.extend([&limit as &(dyn ToSql + Sync), &offset]);
    let (after_int, after_text) = match query.after.as_ref().map(|key| &key.value) {
        Some(SortValue::Int(number)) => (Some(*number), None),
        Some(SortValue::Text(text)) => (None, Some(text.as_str())),
        None => (None, None),
    };
    let after_id = query.after.as_ref().map(|key| key.row_id);
    let after_clause = match (&after_int, &after_text) {
        (Some(value), _) => {
            paged.extend([value as &(dyn ToSql + Sync), &after_id]);
            after_key(query.sort, query.order)
        }
        (None, Some(value)) => {
            paged.extend([value as &(dyn ToSql + Sync), &after_id]);
            after_key(query.sort, query.order)
        }
        (None, None) => "",
    };
    let sql = format!(
        "{COLUMNS}{FILTER}{tag_clause}{after_clause} {} {PAGE}",
        order_by(query.sort, query.order)
    );
    let page = tx.prepare_cached(&sql).await?;
    let mut found: Vec<(InventoryItem, i64)> = tx
        .query(&page, &paged)
        .await?
        .iter()
        .map(|row| Ok((item_from_row(row)?, rows::get(row, "id")?)))
        .collect::<Result<_, PgError>>()?;
    tx.commit().await?;
    let more = found.len() > query.page_size as usize;
    found.truncate(query.page_size as usize);
    let next = found
        .last()
        .filter(|_| more)
        .map(|(item, row_id)| InventoryKey::of(item, *row_id, query.sort, query.order));
    Ok(InventoryPage {
        items: found.into_iter().map(|(item, _)| item).collect(),
        total: rows::non_negative(total),
        next,
    })
}
