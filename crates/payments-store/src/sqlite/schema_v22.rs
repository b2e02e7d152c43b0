//! v22: plan changes (docs/subscriptions.md, "Plan changes").
//! - `customer_subscriptions.credit_units`: what a downgrade credited and no charge has used yet, in token
//!   base units; the batch takes it off the next charges first, in the settlement that records them.
//! - `subscription_changes`: one row per plan change, written `pending` with a lease before its one chain
//!   transaction (revoke the old permission, approve and charge the new one) is sent, then `applied` with the
//!   subscription's switch or `failed`. At most one pending change per subscription (a partial UNIQUE index);
//!   a pending row whose lease ran out is reconciled from the chain by a later run, never sent blindly again.

pub(super) const SQL: &str = "
ALTER TABLE customer_subscriptions ADD COLUMN credit_units INTEGER NOT NULL DEFAULT 0
    CHECK (credit_units >= 0);
CREATE TABLE subscription_changes (
    id INTEGER PRIMARY KEY,
    public_id TEXT NOT NULL UNIQUE,
    subscription_id INTEGER NOT NULL REFERENCES customer_subscriptions (id),
    plan_id INTEGER NOT NULL REFERENCES subscription_plans (id),
    price_cents INTEGER NOT NULL CHECK (price_cents > 0),
    permission_json TEXT NOT NULL,
    signature BLOB NOT NULL,
    permission_hash TEXT NOT NULL,
    period_index INTEGER NOT NULL CHECK (period_index >= 0),
    proration TEXT NOT NULL CHECK (proration IN ('charge', 'credit', 'none')),
    proration_units INTEGER NOT NULL CHECK (proration_units >= 0),
    fee_units INTEGER NOT NULL CHECK (fee_units >= 0),
    net_units INTEGER NOT NULL CHECK (net_units >= 0),
    state TEXT NOT NULL CHECK (state IN ('pending', 'applied', 'failed')),
    lease_until INTEGER,
    tx_hash TEXT,
    failure TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX subscription_changes_one_pending ON subscription_changes (subscription_id)
    WHERE state = 'pending';
";
