//! `pg-probe`: the least work the server's PostgreSQL path can do, on the same driver and pool
//! (`tokio-postgres` through a `deadpool-postgres` pool of 16, statements prepared once per connection and
//! cached, READ COMMITTED):
//! - `GET /point`: one point select of a random row of 5,000 by its integer key, answered as JSON
//!   (compare with the server's `GET /api/receipts/{id}` over 5,000 receipts);
//! - `POST /orders`: one transaction with two point reads (the shop by its wallet, the item by id) and
//!   one insert of an order row with a random text id under a unique index (compare with the server's
//!   `POST /api/receipts`).
//!
//! The tables are its own (`probe_shops`, `probe_items`, `probe_orders`), created and seeded when missing,
//! so it can share a database with nothing else.

use bytes::Bytes;
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::header::{CONTENT_TYPE, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use serde_json::{Value, json};
use tokio_postgres::NoTls;

/// The server's pool size.
const POOL_SIZE: usize = 16;
const SHOPS: i64 = 100;
/// As many rows as the server's benchmark has receipts.
const ITEMS: i64 = 5000;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS probe_shops (
    id BIGINT PRIMARY KEY, wallet TEXT NOT NULL UNIQUE, brand_name TEXT NOT NULL, fee_bps BIGINT NOT NULL,
    created_at BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS probe_items (
    id BIGINT PRIMARY KEY, public_id TEXT NOT NULL UNIQUE, shop_id BIGINT NOT NULL REFERENCES probe_shops(id),
    sku TEXT NOT NULL, name TEXT NOT NULL, price_cents BIGINT NOT NULL, stock_qty BIGINT NOT NULL,
    created_at BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS probe_orders (
    id BIGSERIAL PRIMARY KEY, public_id TEXT NOT NULL UNIQUE, shop_id BIGINT NOT NULL REFERENCES probe_shops(id),
    item_id BIGINT NOT NULL REFERENCES probe_items(id), qty BIGINT NOT NULL, unit_price_cents BIGINT NOT NULL,
    fee_cents BIGINT NOT NULL, total_cents BIGINT NOT NULL, currency TEXT NOT NULL, status TEXT NOT NULL,
    created_at BIGINT NOT NULL);
INSERT INTO probe_shops
    SELECT s, '0x' || lpad(to_hex(s), 40, '0'), 'Bench shop ' || s, 50, 0 FROM generate_series(1, 100) s
    ON CONFLICT DO NOTHING;
INSERT INTO probe_items
    SELECT i, 'item-' || i, i % 100 + 1, 'SKU-' || i, 'Item ' || i, 100 + i % 900, -1, 0
    FROM generate_series(1, 5000) i ON CONFLICT DO NOTHING;";

const SELECT_POINT: &str = "SELECT id, public_id, shop_id, sku, name, price_cents, stock_qty, created_at FROM probe_items WHERE id = $1";
const SELECT_SHOP: &str = "SELECT id, fee_bps FROM probe_shops WHERE wallet = $1";
const SELECT_ITEM: &str = "SELECT shop_id, price_cents FROM probe_items WHERE id = $1";
const INSERT_ORDER: &str = "INSERT INTO probe_orders (public_id, shop_id, item_id, qty, unit_price_cents,
    fee_cents, total_cents, currency, status, created_at) VALUES ($1, $2, $3, 1, $4, $5, $6, 'USD', 'generated', $7)";

/// Connects (a pool of 16 to `url`, no TLS: loopback) and creates and seeds the tables when missing.
pub(crate) async fn open(url: &str) -> anyhow::Result<Pool> {
    let config: tokio_postgres::Config = url.parse()?;
    let manager = Manager::from_config(
        config,
        NoTls,
        ManagerConfig {
            recycling_method: RecyclingMethod::Fast,
        },
    );
    let pool = Pool::builder(manager)
        .max_size(POOL_SIZE)
        .runtime(Runtime::Tokio1)
        .build()?;
    pool.get().await?.batch_execute(SCHEMA).await?;
    Ok(pool)
}

/// `GET /point` and `POST /orders`; 404 for other paths, 500 when PostgreSQL fails.
pub(crate) async fn handle(pool: &Pool, request: Request<Incoming>) -> Response<Full<Bytes>> {
    let answer = match (request.method(), request.uri().path()) {
        (&Method::GET, "/point") => point(pool).await.map(|row| (StatusCode::OK, row)),
        (&Method::POST, "/orders") => order(pool).await.map(|placed| (StatusCode::CREATED, placed)),
        _ => Ok((StatusCode::NOT_FOUND, json!({"error": "not_found"}))),
    };
    match answer {
        Ok((status, body)) => reply(status, &body),
        Err(error) => {
            eprintln!("bench-baseline: pg-probe failed: {error:#}");
            reply(StatusCode::INTERNAL_SERVER_ERROR, &json!({"error": "internal"}))
        }
    }
}

async fn point(pool: &Pool) -> anyhow::Result<Value> {
    let client = pool.get().await?;
    let statement = client.prepare_cached(SELECT_POINT).await?;
    let id = rand::random_range(1..=ITEMS);
    let row = client.query_one(&statement, &[&id]).await?;
    Ok(json!({
        "id": row.get::<_, i64>(0), "publicId": row.get::<_, String>(1), "shopId": row.get::<_, i64>(2),
        "sku": row.get::<_, String>(3), "name": row.get::<_, String>(4),
        "priceCents": row.get::<_, i64>(5), "stockQty": row.get::<_, i64>(6), "createdAt": row.get::<_, i64>(7),
    }))
}

/// The order transaction: the shop by wallet (as a key resolves to a wallet), the item by id, the insert.
async fn order(pool: &Pool) -> anyhow::Result<Value> {
    let mut client = pool.get().await?;
    let item_id = rand::random_range(1..=ITEMS);
    let wallet = format!("0x{:040x}", item_id % SHOPS + 1);
    let tx = client.transaction().await?;
    let shop = tx
        .query_one(&tx.prepare_cached(SELECT_SHOP).await?, &[&wallet])
        .await?;
    let item = tx
        .query_one(&tx.prepare_cached(SELECT_ITEM).await?, &[&item_id])
        .await?;
    let (shop_id, fee_bps): (i64, i64) = (shop.get(0), shop.get(1));
    let price: i64 = item.get(1);
    let fee = price * fee_bps / 10_000;
    let id = format!("ord_{:032x}", rand::random::<u128>());
    let insert = tx.prepare_cached(INSERT_ORDER).await?;
    tx.execute(
        &insert,
        &[&id, &shop_id, &item_id, &price, &fee, &(price + fee), &0_i64],
    )
    .await?;
    tx.commit().await?;
    Ok(json!({"ok": true, "orderId": id, "totalCents": price + fee}))
}

fn reply(status: StatusCode, body: &Value) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(body.to_string())));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}
