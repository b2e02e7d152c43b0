//! Schema version 11 (PostgreSQL dialect of SQLite's v11): subscription webhooks.
//!
//! - `subscription_plans` get the merchant's `webhook_url` and the `signing_key` that signs its deliveries:
//!   the API key of the request that set the URL, sealed with the master key (bound to the plan id), as
//!   receipts keep theirs. No URL, no key.
//! - `webhook_deliveries` belong to exactly one owner: a receipt (as before) or a customer subscription
//!   (`subscription_id`); a CHECK keeps exactly one set. Existing rows all have their receipt.

pub(super) const SQL: &str = "
ALTER TABLE subscription_plans ADD COLUMN webhook_url TEXT, ADD COLUMN signing_key BYTEA;

ALTER TABLE webhook_deliveries ALTER COLUMN receipt_id DROP NOT NULL,
    ADD COLUMN subscription_id BIGINT REFERENCES customer_subscriptions (id),
    ADD CONSTRAINT webhook_deliveries_one_owner CHECK ((receipt_id IS NULL) <> (subscription_id IS NULL));
CREATE INDEX webhook_deliveries_by_subscription ON webhook_deliveries (subscription_id);
";
