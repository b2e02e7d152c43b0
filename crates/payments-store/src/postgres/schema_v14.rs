//! v14: payment windows (docs/money.md). Every new receipt has `expires_at`; unpaid then, it is `expired`
//! (failed, its order's stock released), and a payment after that makes it `paid_late` (`stock_short` when
//! the released stock was gone). Receipts from before v14 have no window (`expires_at` NULL).
//!
//! `receipt_stock` keeps what an order reserved, per product, so that expiry gives back exactly that and a
//! late payment takes exactly that again (`held` says whether the units are currently taken).

pub(super) const SQL: &str = "
ALTER TABLE receipts ADD COLUMN expires_at BIGINT;
ALTER TABLE receipts ADD COLUMN expired BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE receipts ADD COLUMN paid_late BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE receipts ADD COLUMN stock_short BOOLEAN NOT NULL DEFAULT FALSE;
CREATE INDEX receipts_window_open ON receipts (expires_at) WHERE paid_cents = 0 AND NOT expired;
CREATE TABLE receipt_stock (
    receipt_id BIGINT NOT NULL REFERENCES receipts (id),
    item_id TEXT NOT NULL,
    qty BIGINT NOT NULL CHECK (qty > 0),
    held BOOLEAN NOT NULL DEFAULT TRUE,
    PRIMARY KEY (receipt_id, item_id)
);
";
