//! Schema version 2 (PostgreSQL dialect of SQLite's v2): admin sign-in (nonces, sessions), split
//! configuration with its history, and the shop settings beyond brand name and fee.

/// Only a hash of the CSRF token is stored; split recipients are JSON, read and written whole.
/// `splits.wallet` is UNIQUE: one active split per merchant, whoever races to create it.
pub(super) const SQL: &str = "
CREATE TABLE admin_nonces (
    id BIGSERIAL PRIMARY KEY,
    nonce TEXT NOT NULL UNIQUE,
    wallet TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX admin_nonces_by_expiry ON admin_nonces (expires_at);

CREATE TABLE admin_sessions (
    id BIGSERIAL PRIMARY KEY,
    public_id TEXT NOT NULL UNIQUE,
    wallet TEXT NOT NULL,
    csrf_hash TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    revoked_at BIGINT
);
CREATE INDEX admin_sessions_by_wallet ON admin_sessions (wallet);

CREATE TABLE splits (
    id BIGSERIAL PRIMARY KEY,
    wallet TEXT NOT NULL UNIQUE,
    address TEXT NOT NULL,
    recipients_json TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE TABLE split_history (
    id BIGSERIAL PRIMARY KEY,
    wallet TEXT NOT NULL,
    address TEXT NOT NULL,
    recipients_json TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    archived_at BIGINT NOT NULL
);
CREATE INDEX split_history_by_wallet ON split_history (wallet, id);

ALTER TABLE shops ADD COLUMN brand_key TEXT;
ALTER TABLE shops ADD COLUMN support_email TEXT;
ALTER TABLE shops ADD COLUMN logo_url TEXT;
ALTER TABLE shops ADD COLUMN redirect_url TEXT;
ALTER TABLE shops ADD COLUMN default_jurisdiction TEXT;
ALTER TABLE shops ADD COLUMN jurisdictions_json TEXT NOT NULL DEFAULT '[]';
";
