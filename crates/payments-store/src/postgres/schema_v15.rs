//! Migration 15: webhook endpoints per merchant (issue 28, docs/webhooks.md#endpoints).
//!
//! - `webhook_endpoints`: a merchant's registered receivers: URL, the event patterns it subscribes to (JSON
//!   array), description, enabled, its signing secret sealed with the master key (bound to the endpoint id),
//!   the previous secret with the time it stops signing (a rotation's 24 h overlap), and since when its
//!   deliveries have failed without a success (`failing_since`; 5 days disable it).
//! - `webhook_deliveries` may now belong to an endpoint instead of a receipt or subscription: `endpoint_id`
//!   and the `event_id` (the envelope's `id`, the `webhook-id` of every delivery of that event); the owner
//!   CHECK of migration 11 is replaced to allow it.

pub(super) const SQL: &str = "
CREATE TABLE webhook_endpoints (
    id BIGSERIAL PRIMARY KEY,
    public_id TEXT NOT NULL UNIQUE,
    wallet TEXT NOT NULL,
    url TEXT NOT NULL,
    events_json TEXT NOT NULL,
    description TEXT,
    enabled BOOLEAN NOT NULL,
    secret BYTEA NOT NULL,
    previous_secret BYTEA,
    previous_secret_expires_at BIGINT,
    failing_since BIGINT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX webhook_endpoints_by_wallet ON webhook_endpoints (wallet);

ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_one_owner,
    ADD COLUMN endpoint_id BIGINT REFERENCES webhook_endpoints (id),
    ADD COLUMN event_id TEXT,
    ADD CONSTRAINT webhook_deliveries_one_owner CHECK (
        (endpoint_id IS NULL AND (receipt_id IS NULL) <> (subscription_id IS NULL))
        OR (endpoint_id IS NOT NULL AND receipt_id IS NULL AND subscription_id IS NULL AND event_id IS NOT NULL));
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, id);
";
