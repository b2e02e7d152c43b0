//! Migration 11: subscription webhooks.
//!
//! - `subscription_plans` get the merchant's `webhook_url` and the `signing_key` that signs its deliveries:
//!   the API key of the request that set the URL, sealed with the master key (bound to the plan id), as
//!   receipts keep theirs. No URL, no key.
//! - `webhook_deliveries` belong to exactly one owner: a receipt (as before) or a customer subscription.
//!   SQLite cannot drop a NOT NULL or add a CHECK in place, so the table is rebuilt: every column, row (with
//!   its id, which `webhook_attempts` references), and index is kept, and `subscription_id` is added.

pub(super) const SQL: &str = "
ALTER TABLE subscription_plans ADD COLUMN webhook_url TEXT;
ALTER TABLE subscription_plans ADD COLUMN signing_key BLOB;

CREATE TABLE webhook_deliveries_v11 (
    id INTEGER PRIMARY KEY,
    public_id TEXT NOT NULL UNIQUE,
    receipt_id INTEGER REFERENCES receipts (id),
    subscription_id INTEGER REFERENCES customer_subscriptions (id),
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
    CHECK ((receipt_id IS NULL) <> (subscription_id IS NULL))
);
INSERT INTO webhook_deliveries_v11 (id, public_id, receipt_id, url, event, body, state, attempts,
    round_attempts, next_attempt_at, created_at, updated_at, origin, leased_until, redeliver_queued)
    SELECT id, public_id, receipt_id, url, event, body, state, attempts, round_attempts, next_attempt_at,
        created_at, updated_at, origin, leased_until, redeliver_queued
    FROM webhook_deliveries;
DROP TABLE webhook_deliveries;
ALTER TABLE webhook_deliveries_v11 RENAME TO webhook_deliveries;
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (state, next_attempt_at);
CREATE INDEX webhook_deliveries_by_receipt ON webhook_deliveries (receipt_id);
CREATE INDEX webhook_deliveries_by_subscription ON webhook_deliveries (subscription_id);
";
