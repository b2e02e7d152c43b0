//! Schema version 4 (PostgreSQL counterpart of SQLite's v4): an index-friendly tag filter. A GIN index on
//! the lower-cased tag keys as `jsonb` serves `?|` (any) and `?&` (all) directly; the listing's filter uses
//! the same expression, `tag_keys_json::jsonb`, so the planner can match it.

pub(super) const SQL: &str = "
CREATE INDEX inventory_items_by_tag_keys ON inventory_items USING GIN ((tag_keys_json::jsonb));
";
