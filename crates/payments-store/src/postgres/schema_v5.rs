//! Schema version 5 (PostgreSQL dialect of SQLite's v5): which authority set each receipt's current status
//! (see `payments_core::Authority`). Existing receipts take it from their last history row's actor.
//! Webhook deliveries get `origin`, `leased_until` and `redeliver_queued` as in SQLite's v5.

pub(super) const SQL: &str = "
ALTER TABLE receipts ADD COLUMN status_authority TEXT NOT NULL DEFAULT 'buyer';
UPDATE receipts SET status_authority = CASE
    (SELECT split_part(actor, ':', 1) FROM receipt_history
     WHERE receipt_history.receipt_id = receipts.id ORDER BY receipt_history.id DESC LIMIT 1)
    WHEN 'admin' THEN 'admin' WHEN 'key' THEN 'key' ELSE 'buyer' END;

ALTER TABLE webhook_deliveries ADD COLUMN origin TEXT NOT NULL DEFAULT '';
UPDATE webhook_deliveries SET origin = url;
ALTER TABLE webhook_deliveries ADD COLUMN leased_until BIGINT;
ALTER TABLE webhook_deliveries ADD COLUMN redeliver_queued INTEGER NOT NULL DEFAULT 0;
";
