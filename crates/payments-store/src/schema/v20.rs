//! v20: the ledger export's reads in time order (docs/ledger.md). Each export page reads the next transfers
//! and settlements after a `(time, id)` cursor; without these indexes every page scanned the merchant's whole
//! history, so an export cost grew with the square of its size.

pub(crate) const SQL: &str = "
CREATE INDEX chain_transfers_by_recorded ON chain_transfers (recorded_at, id);
CREATE INDEX receipt_history_completed ON receipt_history (at, id) WHERE to_status = 'completed';
CREATE INDEX chain_transfers_by_deposit_order ON chain_transfers (to_wallet, block_number, log_index);
";
