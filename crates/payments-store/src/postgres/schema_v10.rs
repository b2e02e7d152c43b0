//! Schema version 10 (PostgreSQL dialect of SQLite's v10): recurring billing.
//!
//! - `subscription_plans`: a merchant's plans; `active = 0` after `DELETE` (no new subscribers).
//! - `customer_subscriptions`: one per signed spend permission (`permission_hash` UNIQUE: a permission backs
//!   one subscription). Price and period are copied from the plan at subscription time: the customer signed
//!   for those. `next_charge_at` is when the batch next attempts `next_period_index`;
//!   `customer_subscriptions_due` serves the batch (partial: only chargeable statuses).
//! - `subscription_charges`: the exactly-once ledger, one row per (subscription, period) (UNIQUE). A row is
//!   written `pending` with a lease (owner, expiry) BEFORE the chain transaction is sent, and settled
//!   (`charged` / `failed`) by the lease owner in the transaction that records the billing event and advances
//!   the subscription. A `pending` row whose lease ran out is reconciled with the chain, never blindly resent.
//! - `billing_events`: every charge attempt's outcome (gross, fee, net, transaction hash, failure); at most one
//!   `charged` event per (subscription, period), a second guard behind the ledger.

pub(super) const SQL: &str = "
CREATE TABLE subscription_plans (
    id BIGSERIAL PRIMARY KEY,
    public_id TEXT NOT NULL UNIQUE,
    merchant TEXT NOT NULL,
    name TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    price_cents BIGINT NOT NULL CHECK (price_cents > 0),
    period TEXT NOT NULL,
    active BOOLEAN NOT NULL DEFAULT TRUE,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX subscription_plans_by_merchant ON subscription_plans (merchant, created_at);

CREATE TABLE customer_subscriptions (
    id BIGSERIAL PRIMARY KEY,
    public_id TEXT NOT NULL UNIQUE,
    plan_id BIGINT NOT NULL REFERENCES subscription_plans (id),
    merchant TEXT NOT NULL,
    customer TEXT NOT NULL,
    price_cents BIGINT NOT NULL CHECK (price_cents > 0),
    period TEXT NOT NULL,
    permission_json TEXT NOT NULL,
    signature BYTEA NOT NULL,
    permission_hash TEXT NOT NULL UNIQUE,
    status TEXT NOT NULL,
    anchor_ms BIGINT NOT NULL,
    next_period_index BIGINT NOT NULL DEFAULT 0 CHECK (next_period_index >= 0),
    next_charge_at BIGINT NOT NULL,
    attempts BIGINT NOT NULL DEFAULT 0,
    failed_periods BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    canceled_at BIGINT
);
CREATE INDEX customer_subscriptions_due ON customer_subscriptions (next_charge_at)
    WHERE status IN ('active', 'past_due');
CREATE INDEX customer_subscriptions_by_customer ON customer_subscriptions (customer, created_at);
CREATE INDEX customer_subscriptions_by_merchant ON customer_subscriptions (merchant, created_at);

CREATE TABLE subscription_charges (
    id BIGSERIAL PRIMARY KEY,
    subscription_id BIGINT NOT NULL REFERENCES customer_subscriptions (id),
    period_index BIGINT NOT NULL CHECK (period_index >= 0),
    state TEXT NOT NULL CHECK (state IN ('pending', 'charged', 'failed')),
    attempts BIGINT NOT NULL,
    lease_owner TEXT,
    lease_until BIGINT,
    tx_hash TEXT,
    failure TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (subscription_id, period_index)
);
CREATE INDEX subscription_charges_pending ON subscription_charges (subscription_id, lease_until)
    WHERE state = 'pending';

CREATE TABLE billing_events (
    id BIGSERIAL PRIMARY KEY,
    subscription_id BIGINT NOT NULL REFERENCES customer_subscriptions (id),
    period_index BIGINT NOT NULL,
    status TEXT NOT NULL,
    gross_cents BIGINT NOT NULL,
    fee_cents BIGINT NOT NULL,
    net_cents BIGINT NOT NULL,
    tx_hash TEXT,
    failure TEXT,
    created_at BIGINT NOT NULL
);
CREATE INDEX billing_events_by_subscription ON billing_events (subscription_id, id);
CREATE UNIQUE INDEX billing_events_one_charge ON billing_events (subscription_id, period_index)
    WHERE status = 'charged';
";
