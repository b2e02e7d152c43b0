//! A customer moving its subscription to another plan of the same merchant: the request, the change as it
//! is recorded before the chain is asked (`pending`), and what finishing it writes.

use payments_core::{
    Cents, PlanChangeFacts, Proration, SpendPermission, SpendPermissionData, TokenAmount, Wallet,
};

use crate::recurring::{
    BillingEvent, BillingEventStatus, CustomerSubscription, CustomerSubscriptionId, PlanId,
};

/// `POST /api/subscriptions/change` body: the customer's signed permission for the new plan.
#[derive(Debug, Clone)]
pub struct ChangeSubscriptionRequest {
    pub subscription_id: Option<String>,
    pub new_plan_id: Option<String>,
    pub permission_signature: Option<String>,
    pub permission_data: Option<SpendPermissionData>,
}

/// A plan change's id, `chg_` + 32 hex digits (internal: the record that makes the change exactly once).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SubscriptionChangeId(String);

impl SubscriptionChangeId {
    pub fn generate() -> Self {
        SubscriptionChangeId(format!("chg_{}", uuid::Uuid::new_v4().simple()))
    }

    pub fn from_stored(id: String) -> Self {
        SubscriptionChangeId(id)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A plan change decided and recorded `pending` (with a lease) before its one chain transaction is sent:
/// everything needed to finish it from the record alone, so a change whose run crashed after sending is
/// reconciled from the chain and finished, or failed, by a later run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubscriptionChange {
    pub id: SubscriptionChangeId,
    pub subscription_id: CustomerSubscriptionId,
    pub merchant: Wallet,
    pub previous_plan_id: PlanId,
    pub previous_price: Cents,
    /// The permission the subscription ran on: revoked by the change.
    pub old_permission: SpendPermission,
    pub plan_id: PlanId,
    pub price: Cents,
    pub permission: SpendPermission,
    pub signature: Vec<u8>,
    /// The new permission's EIP-712 hash, `0x` hex (unique among subscriptions).
    pub permission_hash: String,
    /// The period the change falls in (the prorated charge's billing event names it).
    pub period_index: u64,
    pub proration: Proration,
    /// The platform fee and the merchant's part of a prorated charge (both zero otherwise).
    pub fee: TokenAmount,
    pub net: TokenAmount,
    pub created_at: i64,
}

impl SubscriptionChange {
    /// What the change charges at once (zero unless an upgrade).
    pub fn charge(&self) -> TokenAmount {
        match self.proration {
            Proration::Charge(amount) => amount,
            Proration::Credit(_) | Proration::Nothing => TokenAmount::default(),
        }
    }

    /// The `planChange` part of its `subscription.updated` webhook, for a subscription that held
    /// `credit_before`.
    pub fn facts(&self, credit_before: TokenAmount, transaction_hash: Option<String>) -> PlanChangeFacts {
        PlanChangeFacts {
            previous_plan_id: self.previous_plan_id.as_str().to_owned(),
            previous_price: self.previous_price.to_token_amount().unwrap_or_default(),
            proration: self.proration,
            fee: self.fee,
            net: self.net,
            credit_balance: TokenAmount::from_base_units(
                credit_before
                    .base_units()
                    .saturating_add(self.credit().base_units()),
            ),
            transaction_hash,
        }
    }

    /// The `prorated_charge` billing event of an upgrade's prorated charge, in the period the change falls in;
    /// `None` when the change charged nothing.
    pub fn prorated_charge_event(
        &self,
        transaction_hash: Option<String>,
        now_ms: i64,
    ) -> Option<BillingEvent> {
        let charged = self.charge();
        (charged.base_units() > 0).then(|| {
            BillingEvent::with_units(
                self.subscription_id.clone(),
                self.period_index,
                BillingEventStatus::ProratedCharge,
                charged.to_cents_half_up().unwrap_or(Cents::ZERO),
                (self.fee, self.net),
                transaction_hash,
                None,
                now_ms,
            )
        })
    }

    /// What the change credits to the next charges (zero unless a downgrade).
    pub fn credit(&self) -> TokenAmount {
        match self.proration {
            Proration::Credit(amount) => amount,
            Proration::Charge(_) | Proration::Nothing => TokenAmount::default(),
        }
    }
}

/// A plan change applied: the subscription on its new plan, and what the change did to money (the answer
/// to the change, and what a replay whose answer was lost recovers from the change's record).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangedSubscription {
    pub subscription: CustomerSubscription,
    pub change: PlanChangeFacts,
}

/// Why a change was not recorded (or not applied); nothing was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeRefusal {
    /// The subscription is canceled (or unknown).
    Canceled,
    /// A charge or another change of this subscription is in flight.
    Busy,
    /// Another subscription already uses the new permission.
    PermissionReused,
    /// The new plan is unknown or inactive (checked again inside the transaction).
    PlanUnavailable,
}

impl CustomerSubscription {
    /// The subscription once `change` is applied at `now_ms`: the new plan, price and permission, and the
    /// change's credit added to what it held (as the store writes it).
    pub fn switched(&self, change: &SubscriptionChange, now_ms: i64) -> CustomerSubscription {
        CustomerSubscription {
            plan_id: change.plan_id.clone(),
            price: change.price,
            permission: change.permission.clone(),
            signature: change.signature.clone(),
            credit: TokenAmount::from_base_units(
                self.credit
                    .base_units()
                    .saturating_add(change.credit().base_units()),
            ),
            updated_at: now_ms,
            ..self.clone()
        }
    }
}
