//! v14: payment windows (docs/money.md). Every new receipt has `expires_at`; unpaid then, it is `expired`
//! (failed, its order's stock released), and a payment after that makes it `paid_late` (`stock_short` when
//! the released stock was gone). Receipts from before v14 have no window (`expires_at` NULL).
//!
//! `receipt_stock` keeps what an order reserved, per product, so that expiry gives back exactly that and a
//! late payment takes exactly that again (`held` says whether the units are currently taken).

pub(super) const SQL: &str = "
ALTER TABLE receipts ADD COLUMN expires_at INTEGER;
ALTER TABLE receipts ADD COLUMN expired INTEGER NOT NULL DEFAULT 0;
ALTER TABLE receipts ADD COLUMN paid_late INTEGER NOT NULL DEFAULT 0;
ALTER TABLE receipts ADD COLUMN stock_short INTEGER NOT NULL DEFAULT 0;
CREATE INDEX receipts_window_open ON receipts (expires_at) WHERE paid_cents = 0 AND expired = 0;
CREATE TABLE receipt_stock (
    receipt_id INTEGER NOT NULL REFERENCES receipts (id),
    item_id TEXT NOT NULL,
    qty INTEGER NOT NULL CHECK (qty > 0),
    held INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (receipt_id, item_id)
);
";
