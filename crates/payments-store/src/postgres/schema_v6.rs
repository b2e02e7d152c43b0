//! Schema version 6 (PostgreSQL dialect of SQLite's v6): each receipt's deposit address (`pay_to`) and the
//! split it forwards to (`pay_split`), fixed at creation; NULL for receipts from before.

pub(super) const SQL: &str = "
ALTER TABLE receipts ADD COLUMN pay_to TEXT;
ALTER TABLE receipts ADD COLUMN pay_split TEXT;
";
