//! Migration 15: webhook endpoints per merchant (issue 28, docs/webhooks.md#endpoints).
//!
//! - `webhook_endpoints`: a merchant's registered receivers: URL, the event patterns it subscribes to (JSON
//!   array), description, enabled, its signing secret sealed with the master key (bound to the endpoint id),
//!   the previous secret with the time it stops signing (a rotation's 24 h overlap), and since when its
//!   deliveries have failed without a success (`failing_since`; 5 days disable it).
//! - `webhook_deliveries` may now belong to an endpoint instead of a receipt or subscription: `endpoint_id`
//!   and the `event_id` (the envelope's `id`, the `webhook-id` of every delivery of that event). SQLite cannot
//!   change a CHECK in place, so the table is rebuilt as migration 11 did: every column, row (with its id,
//!   which `webhook_attempts` references) and index is kept.

pub(super) const SQL: &str = "
CREATE TABLE webhook_endpoints (
    id INTEGER PRIMARY KEY,
    public_id TEXT NOT NULL UNIQUE,
    wallet TEXT NOT NULL,
    url TEXT NOT NULL,
    events_json TEXT NOT NULL,
    description TEXT,
    enabled INTEGER NOT NULL,
    secret BLOB NOT NULL,
    previous_secret BLOB,
    previous_secret_expires_at INTEGER,
    failing_since INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX webhook_endpoints_by_wallet ON webhook_endpoints (wallet);

CREATE TABLE webhook_deliveries_v15 (
    id INTEGER PRIMARY KEY,
    public_id TEXT NOT NULL UNIQUE,
    receipt_id INTEGER REFERENCES receipts (id),
    subscription_id INTEGER REFERENCES customer_subscriptions (id),
    endpoint_id INTEGER REFERENCES webhook_endpoints (id),
    event_id TEXT,
    url TEXT NOT NULL,
    event TEXT NOT NULL,
    body BLOB NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    round_attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    origin TEXT NOT NULL DEFAULT '',
    leased_until INTEGER,
    redeliver_queued INTEGER NOT NULL DEFAULT 0,
    CHECK ((endpoint_id IS NULL AND (receipt_id IS NULL) <> (subscription_id IS NULL))
        OR (endpoint_id IS NOT NULL AND receipt_id IS NULL AND subscription_id IS NULL AND event_id IS NOT NULL))
);
INSERT INTO webhook_deliveries_v15 (id, public_id, receipt_id, subscription_id, url, event, body, state,
    attempts, round_attempts, next_attempt_at, created_at, updated_at, origin, leased_until, redeliver_queued)
    SELECT id, public_id, receipt_id, subscription_id, url, event, body, state, attempts, round_attempts,
        next_attempt_at, created_at, updated_at, origin, leased_until, redeliver_queued
    FROM webhook_deliveries;
DROP TABLE webhook_deliveries;
ALTER TABLE webhook_deliveries_v15 RENAME TO webhook_deliveries;
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (state, next_attempt_at);
CREATE INDEX webhook_deliveries_by_receipt ON webhook_deliveries (receipt_id);
CREATE INDEX webhook_deliveries_by_subscription ON webhook_deliveries (subscription_id);
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, id);
";
