//! v21 (PostgreSQL dialect of SQLite's v21): finality and reorganisations after paid (issue 26,
//! docs/money.md). `chain_transfers.removed`: a recorded transfer that a reorganisation took out of the
//! chain (kept, never counted, so the receipt it paid can be failed and the operator can see what
//! happened); `chain_cursors.head_block` / `finalized_block`: the head and the final block the watcher last
//! read, from which a payment's `confirmations` and `finalized` are derived. The index serves the watcher's
//! re-check of transfers above the final block.

pub(super) const SQL: &str = "
ALTER TABLE chain_transfers ADD COLUMN removed BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE chain_cursors ADD COLUMN head_block BIGINT;
ALTER TABLE chain_cursors ADD COLUMN finalized_block BIGINT;
CREATE INDEX chain_transfers_by_block ON chain_transfers (chain_id, block_number);
";
