//! Migration 9: users (profiles, presence, derived xp), their metrics and follows.
//!
//! - `users`: one row per wallet that is either listed (`listed_at` set: it wrote as itself after signing
//!   in) or has bought something (`purchase_cents`, credited by receipt transitions). `xp` is kept equal to
//!   `payments_core::xp_for_spending(purchase_cents, subscription_cents)` by the writes that change them, so
//!   the search can walk an index in xp order. `name_key` is the lower-cased display name `q` matches.
//! - `users_listed_by_xp` serves the search and the leaderboard (partial: unlisted buyers are not in it);
//!   `users_live_by_heartbeat` serves the live listing and `live=true` (partial: live with a public space).
//! - `user_metrics` holds each metric as a row keyed `(kind, value, user_id)`, so a filter such as
//!   `languages=en` is an index range instead of unpacking every profile's JSON.
//! - Existing paid receipts credit their buyers here, by the same rule the transitions apply.

pub(super) const SQL: &str = "
CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    wallet TEXT NOT NULL UNIQUE,
    display_name TEXT NOT NULL DEFAULT '',
    name_key TEXT NOT NULL DEFAULT '',
    pfp_url TEXT,
    space_url TEXT,
    domains_json TEXT NOT NULL DEFAULT '[]',
    platforms_json TEXT NOT NULL DEFAULT '[]',
    languages_json TEXT NOT NULL DEFAULT '[]',
    purchase_cents INTEGER NOT NULL DEFAULT 0,
    subscription_cents INTEGER NOT NULL DEFAULT 0,
    xp INTEGER NOT NULL DEFAULT 0 CHECK (xp >= 0),
    live INTEGER NOT NULL DEFAULT 0,
    space_public INTEGER NOT NULL DEFAULT 0,
    live_since INTEGER,
    live_platform TEXT,
    last_heartbeat INTEGER,
    last_seen INTEGER,
    listed_at INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX users_listed_by_xp ON users (xp DESC, wallet) WHERE listed_at IS NOT NULL;
CREATE INDEX users_live_by_heartbeat ON users (last_heartbeat DESC, wallet)
    WHERE listed_at IS NOT NULL AND live = 1 AND space_public = 1;

CREATE TABLE user_metrics (
    kind TEXT NOT NULL,
    value TEXT NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (kind, value, user_id)
) WITHOUT ROWID;
CREATE INDEX user_metrics_by_user ON user_metrics (user_id);

CREATE TABLE user_follows (
    follower TEXT NOT NULL,
    followed TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (follower, followed)
) WITHOUT ROWID;
CREATE INDEX user_follows_by_followed ON user_follows (followed);

INSERT INTO users (wallet, purchase_cents, xp, created_at, updated_at)
    SELECT buyer_wallet, SUM(MAX(paid_cents - refunded_cents, 0)), SUM(MAX(paid_cents - refunded_cents, 0)) / 100,
        MIN(created_at), MAX(updated_at)
    FROM receipts
    WHERE buyer_wallet IS NOT NULL
        AND status IN ('paid', 'completed', 'reconciled', 'refund_requested', 'refund_partial', 'refunded')
    GROUP BY buyer_wallet;
";
