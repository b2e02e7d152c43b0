//! v24: an applied plan change keeps what it replaced (docs/storage.md, "Idempotency keys").
//! - `subscription_changes.previous_plan_id`, `previous_price_cents`, `previous_permission_json` and
//!   `credit_before_units`: written when the change is applied, from the subscription as it was. With the
//!   change's own columns they are the change's answer (`planChange`): a replay whose answer was lost after
//!   the commit is answered from the record, never by a second change. Changes applied before v24 kept
//!   their answer in the same transaction, so they need none of it.

pub(crate) const SQL: &str = "
ALTER TABLE subscription_changes ADD COLUMN previous_plan_id BIGINT REFERENCES subscription_plans (id);
ALTER TABLE subscription_changes ADD COLUMN previous_price_cents BIGINT;
ALTER TABLE subscription_changes ADD COLUMN previous_permission_json TEXT;
ALTER TABLE subscription_changes ADD COLUMN credit_before_units BIGINT;
";
