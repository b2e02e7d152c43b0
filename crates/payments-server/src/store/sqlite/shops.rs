//! Shop configuration rows, one per merchant wallet.

use payments_core::{FeePct, Wallet};
use rusqlite::{Connection, OptionalExtension, Row, Transaction, params};

use crate::domain::shop::ShopConfig;
use crate::store::sqlite::rows;

const FETCH: &str = "SELECT wallet, brand_name, processing_fee_pct FROM shops WHERE wallet = ?1";
const SAVE: &str = "INSERT INTO shops (wallet, brand_name, processing_fee_pct, created_at, updated_at)
    VALUES (?1, ?2, ?3, ?4, ?4)
    ON CONFLICT (wallet) DO UPDATE SET brand_name = excluded.brand_name,
        processing_fee_pct = excluded.processing_fee_pct, updated_at = excluded.updated_at";

/// The fee percentage is stored as decimal text so it reads back exactly.
fn shop_from_row(row: &Row<'_>) -> rusqlite::Result<ShopConfig> {
    Ok(ShopConfig {
        wallet: rows::parsed(row, 0, Wallet::parse)?,
        brand_name: row.get(1)?,
        processing_fee_pct: rows::parsed(row, 2, FeePct::parse_merchant_add_on)?,
    })
}

pub(super) fn fetch(conn: &Connection, wallet: Wallet) -> rusqlite::Result<Option<ShopConfig>> {
    conn.query_row(FETCH, [wallet.to_string()], shop_from_row)
        .optional()
}

pub(super) fn save(tx: &Transaction<'_>, config: &ShopConfig, now_ms: i64) -> rusqlite::Result<()> {
    let params = params![
        config.wallet.to_string(),
        config.brand_name,
        config.processing_fee_pct.to_string(),
        now_ms
    ];
    tx.execute(SAVE, params).map(|_| ())
}
