//! Migration 6: where a receipt is paid, fixed at creation. `pay_to` is the receipt's own deposit address
//! (CREATE2 of the DepositFactory, docs/contracts.md) and `pay_split` the split that deposit forwards to, so a
//! later split change never moves an open receipt's address. Receipts from before stay NULL and keep paying
//! the merchant's current split (or wallet), as they always did.

pub(crate) const SQL: &str = "
ALTER TABLE receipts ADD COLUMN pay_to TEXT;
ALTER TABLE receipts ADD COLUMN pay_split TEXT;
";
