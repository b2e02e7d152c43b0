//! A customer's subscription to a plan: the create, status and cancel bodies, and the stored record.

use payments_core::{
    BillingPeriod, Cents, SpendPermission, SpendPermissionData, SubscriptionStatus, TokenAmount, Wallet,
    due_slot, slot_at,
};

use crate::field_error::FieldError;
use crate::recurring::{CustomerSubscriptionId, PlanId};

/// `POST /api/subscriptions/create` body.
#[derive(Debug, Clone)]
pub struct CreateSubscriptionRequest {
    pub plan_id: Option<String>,
    pub customer_wallet: Option<String>,
    pub permission_signature: Option<String>,
    pub permission_data: Option<SpendPermissionData>,
}

/// `POST /api/subscriptions/cancel` body: `signature` is the customer's EIP-712 `CancelSubscription`
/// signature, needed unless the caller has a signed-in session of the customer or the merchant.
#[derive(Debug, Clone)]
pub struct CancelRequest {
    pub subscription_id: Option<String>,
    pub wallet: Option<String>,
    pub signature: Option<String>,
}

impl CancelRequest {
    /// The subscription and the wallet asking.
    pub fn parse(&self) -> Result<(CustomerSubscriptionId, Wallet), FieldError> {
        let id =
            CustomerSubscriptionId::parse("subscriptionId", self.subscription_id.as_deref().unwrap_or(""))?;
        let wallet = Wallet::parse(self.wallet.as_deref().unwrap_or(""))
            .map_err(|_| FieldError::new("wallet", "must be a 0x address"))?;
        Ok((id, wallet))
    }
}

/// `GET /api/subscriptions/status`: exactly one of `subscriptionId`, `customer`, `merchant`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StatusQuery {
    Id(CustomerSubscriptionId),
    Customer(Wallet),
    Merchant(Wallet),
}

impl StatusQuery {
    /// # Errors
    /// When none or more than one of the three is given, or the one given is malformed.
    pub fn parse(
        subscription_id: Option<&str>,
        customer: Option<&str>,
        merchant: Option<&str>,
    ) -> Result<Self, FieldError> {
        let wallet = |field: &str, text: &str| {
            Wallet::parse(text).map_err(|_| FieldError::new(field, "must be a 0x address"))
        };
        match (subscription_id, customer, merchant) {
            (Some(id), None, None) => {
                CustomerSubscriptionId::parse("subscriptionId", id).map(StatusQuery::Id)
            }
            (None, Some(customer), None) => wallet("customer", customer).map(StatusQuery::Customer),
            (None, None, Some(merchant)) => wallet("merchant", merchant).map(StatusQuery::Merchant),
            _ => Err(FieldError::new(
                "subscriptionId",
                "give exactly one of subscriptionId, customer or merchant",
            )),
        }
    }
}

/// A subscription to store: checked against its plan, its permission signature verified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewCustomerSubscription {
    pub id: CustomerSubscriptionId,
    pub plan_id: PlanId,
    pub merchant: Wallet,
    pub customer: Wallet,
    pub price: Cents,
    pub period: BillingPeriod,
    pub permission: SpendPermission,
    pub signature: Vec<u8>,
    /// The permission's EIP-712 signing hash, `0x` hex: unique, so one signed permission backs one
    /// subscription.
    pub permission_hash: String,
    /// Slot 0 of the schedule: the first charge, due at once or at the end of the plan's trial.
    pub anchor_ms: i64,
}

/// What creating a subscription did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CreateSubscriptionOutcome {
    Created(Box<CustomerSubscription>),
    /// Another subscription already uses this permission; nothing was written.
    PermissionReused,
    /// The plan is unknown or inactive (checked again inside the transaction); nothing was written.
    PlanUnavailable,
}

/// Why a subscription was not stored; nothing was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubscriptionRefusal {
    /// Another subscription already uses this permission.
    PermissionReused,
    /// The plan is unknown or inactive (checked again inside the transaction).
    PlanUnavailable,
}

impl CreateSubscriptionOutcome {
    /// The stored subscription, or why there is none.
    pub fn into_result(self) -> Result<CustomerSubscription, SubscriptionRefusal> {
        match self {
            CreateSubscriptionOutcome::Created(subscription) => Ok(*subscription),
            CreateSubscriptionOutcome::PermissionReused => Err(SubscriptionRefusal::PermissionReused),
            CreateSubscriptionOutcome::PlanUnavailable => Err(SubscriptionRefusal::PlanUnavailable),
        }
    }
}

/// A stored customer subscription.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomerSubscription {
    pub id: CustomerSubscriptionId,
    pub plan_id: PlanId,
    pub merchant: Wallet,
    pub customer: Wallet,
    /// The price and period signed for (a later change of the plan itself does not touch them; the
    /// customer's move to another plan does).
    pub price: Cents,
    pub period: BillingPeriod,
    pub permission: SpendPermission,
    pub signature: Vec<u8>,
    pub status: SubscriptionStatus,
    pub anchor_ms: i64,
    /// The period the next attempt charges (its slot is `anchor + index * period`, or a retry time).
    pub next_period_index: u64,
    pub next_charge_at: i64,
    /// Attempts already made of `next_period_index`.
    pub attempts: u32,
    /// Consecutive periods whose every attempt failed.
    pub failed_periods: u32,
    pub created_at: i64,
    pub updated_at: i64,
    pub canceled_at: Option<i64>,
    /// Why the platform ended it (`revoked_on_chain`); `None` when a person or the failure policy did.
    pub cancel_reason: Option<String>,
    /// What a downgrade credited and no charge has used yet: taken off the next charges first.
    pub credit: TokenAmount,
}

impl CustomerSubscription {
    /// The period a due subscription charges at `now_ms` and the attempts already made of it: the scheduled
    /// one, or the latest slot when runs were missed (a run never charges more than one period per
    /// subscription; missed periods are not charged after the fact).
    pub fn period_to_charge(&self, now_ms: i64) -> (u64, u32) {
        let latest = due_slot(self.anchor_ms, self.period, now_ms).unwrap_or(0);
        if latest > self.next_period_index {
            (latest, 0)
        } else {
            (self.next_period_index, self.attempts)
        }
    }
}

impl CustomerSubscription {
    /// The billing period `(index, start_ms, end_ms)` the customer has paid for and is in at `now_ms`: the
    /// one before `next_period_index`, when it was charged (`active`, no attempt of the next one made yet)
    /// and the next charge is still ahead. `None` in a trial, while a charge is due or retried, and once
    /// past due or canceled: nothing of the current period was paid, so a plan change prorates nothing.
    pub fn paid_period(&self, now_ms: i64) -> Option<(u64, i64, i64)> {
        let paid =
            self.status == SubscriptionStatus::Active && self.attempts == 0 && self.next_charge_at > now_ms;
        let index = self.next_period_index.checked_sub(1).filter(|_| paid)?;
        Some((
            index,
            slot_at(self.anchor_ms, self.period, index),
            slot_at(self.anchor_ms, self.period, self.next_period_index),
        ))
    }
}

impl NewCustomerSubscription {
    /// Its status when stored at `now_ms`: `trialing` until a first charge that lies in the future.
    pub fn initial_status(&self, now_ms: i64) -> SubscriptionStatus {
        if self.anchor_ms > now_ms {
            SubscriptionStatus::Trialing
        } else {
            SubscriptionStatus::Active
        }
    }

    /// The record as stored, before any charge.
    pub fn stored(&self, now_ms: i64) -> CustomerSubscription {
        CustomerSubscription {
            id: self.id.clone(),
            plan_id: self.plan_id.clone(),
            merchant: self.merchant,
            customer: self.customer,
            price: self.price,
            period: self.period,
            permission: self.permission.clone(),
            signature: self.signature.clone(),
            status: self.initial_status(now_ms),
            anchor_ms: self.anchor_ms,
            next_period_index: 0,
            next_charge_at: self.anchor_ms,
            attempts: 0,
            failed_periods: 0,
            created_at: now_ms,
            updated_at: now_ms,
            canceled_at: None,
            cancel_reason: None,
            credit: TokenAmount::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WALLET: &str = "0x00000000000000000000000000000000000000aa";

    #[test]
    fn a_status_query_takes_exactly_one_selector() {
        assert_eq!(
            StatusQuery::parse(None, Some(WALLET), None),
            Ok(StatusQuery::Customer(Wallet::parse(WALLET).unwrap()))
        );
        assert!(StatusQuery::parse(None, None, None).is_err());
        assert!(StatusQuery::parse(Some("sub_1"), None, Some(WALLET)).is_err());
        assert!(StatusQuery::parse(None, Some("nope"), None).is_err());
    }
}
