//! Migration 4: an index-friendly tag filter. Each product's lower-cased tag keys are kept as rows of
//! `inventory_item_tags`, keyed `(wallet, tag_key, item_id)`, so `tags=` finds the matching products through
//! the index instead of unpacking every product's JSON array. Triggers keep the rows in step with
//! `tag_keys_json` whatever statement writes it; the existing products are copied in.

pub(super) const SQL: &str = "
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
