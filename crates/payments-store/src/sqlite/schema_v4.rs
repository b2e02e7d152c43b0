//! Migration 4: receipt ids unique per merchant, and an index-friendly tag filter.
//!
//! Receipt ids are assigned by the caller, so they are unique per merchant, not across merchants:
//! `UNIQUE (wallet, public_id)` replaces v3's `UNIQUE (public_id)`. SQLite cannot drop a column constraint,
//! so the table is rebuilt (create, copy, drop, rename: SQLite's documented procedure, run with foreign
//! keys off and checked with `foreign_key_check` before commit, see `migrations.rs`). Row ids are copied,
//! so history, refund and delivery rows keep pointing at their receipts.
//!
//! The tag filter: Each product's lower-cased tag keys are kept as rows of
//! `inventory_item_tags`, keyed `(wallet, tag_key, item_id)`, so `tags=` finds the matching products through
//! the index instead of unpacking every product's JSON array. Triggers keep the rows in step with
//! `tag_keys_json` whatever statement writes it; the existing products are copied in.

pub(super) const SQL: &str = "
CREATE TABLE receipts_v4 (
    id INTEGER PRIMARY KEY,
    public_id TEXT NOT NULL,
    wallet TEXT NOT NULL,
    source TEXT NOT NULL,
    status TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    currency TEXT NOT NULL,
    subtotal_cents INTEGER NOT NULL,
    tax_cents INTEGER NOT NULL,
    fee_cents INTEGER NOT NULL,
    total_cents INTEGER NOT NULL CHECK (total_cents >= 0),
    paid_cents INTEGER NOT NULL DEFAULT 0,
    refunded_cents INTEGER NOT NULL DEFAULT 0,
    line_items_json TEXT NOT NULL,
    brand_name TEXT NOT NULL,
    jurisdiction_code TEXT,
    tax_rate TEXT NOT NULL,
    tax_components_json TEXT NOT NULL,
    options_json TEXT NOT NULL,
    webhook_url TEXT,
    signing_key BLOB,
    transaction_hash TEXT,
    transaction_timestamp INTEGER,
    buyer_wallet TEXT,
    failure_json TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (wallet, public_id)
);
INSERT INTO receipts_v4 (id, public_id, wallet, source, status, version, currency, subtotal_cents, tax_cents,
    fee_cents, total_cents, paid_cents, refunded_cents, line_items_json, brand_name, jurisdiction_code, tax_rate,
    tax_components_json, options_json, webhook_url, signing_key, transaction_hash, transaction_timestamp,
    buyer_wallet, failure_json, created_at, updated_at)
SELECT id, public_id, wallet, source, status, version, currency, subtotal_cents, tax_cents,
    fee_cents, total_cents, paid_cents, refunded_cents, line_items_json, brand_name, jurisdiction_code, tax_rate,
    tax_components_json, options_json, webhook_url, signing_key, transaction_hash, transaction_timestamp,
    buyer_wallet, failure_json, created_at, updated_at
FROM receipts;
DROP TABLE receipts;
ALTER TABLE receipts_v4 RENAME TO receipts;
CREATE INDEX receipts_by_wallet_created ON receipts (wallet, created_at, id);
-- The payment page's lookup by id alone.
CREATE INDEX receipts_by_public_id ON receipts (public_id);

CREATE TABLE inventory_item_tags (
    wallet TEXT NOT NULL,
    tag_key TEXT NOT NULL,
    item_id INTEGER NOT NULL REFERENCES inventory_items (id) ON DELETE CASCADE,
    PRIMARY KEY (wallet, tag_key, item_id)
) WITHOUT ROWID;
CREATE INDEX inventory_item_tags_by_item ON inventory_item_tags (item_id);

CREATE TRIGGER inventory_item_tags_on_insert AFTER INSERT ON inventory_items
BEGIN
    INSERT OR IGNORE INTO inventory_item_tags (wallet, tag_key, item_id)
        SELECT NEW.wallet, value, NEW.id FROM json_each(NEW.tag_keys_json);
END;

CREATE TRIGGER inventory_item_tags_on_update AFTER UPDATE OF tag_keys_json, wallet ON inventory_items
BEGIN
    DELETE FROM inventory_item_tags WHERE item_id = OLD.id;
    INSERT OR IGNORE INTO inventory_item_tags (wallet, tag_key, item_id)
        SELECT NEW.wallet, value, NEW.id FROM json_each(NEW.tag_keys_json);
END;

CREATE TRIGGER inventory_item_tags_on_delete AFTER DELETE ON inventory_items
BEGIN
    DELETE FROM inventory_item_tags WHERE item_id = OLD.id;
END;

INSERT OR IGNORE INTO inventory_item_tags (wallet, tag_key, item_id)
    SELECT items.wallet, keys.value, items.id FROM inventory_items AS items, json_each(items.tag_keys_json) AS keys;
";
