//! Pending plan changes as stored (`subscription_changes` with their subscription and both plans).

use payments_core::{Cents, Proration, SpendPermissionData, TokenAmount, Wallet};
use payments_domain::recurring::{CustomerSubscriptionId, PlanId, SubscriptionChange, SubscriptionChangeId};

use super::{bad, json, units, units_column};

/// A pending change and the rows it touches: (change, subscription row, new plan row, credit before).
pub(crate) struct PendingRow(
    pub(crate) SubscriptionChange,
    pub(crate) i64,
    pub(crate) i64,
    pub(crate) TokenAmount,
);

/// A pending change with what its subscription holds now (its plan, price and permission are the old ones
/// until the change is applied).
pub(crate) struct ChangeRow {
    pub(crate) change_id: String,
    pub(crate) subscription_id: String,
    pub(crate) merchant: String,
    pub(crate) previous_plan_id: String,
    pub(crate) previous_price_cents: i64,
    pub(crate) old_permission_json: String,
    pub(crate) plan_id: String,
    pub(crate) price_cents: i64,
    pub(crate) permission_json: String,
    pub(crate) signature: Vec<u8>,
    pub(crate) permission_hash: String,
    pub(crate) period_index: i64,
    pub(crate) proration: String,
    pub(crate) proration_units: i64,
    pub(crate) fee_units: i64,
    pub(crate) net_units: i64,
    pub(crate) created_at: i64,
    pub(crate) subscription_row: i64,
    pub(crate) plan_row: i64,
    pub(crate) credit_units: i64,
}

impl ChangeRow {
    pub(crate) fn into_record(self) -> Result<PendingRow, String> {
        let old: SpendPermissionData = json("old_permission_json", &self.old_permission_json)?;
        let new: SpendPermissionData = json("permission_json", &self.permission_json)?;
        let amount = units(self.proration_units);
        let proration = match self.proration.as_str() {
            "charge" => Proration::Charge(amount),
            "credit" => Proration::Credit(amount),
            _ => Proration::Nothing,
        };
        let change = SubscriptionChange {
            id: SubscriptionChangeId::from_stored(self.change_id),
            subscription_id: CustomerSubscriptionId::from_stored(self.subscription_id),
            merchant: Wallet::parse(&self.merchant).map_err(|error| bad("merchant", error))?,
            previous_plan_id: PlanId::from_stored(self.previous_plan_id),
            previous_price: Cents::new(self.previous_price_cents),
            old_permission: old.parse().map_err(|error| bad("old_permission_json", error))?,
            plan_id: PlanId::from_stored(self.plan_id),
            price: Cents::new(self.price_cents),
            permission: new.parse().map_err(|error| bad("permission_json", error))?,
            signature: self.signature,
            permission_hash: self.permission_hash,
            period_index: u64::try_from(self.period_index).unwrap_or_default(),
            proration,
            fee: units(self.fee_units),
            net: units(self.net_units),
            created_at: self.created_at,
        };
        Ok(PendingRow(
            change,
            self.subscription_row,
            self.plan_row,
            units(self.credit_units),
        ))
    }
}

/// A proration's columns, the way [`ChangeRow`] reads them back: its kind and its base units.
pub(crate) fn proration_columns(proration: Proration) -> (&'static str, i64) {
    match proration {
        Proration::Charge(amount) => ("charge", units_column(amount)),
        Proration::Credit(amount) => ("credit", units_column(amount)),
        Proration::Nothing => ("none", 0),
    }
}
