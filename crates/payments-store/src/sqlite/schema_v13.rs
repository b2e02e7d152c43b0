//! v13: billing events keep the fee and the merchant's part exactly, in token base units (6 decimals). The
//! fee is computed in base units (half up), so a plan under $1.00 pays one (a $0.99 plan at 0.5%: 4,950
//! units, which is 0 cents); `fee_cents` / `net_cents` stay as the rounded view. Rows written before v13
//! had whole-cent fees, so their base units are their cents times 10,000.
//!
//! `relayer_send_leases`: one row per relayer address while an instance sends its charge batches, so
//! instances sharing the database take turns with the relayer's nonces instead of racing for them.

pub(super) const SQL: &str = "
ALTER TABLE billing_events ADD COLUMN fee_units INTEGER NOT NULL DEFAULT 0;
ALTER TABLE billing_events ADD COLUMN net_units INTEGER NOT NULL DEFAULT 0;
UPDATE billing_events SET fee_units = fee_cents * 10000, net_units = net_cents * 10000;
CREATE TABLE relayer_send_leases (
    relayer TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    lease_until INTEGER NOT NULL
);
";
