//! Schema version 3 (PostgreSQL dialect of SQLite's v3): receipts, their status history and refunds, the
//! webhook outbox with its attempts, and idempotency keys. Bodies and sealed keys are BYTEA.

/// An idempotency row with `status = 0` and an empty body is a claim still being worked on; it is only
/// ever visible to other transactions once its response is filled in (same transaction).
pub(super) const SQL: &str = "
CREATE TABLE receipts (
    id BIGSERIAL PRIMARY KEY,
    public_id TEXT NOT NULL UNIQUE,
    wallet TEXT NOT NULL,
    source TEXT NOT NULL,
    status TEXT NOT NULL,
    version BIGINT NOT NULL DEFAULT 0,
    currency TEXT NOT NULL,
    subtotal_cents BIGINT NOT NULL,
    tax_cents BIGINT NOT NULL,
    fee_cents BIGINT NOT NULL,
    total_cents BIGINT NOT NULL CHECK (total_cents >= 0),
    paid_cents BIGINT NOT NULL DEFAULT 0,
    refunded_cents BIGINT NOT NULL DEFAULT 0,
    line_items_json TEXT NOT NULL,
    brand_name TEXT NOT NULL,
    jurisdiction_code TEXT,
    tax_rate TEXT NOT NULL,
    tax_components_json TEXT NOT NULL,
    options_json TEXT NOT NULL,
    webhook_url TEXT,
    signing_key BYTEA,
    transaction_hash TEXT,
    transaction_timestamp BIGINT,
    buyer_wallet TEXT,
    failure_json TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX receipts_by_wallet_created ON receipts (wallet, created_at, id);

CREATE TABLE receipt_history (
    id BIGSERIAL PRIMARY KEY,
    receipt_id BIGINT NOT NULL REFERENCES receipts (id),
    from_status TEXT NOT NULL,
    to_status TEXT NOT NULL,
    actor TEXT NOT NULL,
    at BIGINT NOT NULL
);
CREATE INDEX receipt_history_by_receipt ON receipt_history (receipt_id);

CREATE TABLE receipt_refunds (
    id BIGSERIAL PRIMARY KEY,
    receipt_id BIGINT NOT NULL REFERENCES receipts (id),
    buyer TEXT NOT NULL,
    usd_cents BIGINT NOT NULL CHECK (usd_cents > 0),
    items_json TEXT NOT NULL,
    tx_hash TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX receipt_refunds_by_receipt ON receipt_refunds (receipt_id);

CREATE TABLE webhook_deliveries (
    id BIGSERIAL PRIMARY KEY,
    public_id TEXT NOT NULL UNIQUE,
    receipt_id BIGINT NOT NULL REFERENCES receipts (id),
    url TEXT NOT NULL,
    event TEXT NOT NULL,
    body BYTEA NOT NULL,
    state TEXT NOT NULL,
    attempts BIGINT NOT NULL DEFAULT 0,
    round_attempts BIGINT NOT NULL DEFAULT 0,
    next_attempt_at BIGINT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (state, next_attempt_at);
CREATE INDEX webhook_deliveries_by_receipt ON webhook_deliveries (receipt_id);

CREATE TABLE webhook_attempts (
    id BIGSERIAL PRIMARY KEY,
    delivery_id BIGINT NOT NULL REFERENCES webhook_deliveries (id),
    attempt BIGINT NOT NULL,
    status_code INTEGER,
    error TEXT,
    started_at BIGINT NOT NULL,
    finished_at BIGINT NOT NULL,
    duration_ms BIGINT NOT NULL
);
CREATE INDEX webhook_attempts_by_delivery ON webhook_attempts (delivery_id);

CREATE TABLE idempotency_keys (
    id BIGSERIAL PRIMARY KEY,
    wallet TEXT NOT NULL,
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    status INTEGER NOT NULL,
    body BYTEA NOT NULL,
    created_at BIGINT NOT NULL,
    UNIQUE (wallet, scope, key)
);
CREATE INDEX idempotency_keys_by_created ON idempotency_keys (created_at);
";
