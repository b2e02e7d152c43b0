//! Schema version 2: admin sign-in (nonces, sessions), split configuration with its history, and the
//! shop settings beyond brand name and fee.

/// Nonces and sessions keep plain public ids but only a hash of the CSRF token, so a database leak
/// does not let anyone pass the CSRF check. Split recipients are JSON: they are read and written whole.
pub(super) const SQL: &str = "
CREATE TABLE admin_nonces (
    id INTEGER PRIMARY KEY,
    nonce TEXT NOT NULL UNIQUE,
    wallet TEXT NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX admin_nonces_by_expiry ON admin_nonces (expires_at);

CREATE TABLE admin_sessions (
    id INTEGER PRIMARY KEY,
    public_id TEXT NOT NULL UNIQUE,
    wallet TEXT NOT NULL,
    csrf_hash TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    revoked_at INTEGER
);
CREATE INDEX admin_sessions_by_wallet ON admin_sessions (wallet);

CREATE TABLE splits (
    id INTEGER PRIMARY KEY,
    wallet TEXT NOT NULL UNIQUE,
    address TEXT NOT NULL,
    recipients_json TEXT NOT NULL,
    created_at INTEGER NOT NULL
);

CREATE TABLE split_history (
    id INTEGER PRIMARY KEY,
    wallet TEXT NOT NULL,
    address TEXT NOT NULL,
    recipients_json TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    archived_at INTEGER NOT NULL
);
CREATE INDEX split_history_by_wallet ON split_history (wallet, id);

ALTER TABLE shops ADD COLUMN brand_key TEXT;
ALTER TABLE shops ADD COLUMN support_email TEXT;
ALTER TABLE shops ADD COLUMN logo_url TEXT;
ALTER TABLE shops ADD COLUMN redirect_url TEXT;
ALTER TABLE shops ADD COLUMN default_jurisdiction TEXT;
ALTER TABLE shops ADD COLUMN jurisdictions_json TEXT NOT NULL DEFAULT '[]';
";
