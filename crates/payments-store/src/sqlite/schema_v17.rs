//! Migration 17: the subscription lifecycle (issue 24, docs/subscriptions.md).
//!
//! - `subscription_plans.trial_days` (0–365): a subscription created on the plan is `trialing` and first
//!   charged that many days later. The due index is rebuilt to include `trialing` (its first charge is due
//!   at the trial's end like any other).
//! - `customer_subscriptions.cancel_reason`: why the platform ended it (`revoked_on_chain`); NULL when a
//!   person (or the failure policy, whose reason is in its webhook) ended it.
//! - `subscription_notices`: one row per (subscription, period) whose `subscription.charge_upcoming` was
//!   sent; the UNIQUE pair makes the notice exactly once across runs and instances (the row and its webhook
//!   commit together).

pub(super) const SQL: &str = "
ALTER TABLE subscription_plans ADD COLUMN trial_days INTEGER NOT NULL DEFAULT 0
    CHECK (trial_days BETWEEN 0 AND 365);
ALTER TABLE customer_subscriptions ADD COLUMN cancel_reason TEXT;
DROP INDEX customer_subscriptions_due;
CREATE INDEX customer_subscriptions_due ON customer_subscriptions (next_charge_at)
    WHERE status IN ('trialing', 'active', 'past_due');

CREATE TABLE subscription_notices (
    id INTEGER PRIMARY KEY,
    subscription_id INTEGER NOT NULL REFERENCES customer_subscriptions (id),
    period_index INTEGER NOT NULL CHECK (period_index >= 0),
    created_at INTEGER NOT NULL,
    UNIQUE (subscription_id, period_index)
);
";
