//! v18: refunds proven on chain (issue 26, docs/money.md "Refunds proven on chain"). A refund now names the
//! block of its verified transaction and when that transaction was confirmed (`NULL` while it waits for
//! `--confirmations`: the refund counts against what remains refundable and the receipt is
//! `refund_requested`). One transaction proves one refund: the partial unique index refuses a second refund
//! with the same hash in the same transaction that records it, whatever the receipt. Refunds recorded before
//! v18 were bookkeeping only (their hashes were never checked, and repeat): they keep no block, stay outside
//! the index, and count as confirmed.

pub(super) const SQL: &str = "
ALTER TABLE receipt_refunds ADD COLUMN block_number BIGINT;
ALTER TABLE receipt_refunds ADD COLUMN confirmed_at BIGINT;
UPDATE receipt_refunds SET confirmed_at = created_at;
CREATE UNIQUE INDEX receipt_refunds_by_tx ON receipt_refunds (tx_hash) WHERE block_number IS NOT NULL;
CREATE INDEX receipt_refunds_unconfirmed ON receipt_refunds (id) WHERE confirmed_at IS NULL;
";
