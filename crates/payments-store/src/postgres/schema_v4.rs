//! Schema version 4 (PostgreSQL counterpart of SQLite's v4): receipt ids unique per merchant (caller-assigned
//! ids of two merchants never collide; v3's global `UNIQUE (public_id)` is replaced by
//! `UNIQUE (wallet, public_id)`), and an index-friendly tag filter. A GIN index on
//! the lower-cased tag keys as `jsonb` serves `?|` (any) and `?&` (all) directly; the listing's filter uses
//! the same expression, `tag_keys_json::jsonb`, so the planner can match it.

pub(super) const SQL: &str = "
ALTER TABLE receipts DROP CONSTRAINT receipts_public_id_key;
ALTER TABLE receipts ADD CONSTRAINT receipts_wallet_public_id_key UNIQUE (wallet, public_id);
CREATE INDEX receipts_by_public_id ON receipts (public_id);
CREATE INDEX inventory_items_by_tag_keys ON inventory_items USING GIN ((tag_keys_json::jsonb));
";
