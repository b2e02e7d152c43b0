//! Shop configuration rows, one per merchant wallet.

use payments_core::{FeePct, Wallet};
use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::rows::ShopRow;
use crate::sqlite::rows;
use payments_domain::shop::ShopConfig;

const FETCH: &str = "SELECT wallet, brand_name, processing_fee_pct, brand_key, support_email, logo_url,
        redirect_url, jurisdictions_json, default_jurisdiction
    FROM shops WHERE wallet = ?1";
const SAVE: &str = "INSERT INTO shops (wallet, brand_name, processing_fee_pct, brand_key, support_email,
        logo_url, redirect_url, jurisdictions_json, default_jurisdiction, created_at, updated_at)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10)
    ON CONFLICT (wallet) DO UPDATE SET brand_name = excluded.brand_name,
        processing_fee_pct = excluded.processing_fee_pct, brand_key = excluded.brand_key,
        support_email = excluded.support_email, logo_url = excluded.logo_url,
        redirect_url = excluded.redirect_url, jurisdictions_json = excluded.jurisdictions_json,
        default_jurisdiction = excluded.default_jurisdiction, updated_at = excluded.updated_at";
/// Changes the fee only, so a pricing update cannot overwrite a concurrent shop-config save.
const SAVE_FEE: &str = "INSERT INTO shops (wallet, processing_fee_pct, created_at, updated_at)
    VALUES (?1, ?2, ?3, ?3)
    ON CONFLICT (wallet) DO UPDATE SET processing_fee_pct = excluded.processing_fee_pct,
        updated_at = excluded.updated_at";

/// The fee percentage is stored as decimal text so it reads back exactly.
fn shop_from_row(row: &Row<'_>) -> rusqlite::Result<ShopConfig> {
    ShopRow {
        wallet: row.get(0)?,
        brand_name: row.get(1)?,
        processing_fee_pct: row.get(2)?,
        brand_key: row.get(3)?,
        support_email: row.get(4)?,
        logo_url: row.get(5)?,
        redirect_url: row.get(6)?,
        jurisdictions_json: row.get(7)?,
        default_jurisdiction: row.get(8)?,
    }
    .into_record()
    .map_err(|error| rows::corrupt(0, error))
}

pub(super) fn fetch(conn: &Connection, wallet: Wallet) -> rusqlite::Result<Option<ShopConfig>> {
    conn.prepare_cached(FETCH)?
        .query_row([wallet.to_string()], shop_from_row)
        .optional()
}

pub(super) fn save(tx: &Connection, config: &ShopConfig, now_ms: i64) -> rusqlite::Result<()> {
    let params = params![
        config.wallet.to_string(),
        config.brand_name,
        config.processing_fee_pct.to_string(),
        config.brand_key,
        config.support_email,
        config.logo_url,
        config.redirect_url,
        rows::to_json(&config.jurisdictions)?,
        config.default_jurisdiction,
        now_ms
    ];
    tx.prepare_cached(SAVE)?.execute(params).map(|_| ())
}

pub(super) fn save_fee(tx: &Connection, wallet: Wallet, fee: FeePct, now_ms: i64) -> rusqlite::Result<()> {
    tx.prepare_cached(SAVE_FEE)?
        .execute(params![wallet.to_string(), fee.to_string(), now_ms])
        .map(|_| ())
}
