//! Migration 7: the chain as the source of truth. `chain_cursors` is where the deposit watcher resumes after a
//! restart; `chain_transfers` holds every confirmed transfer to a deposit address, once (the unique key is the
//! log's identity, so a rescan after a crash or a reorg never counts a transfer twice); `settlements` counts
//! failed forward-and-distribute attempts of paid receipts and when to try again.

pub(super) const SQL: &str = "
CREATE TABLE chain_cursors (
    chain_id INTEGER PRIMARY KEY,
    next_block INTEGER NOT NULL,
    last_block_hash TEXT,
    updated_at INTEGER NOT NULL
);

CREATE TABLE chain_transfers (
    id INTEGER PRIMARY KEY,
    chain_id INTEGER NOT NULL,
    transaction_hash TEXT NOT NULL,
    log_index INTEGER NOT NULL,
    block_number INTEGER NOT NULL,
    block_hash TEXT NOT NULL,
    token TEXT NOT NULL,
    from_wallet TEXT NOT NULL,
    to_wallet TEXT NOT NULL,
    amount TEXT,
    recorded_at INTEGER NOT NULL,
    UNIQUE (chain_id, transaction_hash, log_index)
);
CREATE INDEX chain_transfers_by_to ON chain_transfers (to_wallet, chain_id);

CREATE INDEX receipts_unpaid_deposits ON receipts (pay_to) WHERE paid_cents = 0 AND pay_to IS NOT NULL;
CREATE INDEX receipts_by_status ON receipts (status) WHERE pay_to IS NOT NULL;

CREATE TABLE settlements (
    receipt_id INTEGER PRIMARY KEY REFERENCES receipts (id),
    attempts INTEGER NOT NULL,
    next_attempt_at INTEGER NOT NULL,
    last_error TEXT,
    updated_at INTEGER NOT NULL
);
";
