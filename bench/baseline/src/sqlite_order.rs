//! `sqlite-order`: the least work an order endpoint on this stack can do. For each POST: read the JSON
//! body, then one SQLite transaction with two point reads (the shop by its wallet, a unique text
//! column; the item by its INTEGER primary key) and one insert of an order row (11 columns, a random
//! text id under a unique index), then a small JSON answer (201).
//!
//! SQLite is set up as payments-server sets it up (`store/sqlite/mod.rs`): WAL, `synchronous = NORMAL`,
//! `busy_timeout = 5000`, one writer connection that every write waits for (here a mutex), IMMEDIATE
//! transactions, and the transaction run on tokio's blocking pool through `spawn_blocking`, since
//! rusqlite calls block. The server's `POST /api/orders` does more (authentication, rate limiting,
//! idempotency, pricing, a receipt with line items): the ratio of the two is the cost of that work.

use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::Context as _;
use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper::body::Incoming;
use hyper::header::{CONTENT_TYPE, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use rusqlite::{Connection, OptionalExtension as _, TransactionBehavior, params};
use serde_json::{Value, json};

/// The pragmas of payments-server's connections (`CONNECTION_PRAGMAS`).
const PRAGMAS: &str = "PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
PRAGMA busy_timeout = 5000;
PRAGMA foreign_keys = ON;";

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS shops (
    id INTEGER PRIMARY KEY,
    wallet TEXT NOT NULL UNIQUE,
    brand_name TEXT NOT NULL,
    fee_bps INTEGER NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS items (
    id INTEGER PRIMARY KEY,
    public_id TEXT NOT NULL UNIQUE,
    shop_id INTEGER NOT NULL REFERENCES shops(id),
    sku TEXT NOT NULL,
    name TEXT NOT NULL,
    price_cents INTEGER NOT NULL,
    stock_qty INTEGER NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS orders (
    id INTEGER PRIMARY KEY,
    public_id TEXT NOT NULL UNIQUE,
    shop_id INTEGER NOT NULL REFERENCES shops(id),
    item_id INTEGER NOT NULL REFERENCES items(id),
    qty INTEGER NOT NULL,
    unit_price_cents INTEGER NOT NULL,
    fee_cents INTEGER NOT NULL,
    total_cents INTEGER NOT NULL,
    currency TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at INTEGER NOT NULL
);";

/// Seeded shops; item `i` belongs to shop `i % SHOPS + 1`.
const SHOPS: i64 = 100;
/// Seeded items (unlimited stock, `-1`, as the server's benchmark item).
const ITEMS: i64 = 1000;

const SELECT_SHOP: &str = "SELECT id, fee_bps FROM shops WHERE wallet = ?1";
const SELECT_ITEM: &str = "SELECT shop_id, price_cents, stock_qty FROM items WHERE id = ?1";
const INSERT_ORDER: &str =
    "INSERT INTO orders (public_id, shop_id, item_id, qty, unit_price_cents, fee_cents,
    total_cents, currency, status, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'USD', 'generated', ?8)";

/// The database: one writer connection, as in payments-server, which serializes writes (more writers
/// only collide in SQLite's busy handler).
#[derive(Debug)]
pub(crate) struct OrderDb {
    writer: Arc<Mutex<Connection>>,
}

/// What one order asks for, read from the POST body `{"itemId": N, "qty": N}` (both optional).
#[derive(Debug, Clone, Copy)]
struct OrderRequest {
    item_id: i64,
    qty: i64,
}

/// A placed order, for the answer.
#[derive(Debug)]
struct Placed {
    total_cents: i64,
}

impl OrderDb {
    /// Opens `path` with the server's pragmas, creates the tables and seeds shops and items when empty.
    pub(crate) fn open(path: &Path) -> anyhow::Result<Self> {
        let mut conn = Connection::open(path)?;
        conn.execute_batch(PRAGMAS).context("setting the pragmas")?;
        conn.execute_batch(SCHEMA).context("creating the tables")?;
        let shops: i64 = conn.query_row("SELECT count(*) FROM shops", [], |row| row.get(0))?;
        if shops == 0 {
            seed(&mut conn).context("seeding shops and items")?;
        }
        Ok(OrderDb {
            writer: Arc::new(Mutex::new(conn)),
        })
    }

    /// Runs the order transaction on the blocking pool; `None` when the item's shop is unknown.
    async fn place(&self, id: String, order: OrderRequest) -> anyhow::Result<Option<Placed>> {
        let writer = Arc::clone(&self.writer);
        tokio::task::spawn_blocking(move || {
            // A panic mid-transaction rolls back as the transaction unwinds, so a poisoned connection
            // is still consistent and usable.
            let mut conn = writer.lock().unwrap_or_else(PoisonError::into_inner);
            place_order(&mut conn, &id, order)
        })
        .await
        .context("the order task failed")?
    }
}

/// POST: places an order and answers 201 `{"ok":true,"orderId":..,"totalCents":..}`; 405 for other
/// methods, 400 for a body that is not JSON, 404 for an unknown item, 500 when SQLite fails.
pub(crate) async fn handle(db: &OrderDb, request: Request<Incoming>) -> Response<Full<Bytes>> {
    if request.method() != Method::POST {
        return reply(
            StatusCode::METHOD_NOT_ALLOWED,
            &json!({"ok": false, "error": "method_not_allowed"}),
        );
    }
    let body = match request.into_body().collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(_) => {
            return reply(
                StatusCode::BAD_REQUEST,
                &json!({"ok": false, "error": "body_unreadable"}),
            );
        }
    };
    let Some(order) = parse(&body) else {
        return reply(
            StatusCode::BAD_REQUEST,
            &json!({"ok": false, "error": "invalid_json"}),
        );
    };
    let id = format!("ord_{:032x}", rand::random::<u128>());
    match db.place(id.clone(), order).await {
        Ok(Some(placed)) => reply(
            StatusCode::CREATED,
            &json!({"ok": true, "orderId": id, "totalCents": placed.total_cents}),
        ),
        Ok(None) => reply(StatusCode::NOT_FOUND, &json!({"ok": false, "error": "not_found"})),
        Err(error) => {
            eprintln!("bench-baseline: order failed: {error:#}");
            reply(
                StatusCode::INTERNAL_SERVER_ERROR,
                &json!({"ok": false, "error": "internal"}),
            )
        }
    }
}

/// The order in `body`: `itemId` folded into the seeded range (default 1), `qty` 1 to 100 (default 1).
/// An empty body is an order of item 1; anything else that is not JSON is refused.
fn parse(body: &[u8]) -> Option<OrderRequest> {
    let value: Value = if body.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(body).ok()?
    };
    let item_id = value["itemId"].as_i64().unwrap_or(1);
    let qty = value["qty"]
        .as_i64()
        .filter(|qty| (1..=100).contains(qty))
        .unwrap_or(1);
    Some(OrderRequest {
        item_id: (item_id - 1).rem_euclid(ITEMS) + 1,
        qty,
    })
}

/// The transaction: item by id, its shop by wallet (as an API key resolves to a wallet), insert.
/// IMMEDIATE, as the server's writes: the write lock is taken up front.
fn place_order(conn: &mut Connection, id: &str, order: OrderRequest) -> anyhow::Result<Option<Placed>> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let wallet = wallet_of_shop(shop_of_item(order.item_id));
    let Some((shop_id, fee_bps)) = tx
        .prepare_cached(SELECT_SHOP)?
        .query_row(params![wallet], |row| {
            Ok((row.get::<_, i64>(0)?, row.get::<_, i64>(1)?))
        })
        .optional()?
    else {
        return Ok(None);
    };
    let Some((item_shop, price_cents, _stock)) = tx
        .prepare_cached(SELECT_ITEM)?
        .query_row(params![order.item_id], |row| {
            Ok((
                row.get::<_, i64>(0)?,
                row.get::<_, i64>(1)?,
                row.get::<_, i64>(2)?,
            ))
        })
        .optional()?
    else {
        return Ok(None);
    };
    if item_shop != shop_id {
        return Ok(None);
    }
    let subtotal = price_cents * order.qty;
    let fee_cents = subtotal * fee_bps / 10_000;
    let total_cents = subtotal + fee_cents;
    tx.prepare_cached(INSERT_ORDER)?.execute(params![
        id,
        shop_id,
        order.item_id,
        order.qty,
        price_cents,
        fee_cents,
        total_cents,
        now_ms(),
    ])?;
    tx.commit()?;
    Ok(Some(Placed { total_cents }))
}

fn seed(conn: &mut Connection) -> rusqlite::Result<()> {
    let now = now_ms();
    let tx = conn.transaction()?;
    for shop in 1..=SHOPS {
        tx.execute(
            "INSERT INTO shops (id, wallet, brand_name, fee_bps, created_at) VALUES (?1, ?2, ?3, 50, ?4)",
            params![shop, wallet_of_shop(shop), format!("Bench shop {shop}"), now],
        )?;
    }
    for item in 1..=ITEMS {
        tx.execute(
            "INSERT INTO items (id, public_id, shop_id, sku, name, price_cents, stock_qty, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, -1, ?7)",
            params![
                item,
                format!("item_{item:08}"),
                shop_of_item(item),
                format!("SKU-{item:04}"),
                format!("Bench item {item}"),
                100 + item % 900,
                now
            ],
        )?;
    }
    tx.commit()
}

fn shop_of_item(item_id: i64) -> i64 {
    item_id % SHOPS + 1
}

/// A wallet-shaped text key (0x + 40 hex digits), like the server's shop keys.
fn wallet_of_shop(shop: i64) -> String {
    format!("0x{shop:040x}")
}

fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |elapsed| {
        i64::try_from(elapsed.as_millis()).unwrap_or(i64::MAX)
    })
}

fn reply(status: StatusCode, body: &Value) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(body.to_string())));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_order_reads_the_shop_and_item_and_inserts_one_row() {
        let dir = std::env::temp_dir().join(format!("bench-baseline-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("orders.db");
        let _ = std::fs::remove_file(&path);
        let db = OrderDb::open(&path).unwrap();
        let mut conn = db.writer.lock().unwrap();

        let placed = place_order(&mut conn, "ord_1", parse(br#"{"itemId":1001,"qty":3}"#).unwrap())
            .unwrap()
            .unwrap();

        // Item 1001 folds to item 1: 101 cents, 3 of them, 0.5 % fee rounded down.
        assert_eq!(placed.total_cents, 303 + 1);
        let rows: i64 = conn
            .query_row("SELECT count(*) FROM orders", [], |row| row.get(0))
            .unwrap();
        assert_eq!(rows, 1);
        let mode: String = conn
            .query_row("PRAGMA journal_mode", [], |row| row.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
        drop(conn);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_body_that_is_not_json_is_refused_and_an_empty_one_is_item_1() {
        assert!(parse(b"not json").is_none());
        let order = parse(b"").unwrap();
        assert_eq!((order.item_id, order.qty), (1, 1));
    }
}
