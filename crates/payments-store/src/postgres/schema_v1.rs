//! Schema version 1 (PostgreSQL dialect of SQLite's v1): subscriptions, shops and inventory.
//! Times are BIGINT unix ms, money BIGINT cents; hot tables get a BIGSERIAL key and a unique public id.

pub(super) const SQL: &str = "
CREATE TABLE subscriptions (
    id BIGSERIAL PRIMARY KEY,
    public_id TEXT NOT NULL UNIQUE,
    key_hash TEXT NOT NULL UNIQUE,
    wallet TEXT NOT NULL,
    scopes TEXT NOT NULL,
    name TEXT,
    created_at BIGINT NOT NULL,
    revoked_at BIGINT
);
CREATE INDEX subscriptions_by_wallet ON subscriptions (wallet);

CREATE TABLE shops (
    id BIGSERIAL PRIMARY KEY,
    wallet TEXT NOT NULL UNIQUE,
    brand_name TEXT NOT NULL DEFAULT '',
    processing_fee_pct TEXT NOT NULL DEFAULT '0',
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

CREATE TABLE inventory_items (
    id BIGSERIAL PRIMARY KEY,
    public_id TEXT NOT NULL UNIQUE,
    wallet TEXT NOT NULL,
    sku TEXT NOT NULL,
    name TEXT NOT NULL,
    price_cents BIGINT NOT NULL CHECK (price_cents >= 0),
    currency TEXT NOT NULL,
    stock_qty BIGINT NOT NULL CHECK (stock_qty >= -1),
    category TEXT NOT NULL,
    description TEXT NOT NULL,
    tags_json TEXT NOT NULL,
    tag_keys_json TEXT NOT NULL,
    search_text TEXT NOT NULL,
    images_json TEXT NOT NULL,
    attributes_json TEXT NOT NULL,
    cost_cents BIGINT NOT NULL CHECK (cost_cents >= 0),
    taxable BOOLEAN NOT NULL,
    jurisdiction_code TEXT,
    industry_pack TEXT NOT NULL,
    shipping_enabled BOOLEAN NOT NULL,
    shipping_config_json TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (wallet, sku)
);
CREATE INDEX inventory_items_by_wallet_updated ON inventory_items (wallet, updated_at);
";
