//! Embedded schema migrations, applied in order at start; `schema_migrations` records the applied versions.

use rusqlite::{Connection, TransactionBehavior, params};

use super::schema_v2;
use super::schema_v3;
use super::schema_v4;
use super::schema_v5;
use super::schema_v6;
use super::schema_v7;

const CREATE_MIGRATIONS_TABLE: &str = "CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    applied_at INTEGER NOT NULL
)";
const IS_APPLIED: &str = "SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = ?1)";
const HAS_DANGLING_KEYS: &str = "SELECT EXISTS (SELECT 1 FROM pragma_foreign_key_check)";
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
    (5, schema_v5::SQL),
    (6, schema_v6::SQL),
    (7, schema_v7::SQL),
];

/// Applies every migration the database lacks, each in its own transaction with its version row. The check
/// runs inside the write transaction, so a server and a `keys` command starting together cannot both apply it.
///
/// Foreign keys are off while migrations run (a rebuilt table is dropped and replaced, which foreign keys
/// would refuse; the pragma cannot change inside a transaction), and each migration must leave
/// `foreign_key_check` empty before it commits.
pub(super) fn apply(conn: &mut Connection, now_ms: i64) -> rusqlite::Result<()> {
    conn.execute(CREATE_MIGRATIONS_TABLE, [])?;
    conn.execute_batch("PRAGMA foreign_keys = OFF")?;
    let applied = apply_each(conn, now_ms);
    conn.execute_batch("PRAGMA foreign_keys = ON")?;
    applied
}

fn apply_each(conn: &mut Connection, now_ms: i64) -> rusqlite::Result<()> {
    for (version, sql) in MIGRATIONS {
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let applied: bool = tx.query_row(IS_APPLIED, [version], |row| row.get(0))?;
        if !applied {
            tx.execute_batch(sql)?;
            let dangling: bool = tx.query_row(HAS_DANGLING_KEYS, [], |row| row.get(0))?;
            if dangling {
                return Err(rusqlite::Error::SqliteFailure(
                    rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CONSTRAINT_FOREIGNKEY),
                    Some(format!("migration {version} left rows pointing at missing rows")),
                ));
            }
            tx.execute(RECORD_VERSION, params![version, now_ms])?;
        }
        tx.commit()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const RECEIPT: &str = "INSERT INTO receipts (public_id, wallet, source, status, currency, subtotal_cents,
        tax_cents, fee_cents, total_cents, line_items_json, brand_name, tax_rate, tax_components_json, options_json,
        created_at, updated_at) VALUES (?1, ?2, 'api', 'pending', 'USD', 100, 0, 0, 100, '[]', '', '0', '[]', '{}', 1, 1)";

    #[test]
    fn version_4_keeps_v3_receipts_and_their_history_and_scopes_ids_per_merchant() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.execute_batch("PRAGMA foreign_keys = ON").unwrap();
        conn.execute(CREATE_MIGRATIONS_TABLE, []).unwrap();
        for (version, sql) in &MIGRATIONS[..3] {
            conn.execute_batch(sql).unwrap();
            conn.execute(RECORD_VERSION, params![version, 1]).unwrap();
        }
        conn.execute(RECEIPT, ["order-1", "0xaa"]).unwrap();
        conn.execute(
            "INSERT INTO receipt_history (receipt_id, from_status, to_status, actor, at)
             VALUES (1, 'pending', 'link_opened', 'portal', 2)",
            [],
        )
        .unwrap();

        apply(&mut conn, 3).unwrap();

        let history: (String, String) = conn
            .query_row(
                "SELECT r.public_id, h.to_status FROM receipt_history h JOIN receipts r ON r.id = h.receipt_id",
                [],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .unwrap();
        assert_eq!(history, ("order-1".to_owned(), "link_opened".to_owned()));
        conn.execute(RECEIPT, ["order-1", "0xcc"]).unwrap();
        assert!(conn.execute(RECEIPT, ["order-1", "0xaa"]).is_err());
        let foreign_keys: bool = conn
            .query_row("PRAGMA foreign_keys", [], |row| row.get(0))
            .unwrap();
        assert!(foreign_keys);
    }
}
