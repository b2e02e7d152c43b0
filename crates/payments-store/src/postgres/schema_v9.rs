//! Schema version 9 (PostgreSQL dialect of SQLite's v9): users, their metrics and follows; existing paid
//! receipts credit their buyers. See the SQLite migration for what each table and index serves.

pub(super) const SQL: &str = "
CREATE TABLE users (
    id BIGSERIAL PRIMARY KEY,
    wallet TEXT NOT NULL UNIQUE,
    display_name TEXT NOT NULL DEFAULT '',
    name_key TEXT NOT NULL DEFAULT '',
    pfp_url TEXT,
    space_url TEXT,
    domains_json TEXT NOT NULL DEFAULT '[]',
    platforms_json TEXT NOT NULL DEFAULT '[]',
    languages_json TEXT NOT NULL DEFAULT '[]',
    purchase_cents BIGINT NOT NULL DEFAULT 0,
    subscription_cents BIGINT NOT NULL DEFAULT 0,
    xp BIGINT NOT NULL DEFAULT 0 CHECK (xp >= 0),
    live BOOLEAN NOT NULL DEFAULT FALSE,
    space_public BOOLEAN NOT NULL DEFAULT FALSE,
    live_since BIGINT,
    live_platform TEXT,
    last_heartbeat BIGINT,
    last_seen BIGINT,
    listed_at BIGINT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX users_listed_by_xp ON users (xp DESC, wallet) WHERE listed_at IS NOT NULL;
CREATE INDEX users_live_by_heartbeat ON users (last_heartbeat DESC, wallet)
    WHERE listed_at IS NOT NULL AND live AND space_public;

CREATE TABLE user_metrics (
    kind TEXT NOT NULL,
    value TEXT NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (kind, value, user_id)
);
CREATE INDEX user_metrics_by_user ON user_metrics (user_id);

CREATE TABLE user_follows (
    follower TEXT NOT NULL,
    followed TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (follower, followed)
);
CREATE INDEX user_follows_by_followed ON user_follows (followed);

INSERT INTO users (wallet, purchase_cents, xp, created_at, updated_at)
    SELECT buyer_wallet, SUM(GREATEST(paid_cents - refunded_cents, 0)),
        SUM(GREATEST(paid_cents - refunded_cents, 0)) / 100, MIN(created_at), MAX(updated_at)
    FROM receipts
    WHERE buyer_wallet IS NOT NULL
        AND status IN ('paid', 'completed', 'reconciled', 'refund_requested', 'refund_partial', 'refunded')
    GROUP BY buyer_wallet;
";
