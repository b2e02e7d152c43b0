//! Embedded schema migrations, applied in order at start; `schema_migrations` records the applied versions.

use rusqlite::{Connection, TransactionBehavior, params};

use crate::schema;

use super::schema_v1;
use super::schema_v2;
use super::schema_v3;
use super::schema_v4;
use super::schema_v5;
use super::schema_v7;
use super::schema_v8;
use super::schema_v9;
use super::schema_v10;
use super::schema_v11;
use super::schema_v12;
use super::schema_v13;
use super::schema_v14;
use super::schema_v15;
use super::schema_v16;
use super::schema_v17;
use super::schema_v18;
use super::schema_v21;
use super::schema_v22;

const CREATE_MIGRATIONS_TABLE: &str = "CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    applied_at INTEGER NOT NULL
)";
const IS_APPLIED: &str = "SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = ?1)";
const HAS_DANGLING_KEYS: &str = "SELECT EXISTS (SELECT 1 FROM pragma_foreign_key_check)";
const RECORD_VERSION: &str = "INSERT INTO schema_migrations (version, applied_at) VALUES (?1, ?2)";

pub(crate) const MIGRATIONS: &[(i64, &str)] = &[
    (1, schema_v1::SQL),
    (2, schema_v2::SQL),
    (3, schema_v3::SQL),
    (4, schema_v4::SQL),
    (5, schema_v5::SQL),
    (6, schema::v6::SQL),
    (7, schema_v7::SQL),
    (8, schema_v8::SQL),
    (9, schema_v9::SQL),
    (10, schema_v10::SQL),
    (11, schema_v11::SQL),
    (12, schema_v12::SQL),
    (13, schema_v13::SQL),
    (14, schema_v14::SQL),
    (15, schema_v15::SQL),
    (16, schema_v16::SQL),
    (17, schema_v17::SQL),
    (18, schema_v18::SQL),
    (19, schema::v19::SQL),
    (20, schema::v20::SQL),
    (21, schema_v21::SQL),
    (22, schema_v22::SQL),
    (23, schema::v23::SQL),
    (24, schema::v24::SQL),
];

/// Applies every migration the database lacks, each in its own transaction with its version row. The check
/// runs inside the write transaction, so a server and a `keys` command starting together cannot both apply it.
///
/// Foreign keys are off while migrations run (a rebuilt table is dropped and replaced, which foreign keys
/// would refuse; the pragma cannot change inside a transaction), and each migration must leave
/// `foreign_key_check` empty before it commits.
pub(super) fn apply(conn: &mut Connection, now_ms: i64) -> rusqlite::Result<()> {
    conn.execute(CREATE_MIGRATIONS_TABLE, [])?;
    schema_v8::register_functions(conn)?;
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
    use crate::testing::images::{DATA_URL_IMAGES, MovedImage, images_moved_from_data_urls};

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

    #[test]
    fn version_8_moves_data_url_images_into_their_table_as_bytes_with_type_size_and_hash() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.execute(CREATE_MIGRATIONS_TABLE, []).unwrap();
        for (version, sql) in &MIGRATIONS[..7] {
            conn.execute_batch(sql).unwrap();
            conn.execute(RECORD_VERSION, params![version, 1]).unwrap();
        }
        conn.execute(
            "INSERT INTO inventory_items (public_id, wallet, sku, name, price_cents, currency, stock_qty, category,
                description, tags_json, tag_keys_json, search_text, images_json, attributes_json, cost_cents,
                taxable, industry_pack, shipping_enabled, shipping_config_json, created_at, updated_at)
             VALUES ('prod_1', '0xaa', 'CUP', 'Cup', 100, 'USD', 1, '', '', '[]', '[]', '', ?1, '{}', 0, 0,
                'general', 0, '{}', 1, 1)",
            [DATA_URL_IMAGES],
        )
        .unwrap();

        apply(&mut conn, 2).unwrap();

        let mut statement = conn
            .prepare("SELECT position, content_type, byte_size, sha256, data FROM inventory_images ORDER BY position")
            .unwrap();
        let rows: Vec<(i64, MovedImage)> = statement
            .query_map([], |row| {
                Ok((row.get(0)?, (row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?)))
            })
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let (positions, images): (Vec<i64>, Vec<_>) = rows.into_iter().unzip();
        assert_eq!(positions, [0, 1]);
        assert_eq!(images, images_moved_from_data_urls());
        let images_json_left: bool = conn
            .query_row(
                "SELECT EXISTS (SELECT 1 FROM pragma_table_info('inventory_items') WHERE name = 'images_json')",
                [],
                |row| row.get(0),
            )
            .unwrap();
        assert!(!images_json_left);
    }

    #[test]
    fn version_8_refuses_a_stored_image_that_does_not_decode() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.execute(CREATE_MIGRATIONS_TABLE, []).unwrap();
        for (version, sql) in &MIGRATIONS[..7] {
            conn.execute_batch(sql).unwrap();
            conn.execute(RECORD_VERSION, params![version, 1]).unwrap();
        }
        conn.execute(
            "INSERT INTO inventory_items (public_id, wallet, sku, name, price_cents, currency, stock_qty, category,
                description, tags_json, tag_keys_json, search_text, images_json, attributes_json, cost_cents,
                taxable, industry_pack, shipping_enabled, shipping_config_json, created_at, updated_at)
             VALUES ('prod_1', '0xaa', 'CUP', 'Cup', 100, 'USD', 1, '', '', '[]', '[]', '',
                '[\"data:image/png;base64,@@@\"]', '{}', 0, 0, 'general', 0, '{}', 1, 1)",
            [],
        )
        .unwrap();

        assert!(apply(&mut conn, 2).is_err());

        let kept: String = conn
            .query_row("SELECT images_json FROM inventory_items", [], |row| row.get(0))
            .unwrap();
        assert_eq!(kept, "[\"data:image/png;base64,@@@\"]");
    }

    #[test]
    fn version_11_keeps_receipt_deliveries_and_their_attempts_and_gives_deliveries_exactly_one_owner() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.execute(CREATE_MIGRATIONS_TABLE, []).unwrap();
        schema_v8::register_functions(&conn).unwrap();
        for (version, sql) in &MIGRATIONS[..10] {
            conn.execute_batch(sql).unwrap();
            conn.execute(RECORD_VERSION, params![version, 1]).unwrap();
        }
        conn.execute(RECEIPT, ["order-1", "0xaa"]).unwrap();
        conn.execute_batch(
            "INSERT INTO webhook_deliveries (id, public_id, receipt_id, url, event, body, state, attempts,
                round_attempts, next_attempt_at, created_at, updated_at, origin, leased_until, redeliver_queued)
             VALUES (7, 'd-7', 1, 'https://h.example/x', 'receipt.status_updated', x'7b7d', 'pending', 2, 1,
                500, 10, 20, 'https://h.example', 400, 1);
             INSERT INTO webhook_attempts (delivery_id, attempt, status_code, error, started_at, finished_at,
                duration_ms) VALUES (7, 1, 500, 'receiver answered 500', 11, 12, 1);
             INSERT INTO subscription_plans (public_id, merchant, name, price_cents, period, created_at, updated_at)
             VALUES ('plan_1', '0xaa', 'Pro', 999, 'WEEKLY', 1, 1);
             INSERT INTO customer_subscriptions (public_id, plan_id, merchant, customer, price_cents, period,
                permission_json, signature, permission_hash, status, anchor_ms, next_charge_at, created_at,
                updated_at)
             VALUES ('csub_1', 1, '0xaa', '0xcc', 999, 'WEEKLY', '{}', x'00', '0x01', 'active', 1, 1, 1, 1);",
        )
        .unwrap();

        apply(&mut conn, 2).unwrap();

        let kept: String = conn
            .query_row(
                "SELECT json_array(public_id, receipt_id, subscription_id, state, hex(body), attempts,
                    round_attempts, next_attempt_at, origin, leased_until, redeliver_queued)
                 FROM webhook_deliveries WHERE id = 7",
                [],
                |row| row.get(0),
            )
            .unwrap();
        assert_eq!(
            kept,
            r#"["d-7",1,null,"pending","7B7D",2,1,500,"https://h.example",400,1]"#
        );
        let attempt_owner: String = conn
            .query_row(
                "SELECT d.public_id FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id",
                [],
                |row| row.get(0),
            )
            .unwrap();
        assert_eq!(attempt_owner, "d-7");
        let mut indexes: Vec<String> = conn
            .prepare(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'webhook_deliveries'
                AND sql IS NOT NULL ORDER BY name",
            )
            .unwrap()
            .query_map([], |row| row.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        indexes.sort();
        // Migration 15 rebuilds the table again, keeping these and adding the endpoint index.
        assert_eq!(
            indexes,
            [
                "webhook_deliveries_by_endpoint",
                "webhook_deliveries_by_receipt",
                "webhook_deliveries_by_subscription",
                "webhook_deliveries_due"
            ]
        );
        let insert = |receipt: Option<i64>, subscription: Option<i64>, id: &str| {
            conn.execute(
                "INSERT INTO webhook_deliveries (public_id, receipt_id, subscription_id, url, event, body, state,
                    created_at, updated_at) VALUES (?1, ?2, ?3, 'https://h.example/x', 'e', x'', 'pending', 1, 1)",
                params![id, receipt, subscription],
            )
        };
        assert!(insert(Some(1), None, "by-receipt").is_ok());
        assert!(insert(None, Some(1), "by-subscription").is_ok());
        assert!(insert(None, None, "orphan").is_err());
        assert!(insert(Some(1), Some(1), "both").is_err());
    }

    #[test]
    fn version_13_gives_earlier_billing_events_their_amounts_in_base_units() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.execute(CREATE_MIGRATIONS_TABLE, []).unwrap();
        schema_v8::register_functions(&conn).unwrap();
        for (version, sql) in &MIGRATIONS[..11] {
            conn.execute_batch(sql).unwrap();
            conn.execute(RECORD_VERSION, params![version, 1]).unwrap();
        }
        conn.execute_batch(
            "INSERT INTO subscription_plans (public_id, merchant, name, price_cents, period, created_at, updated_at)
             VALUES ('plan_1', '0xaa', 'Pro', 999, 'WEEKLY', 1, 1);
             INSERT INTO customer_subscriptions (public_id, plan_id, merchant, customer, price_cents, period,
                permission_json, signature, permission_hash, status, anchor_ms, next_charge_at, created_at,
                updated_at)
             VALUES ('csub_1', 1, '0xaa', '0xcc', 999, 'WEEKLY', '{}', x'00', '0x01', 'active', 1, 1, 1, 1);
             INSERT INTO billing_events (subscription_id, period_index, status, gross_cents, fee_cents, net_cents,
                tx_hash, failure, created_at) VALUES (1, 0, 'charged', 999, 5, 994, '0x01', NULL, 1);",
        )
        .unwrap();

        apply(&mut conn, 2).unwrap();

        let units: (i64, i64) = conn
            .query_row("SELECT fee_units, net_units FROM billing_events", [], |row| {
                Ok((row.get(0)?, row.get(1)?))
            })
            .unwrap();
        assert_eq!(units, (50_000, 9_940_000));
    }

    #[test]
    fn version_17_gives_earlier_plans_no_trial_and_indexes_trialing_as_due() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.execute(CREATE_MIGRATIONS_TABLE, []).unwrap();
        schema_v8::register_functions(&conn).unwrap();
        let before_17 = MIGRATIONS.iter().take_while(|(version, _)| *version < 17);
        for (version, sql) in before_17 {
            conn.execute_batch(sql).unwrap();
            conn.execute(RECORD_VERSION, params![version, 1]).unwrap();
        }
        conn.execute_batch(
            "INSERT INTO subscription_plans (public_id, merchant, name, price_cents, period, created_at, updated_at)
             VALUES ('plan_1', '0xaa', 'Pro', 999, 'WEEKLY', 1, 1);
             INSERT INTO customer_subscriptions (public_id, plan_id, merchant, customer, price_cents, period,
                permission_json, signature, permission_hash, status, anchor_ms, next_charge_at, created_at,
                updated_at)
             VALUES ('csub_1', 1, '0xaa', '0xcc', 999, 'WEEKLY', '{}', x'00', '0x01', 'active', 1, 1, 1, 1);",
        )
        .unwrap();

        apply(&mut conn, 2).unwrap();

        let (trial_days, cancel_reason): (i64, Option<String>) = conn
            .query_row(
                "SELECT p.trial_days, s.cancel_reason FROM customer_subscriptions s
                 JOIN subscription_plans p ON p.id = s.plan_id",
                [],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .unwrap();
        assert_eq!((trial_days, cancel_reason), (0, None));
        let due_index: String = conn
            .query_row(
                "SELECT sql FROM sqlite_master WHERE name = 'customer_subscriptions_due'",
                [],
                |row| row.get(0),
            )
            .unwrap();
        assert!(due_index.contains("'trialing'"), "{due_index}");
        let too_long = conn.execute("UPDATE subscription_plans SET trial_days = 366", []);
        assert!(too_long.is_err(), "trial_days is checked to 0..=365");
    }
}
