//! Embedded schema migrations, applied in order at start; `schema_migrations` records the applied versions.

use rusqlite::{Connection, TransactionBehavior, params};

use super::schema_v2;
use super::schema_v3;
use super::schema_v4;

const CREATE_MIGRATIONS_TABLE: &str = "CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    applied_at INTEGER NOT NULL
)";
const IS_APPLIED: &str = "SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = ?1)";
const RECORD_VERSION: &str = "INSERT INTO schema_migrations (version, applied_at) VALUES (?1, ?2)";

/// Hot tables get an INTEGER rowid key; text public ids are unique columns (PERF-NOTES: 3.7x faster).
const V1_FOUNDATION: &str = "
CREATE TABLE subscriptions (
    id INTEGER PRIMARY KEY,
    public_id TEXT NOT NULL UNIQUE,
    key_hash TEXT NOT NULL UNIQUE,
    wallet TEXT NOT NULL,
    scopes TEXT NOT NULL,
    name TEXT,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER
);
CREATE INDEX subscriptions_by_wallet ON subscriptions (wallet);

CREATE TABLE shops (
    id INTEGER PRIMARY KEY,
    wallet TEXT NOT NULL UNIQUE,
    brand_name TEXT NOT NULL DEFAULT '',
    processing_fee_pct TEXT NOT NULL DEFAULT '0',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);

CREATE TABLE inventory_items (
    id INTEGER PRIMARY KEY,
    public_id TEXT NOT NULL UNIQUE,
    wallet TEXT NOT NULL,
    sku TEXT NOT NULL,
    name TEXT NOT NULL,
    price_cents INTEGER NOT NULL CHECK (price_cents >= 0),
    currency TEXT NOT NULL,
    stock_qty INTEGER NOT NULL CHECK (stock_qty >= -1),
    category TEXT NOT NULL,
    description TEXT NOT NULL,
    tags_json TEXT NOT NULL,
    tag_keys_json TEXT NOT NULL,
    search_text TEXT NOT NULL,
    images_json TEXT NOT NULL,
    attributes_json TEXT NOT NULL,
    cost_cents INTEGER NOT NULL CHECK (cost_cents >= 0),
    taxable INTEGER NOT NULL,
    jurisdiction_code TEXT,
    industry_pack TEXT NOT NULL,
    shipping_enabled INTEGER NOT NULL,
    shipping_config_json TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (wallet, sku)
);
CREATE INDEX inventory_items_by_wallet_updated ON inventory_items (wallet, updated_at);
";

const MIGRATIONS: &[(i64, &str)] = &[
    (1, V1_FOUNDATION),
    (2, schema_v2::SQL),
    (3, schema_v3::SQL),
    (4, schema_v4::SQL),
];

/// Applies every migration the database lacks, each in its own transaction with its version row. The check
/// runs inside the write transaction, so a server and a `keys` command starting together cannot both apply it.
pub(super) fn apply(conn: &mut Connection, now_ms: i64) -> rusqlite::Result<()> {
    conn.execute(CREATE_MIGRATIONS_TABLE, [])?;
    for (version, sql) in MIGRATIONS {
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let applied: bool = tx.query_row(IS_APPLIED, [version], |row| row.get(0))?;
        if !applied {
            tx.execute_batch(sql)?;
            tx.execute(RECORD_VERSION, params![version, now_ms])?;
        }
        tx.commit()?;
    }
    Ok(())
}
