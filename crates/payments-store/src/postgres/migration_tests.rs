//! Migrations that move data, on PostgreSQL: each starts from the schema before it with rows in place and
//! checks what the migration made of them.

use crate::postgres::migrations::MIGRATIONS;
use crate::postgres::tests::connect;
use crate::postgres::{PgStore, PgTestDatabase};
use crate::testing::fixtures::T0;
use crate::testing::images::{DATA_URL_IMAGES, MovedImage, images_moved_from_data_urls};

/// Applies the migrations up to `latest` and records them, as the migrator would have.
async fn at_version(client: &tokio_postgres::Client, latest: i64) {
    client
        .batch_execute(
            "CREATE TABLE schema_migrations (version BIGINT PRIMARY KEY, applied_at BIGINT NOT NULL)",
        )
        .await
        .unwrap();
    for (version, sql) in MIGRATIONS.iter().take_while(|(version, _)| *version <= latest) {
        client.batch_execute(sql).await.unwrap();
        client
            .execute("INSERT INTO schema_migrations VALUES ($1, 1)", &[&version])
            .await
            .unwrap();
    }
}

#[tokio::test]
async fn version_8_moves_data_url_images_into_their_table_as_bytes_with_type_size_and_hash() {
    let Some(database) = PgTestDatabase::create().await else {
        return;
    };
    let client = connect(&database).await;
    at_version(&client, 7).await;
    client
        .execute(
            "INSERT INTO inventory_items (public_id, wallet, sku, name, price_cents, currency, stock_qty,
                category, description, tags_json, tag_keys_json, search_text, images_json, attributes_json,
                cost_cents, taxable, industry_pack, shipping_enabled, shipping_config_json, created_at, updated_at)
             VALUES ('prod_1', '0xaa', 'CUP', 'Cup', 100, 'USD', 1, '', '', '[]', '[]', '',
                $1, '{}', 0, false, 'general', false, '{}', 1, 1)",
            &[&DATA_URL_IMAGES],
        )
        .await
        .unwrap();

    let store = PgStore::open(database.url(), T0).await.unwrap();

    let rows = client
        .query(
            "SELECT position, content_type, byte_size, sha256, data FROM inventory_images ORDER BY position",
            &[],
        )
        .await
        .unwrap();
    let positions: Vec<i32> = rows.iter().map(|row| row.get(0)).collect();
    let images: Vec<MovedImage> = rows
        .iter()
        .map(|row| (row.get(1), row.get(2), row.get(3), row.get(4)))
        .collect();
    assert_eq!(positions, [0, 1]);
    assert_eq!(images, images_moved_from_data_urls());
    let images_json_left: bool = client
        .query_one(
            "SELECT EXISTS (SELECT 1 FROM information_schema.columns
             WHERE table_name = 'inventory_items' AND column_name = 'images_json')",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    assert!(!images_json_left);
    drop(store);
    database.drop_database().await;
}

#[tokio::test]
async fn version_11_keeps_receipt_deliveries_and_gives_deliveries_exactly_one_owner() {
    let Some(database) = PgTestDatabase::create().await else {
        return;
    };
    let client = connect(&database).await;
    at_version(&client, 10).await;
    client
        .batch_execute(
            "INSERT INTO receipts (id, public_id, wallet, source, status, currency, subtotal_cents, tax_cents,
                fee_cents, total_cents, line_items_json, brand_name, tax_rate, tax_components_json, options_json,
                created_at, updated_at)
             VALUES (1, 'order-1', '0xaa', 'api', 'pending', 'USD', 100, 0, 0, 100, '[]', '', '0', '[]', '{}', 1, 1);
             INSERT INTO webhook_deliveries (id, public_id, receipt_id, url, event, body, state, attempts,
                round_attempts, next_attempt_at, created_at, updated_at, origin, leased_until, redeliver_queued)
             VALUES (7, 'd-7', 1, 'https://h.example/x', 'receipt.status_updated', '\\x7b7d', 'pending', 2, 1,
                500, 10, 20, 'https://h.example', 400, 1);
             INSERT INTO webhook_attempts (delivery_id, attempt, status_code, error, started_at, finished_at,
                duration_ms) VALUES (7, 1, 500, 'receiver answered 500', 11, 12, 1);
             INSERT INTO subscription_plans (id, public_id, merchant, name, price_cents, period, created_at,
                updated_at) VALUES (1, 'plan_1', '0xaa', 'Pro', 999, 'WEEKLY', 1, 1);
             INSERT INTO customer_subscriptions (id, public_id, plan_id, merchant, customer, price_cents, period,
                permission_json, signature, permission_hash, status, anchor_ms, next_charge_at, created_at,
                updated_at)
             VALUES (1, 'csub_1', 1, '0xaa', '0xcc', 999, 'WEEKLY', '{}', '\\x00', '0x01', 'active', 1, 1, 1, 1);",
        )
        .await
        .unwrap();

    let store = PgStore::open(database.url(), T0).await.unwrap();

    let kept: String = client
        .query_one(
            "SELECT json_build_array(d.public_id, d.receipt_id, d.subscription_id, d.state, encode(d.body, 'hex'),
                d.attempts, d.origin, d.leased_until, d.redeliver_queued, a.error)::text
             FROM webhook_deliveries d JOIN webhook_attempts a ON a.delivery_id = d.id WHERE d.id = 7",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&kept).unwrap(),
        serde_json::json!([
            "d-7",
            1,
            null,
            "pending",
            "7b7d",
            2,
            "https://h.example",
            400,
            1,
            "receiver answered 500"
        ])
    );
    let insert =
        "INSERT INTO webhook_deliveries (public_id, receipt_id, subscription_id, url, event, body, state,
        created_at, updated_at) VALUES ($1, $2, $3, 'https://h.example/x', 'e', '', 'pending', 1, 1)";
    let by_owner = |id: &'static str, receipt: Option<i64>, subscription: Option<i64>| {
        let client = &client;
        async move { client.execute(insert, &[&id, &receipt, &subscription]).await }
    };
    assert!(by_owner("by-receipt", Some(1), None).await.is_ok());
    assert!(by_owner("by-subscription", None, Some(1)).await.is_ok());
    assert!(by_owner("orphan", None, None).await.is_err());
    assert!(by_owner("both", Some(1), Some(1)).await.is_err());
    drop(store);
    database.drop_database().await;
}
