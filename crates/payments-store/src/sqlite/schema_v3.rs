//! Migration 3: receipts, their status history and refunds, the webhook outbox with its attempts, and
//! idempotency keys. Money is INTEGER cents, time INTEGER unix ms; hot tables get an INTEGER rowid key.

pub(super) const SQL: &str = "
CREATE TABLE receipts (
    id INTEGER PRIMARY KEY,
    public_id TEXT NOT NULL UNIQUE,
    wallet TEXT NOT NULL,
    source TEXT NOT NULL,
    status TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    currency TEXT NOT NULL,
    subtotal_cents INTEGER NOT NULL,
    tax_cents INTEGER NOT NULL,
    fee_cents INTEGER NOT NULL,
    total_cents INTEGER NOT NULL CHECK (total_cents >= 0),
    paid_cents INTEGER NOT NULL DEFAULT 0,
    refunded_cents INTEGER NOT NULL DEFAULT 0,
    line_items_json TEXT NOT NULL,
    brand_name TEXT NOT NULL,
    jurisdiction_code TEXT,
    tax_rate TEXT NOT NULL,
    tax_components_json TEXT NOT NULL,
    options_json TEXT NOT NULL,
    webhook_url TEXT,
    signing_key BLOB,
    transaction_hash TEXT,
    transaction_timestamp INTEGER,
    buyer_wallet TEXT,
    failure_json TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX receipts_by_wallet_created ON receipts (wallet, created_at, id);

CREATE TABLE receipt_history (
    id INTEGER PRIMARY KEY,
    receipt_id INTEGER NOT NULL REFERENCES receipts (id),
    from_status TEXT NOT NULL,
    to_status TEXT NOT NULL,
    actor TEXT NOT NULL,
    at INTEGER NOT NULL
);
CREATE INDEX receipt_history_by_receipt ON receipt_history (receipt_id);

CREATE TABLE receipt_refunds (
    id INTEGER PRIMARY KEY,
    receipt_id INTEGER NOT NULL REFERENCES receipts (id),
    buyer TEXT NOT NULL,
    usd_cents INTEGER NOT NULL CHECK (usd_cents > 0),
    items_json TEXT NOT NULL,
    tx_hash TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX receipt_refunds_by_receipt ON receipt_refunds (receipt_id);

CREATE TABLE webhook_deliveries (
    id INTEGER PRIMARY KEY,
    public_id TEXT NOT NULL UNIQUE,
    receipt_id INTEGER NOT NULL REFERENCES receipts (id),
    url TEXT NOT NULL,
    event TEXT NOT NULL,
    body BLOB NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    round_attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (state, next_attempt_at);
CREATE INDEX webhook_deliveries_by_receipt ON webhook_deliveries (receipt_id);

CREATE TABLE webhook_attempts (
    id INTEGER PRIMARY KEY,
    delivery_id INTEGER NOT NULL REFERENCES webhook_deliveries (id),
    attempt INTEGER NOT NULL,
    status_code INTEGER,
    error TEXT,
    started_at INTEGER NOT NULL,
    finished_at INTEGER NOT NULL,
    duration_ms INTEGER NOT NULL
);
CREATE INDEX webhook_attempts_by_delivery ON webhook_attempts (delivery_id);

CREATE TABLE idempotency_keys (
    id INTEGER PRIMARY KEY,
    wallet TEXT NOT NULL,
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    status INTEGER NOT NULL,
    body BLOB NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (wallet, scope, key)
);
CREATE INDEX idempotency_keys_by_created ON idempotency_keys (created_at);
";
