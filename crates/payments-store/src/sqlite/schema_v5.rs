//! Migration 5: which authority set each receipt's current status (see `payments_core::Authority`), so a
//! lower one cannot change it. Existing receipts take it from their last history row's actor.
//! Webhook deliveries get their endpoint (`origin`, for per-endpoint concurrency; existing rows use their
//! URL), `leased_until` (set while an attempt is in flight) and `redeliver_queued` (a redelivery asked for
//! during an attempt starts when it ends).

pub(super) const SQL: &str = "
ALTER TABLE receipts ADD COLUMN status_authority TEXT NOT NULL DEFAULT 'buyer';
UPDATE receipts SET status_authority = CASE
    (SELECT substr(actor, 1, instr(actor || ':', ':') - 1) FROM receipt_history
     WHERE receipt_history.receipt_id = receipts.id ORDER BY receipt_history.id DESC LIMIT 1)
    WHEN 'admin' THEN 'admin' WHEN 'key' THEN 'key' ELSE 'buyer' END;

ALTER TABLE webhook_deliveries ADD COLUMN origin TEXT NOT NULL DEFAULT '';
UPDATE webhook_deliveries SET origin = url;
ALTER TABLE webhook_deliveries ADD COLUMN leased_until INTEGER;
ALTER TABLE webhook_deliveries ADD COLUMN redeliver_queued INTEGER NOT NULL DEFAULT 0;
";
