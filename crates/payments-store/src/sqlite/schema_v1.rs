//! Schema version 1: subscriptions, shops and inventory. Hot tables get an INTEGER rowid key; text public
//! ids are unique columns (PERF-NOTES: 3.7x faster).

pub(super) const SQL: &str = "
CREATE TABLE subscriptions (
    id INTEGER PRIMARY KEY,
    public_id TEXT NOT NULL UNIQUE,
    key_hash TEXT NOT NULL UNIQUE,
    wallet TEXT NOT NULL,
    scopes TEXT NOT NULL,
    name TEXT,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER
);
CREATE INDEX subscriptions_by_wallet ON subscriptions (wallet);

CREATE TABLE shops (
    id INTEGER PRIMARY KEY,
    wallet TEXT NOT NULL UNIQUE,
    brand_name TEXT NOT NULL DEFAULT '',
    processing_fee_pct TEXT NOT NULL DEFAULT '0',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);

CREATE TABLE inventory_items (
    id INTEGER PRIMARY KEY,
    public_id TEXT NOT NULL UNIQUE,
    wallet TEXT NOT NULL,
    sku TEXT NOT NULL,
    name TEXT NOT NULL,
    price_cents INTEGER NOT NULL CHECK (price_cents >= 0),
    currency TEXT NOT NULL,
    stock_qty INTEGER NOT NULL CHECK (stock_qty >= -1),
    category TEXT NOT NULL,
    description TEXT NOT NULL,
    tags_json TEXT NOT NULL,
    tag_keys_json TEXT NOT NULL,
    search_text TEXT NOT NULL,
    images_json TEXT NOT NULL,
    attributes_json TEXT NOT NULL,
    cost_cents INTEGER NOT NULL CHECK (cost_cents >= 0),
    taxable INTEGER NOT NULL,
    jurisdiction_code TEXT,
    industry_pack TEXT NOT NULL,
    shipping_enabled INTEGER NOT NULL,
    shipping_config_json TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (wallet, sku)
);
CREATE INDEX inventory_items_by_wallet_updated ON inventory_items (wallet, updated_at);
";
