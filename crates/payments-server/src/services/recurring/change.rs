//! `POST /api/subscriptions/change`: the customer moves its subscription to another plan of the same
//! merchant by signing a spend permission for it (the subscribe flow's EIP-712 document). The change is
//! decided here (who may, which plan, which permission, what it costs: `payments_core::prorate`), recorded
//! `pending` (`RecurringRepository::begin_change`), sent as one transaction of the manager's
//! `changePermission` (the old permission revoked, the new one approved and, for an upgrade, charged the
//! prorated difference) and then applied or failed (`change_send`). See docs/subscriptions.md, "Plan
//! changes".

use payments_core::{
    Proration, SpendPermission, SpendingConfig, SubscriptionChargeUnits, TokenAmount, check_change_alignment,
    check_permission_fits_plan, prorate, slot_at,
};

use crate::domain::field_error::FieldError;
use crate::domain::recurring::{
    ChangeSubscriptionRequest, ChangedSubscription, CustomerSubscription, CustomerSubscriptionId, Plan,
    PlanId, SubscriptionChange, SubscriptionChangeId,
};
use crate::services::idempotency::Outcome;
use crate::services::receipts::IdempotencyRequest;
use crate::services::recurring::subscribe::{SubscribeError, gone, parse_signed_permission};
use crate::services::recurring::{RecurringError, RecurringService};
use crate::store::{Committed, EarlierCall, Resource};

/// The `Idempotency-Key` scope of plan changes, claimed per customer wallet.
const CHANGES_SCOPE: &str = "subscriptions.change";

/// A change request with its fields present and well-formed.
struct ParsedChange {
    subscription_id: CustomerSubscriptionId,
    plan_id: PlanId,
    signature: Vec<u8>,
    permission: SpendPermission,
}

fn parse(request: &ChangeSubscriptionRequest) -> Result<Result<ParsedChange, RecurringError>, FieldError> {
    let subscription_id =
        CustomerSubscriptionId::parse("subscriptionId", request.subscription_id.as_deref().unwrap_or(""))?;
    let plan_id = PlanId::parse("newPlanId", request.new_plan_id.as_deref().unwrap_or(""))?;
    Ok(parse_signed_permission(
        request.permission_signature.as_deref(),
        request.permission_data.as_ref(),
    )?
    .map(|(signature, permission)| ParsedChange {
        subscription_id,
        plan_id,
        signature,
        permission,
    }))
}

impl RecurringService {
    /// Moves a subscription to another plan (see the module docs). The customer's signature is checked
    /// first, then the `Idempotency-Key` (claimed per customer wallet): an earlier change under it is
    /// answered at once, as for subscribe, from its kept answer or from the change's record. A fresh change
    /// commits its claim with the change when it is applied; the caller keeps the answer.
    ///
    /// # Errors
    /// [`SubscribeError::Field`] for a missing or malformed field, else [`SubscribeError::Refused`] with the
    /// reason (see [`RecurringError`]).
    pub(crate) async fn change_plan(
        &self,
        request: &ChangeSubscriptionRequest,
        idempotency: Option<IdempotencyRequest>,
    ) -> Result<Outcome<ChangedSubscription>, SubscribeError> {
        let parsed = parse(request)?.map_err(SubscribeError::Refused)?;
        let subscription = self
            .recurring
            .fetch_subscription(&parsed.subscription_id)
            .await
            .map_err(RecurringError::from)?
            .ok_or_else(|| RecurringError::SubscriptionNotFound(parsed.subscription_id.clone()))?;
        let hash = self.signed_by_subscriber(&subscription, &parsed).await?;
        let claim =
            idempotency.map(|request| request.claim(subscription.customer, CHANGES_SCOPE, self.now_ms()));
        let committed = match self.earlier_call(claim.as_ref()).await? {
            Some(EarlierCall::Kept(kept)) => Committed::Replayed(kept),
            Some(EarlierCall::Committed { resource, .. }) => {
                Committed::Recovered(self.recovered_change(&resource).await?)
            }
            None => {
                // A change a crashed run left pending blocks this subscription until it is settled from the
                // chain.
                self.reconcile_changes().await?;
                let change = self.decide_change(&subscription, parsed, hash).await?;
                self.make_change(&subscription, change, claim.clone()).await?
            }
        };
        Ok(Outcome::new(committed, claim))
    }

    /// The change an earlier call under the same key applied, from its record.
    async fn recovered_change(&self, resource: &Resource) -> Result<ChangedSubscription, RecurringError> {
        let found = match resource {
            Resource::Change(id) => self.recurring.applied_change(id).await?,
            _ => None,
        };
        found.ok_or_else(|| gone(resource))
    }

    /// The permission is the subscription customer's and signed by it; answers its hash.
    async fn signed_by_subscriber(
        &self,
        subscription: &CustomerSubscription,
        parsed: &ParsedChange,
    ) -> Result<alloy_primitives::B256, RecurringError> {
        let domain = self.permission_domain()?;
        if parsed.permission.account != subscription.customer.address() {
            return Err(RecurringError::NotSubscriptionCustomer);
        }
        let hash = parsed.permission.signing_hash(&domain);
        self.check_signer(&parsed.permission, &parsed.signature, subscription.customer, hash)
            .await?;
        Ok(hash)
    }

    /// The change the request asks for, checked against the subscription, the new plan and the schedule,
    /// with its proration.
    async fn decide_change(
        &self,
        subscription: &CustomerSubscription,
        parsed: ParsedChange,
        hash: alloy_primitives::B256,
    ) -> Result<SubscriptionChange, RecurringError> {
        if !subscription.status.is_chargeable() {
            return Err(RecurringError::SubscriptionCanceled(subscription.id.clone()));
        }
        let plan = self.new_plan(subscription, &parsed.plan_id).await?;
        let now_ms = self.now_ms();
        let spender = self.spender()?;
        let config = SpendingConfig {
            token: self.terms.token.address(),
            spender: spender.address(),
        };
        check_permission_fits_plan(
            &parsed.permission,
            &plan.terms(),
            &config,
            subscription.next_charge_at,
            now_ms,
        )
        .map_err(RecurringError::PermissionDoesNotFit)?;
        let paid = subscription.paid_period(now_ms);
        let proration = match paid {
            Some((_, start_ms, end_ms)) => prorate(
                subscription.price.to_token_amount().unwrap_or_default(),
                plan.price.to_token_amount().unwrap_or_default(),
                start_ms,
                end_ms,
                now_ms,
            )
            .unwrap_or(Proration::Nothing),
            None => Proration::Nothing,
        };
        let charges_now = matches!(proration, Proration::Charge(_));
        let next_slot = slot_at(
            subscription.anchor_ms,
            subscription.period,
            subscription.next_period_index,
        );
        check_change_alignment(&parsed.permission, next_slot, now_ms, charges_now)
            .map_err(RecurringError::ChangeMisaligned)?;
        let charge = match proration {
            Proration::Charge(amount) => SubscriptionChargeUnits::of_units(amount, self.terms.fee_bps),
            Proration::Credit(_) | Proration::Nothing => {
                SubscriptionChargeUnits::of_units(TokenAmount::default(), self.terms.fee_bps)
            }
        };
        Ok(SubscriptionChange {
            id: SubscriptionChangeId::generate(),
            subscription_id: subscription.id.clone(),
            merchant: subscription.merchant,
            previous_plan_id: subscription.plan_id.clone(),
            previous_price: subscription.price,
            old_permission: subscription.permission.clone(),
            plan_id: plan.id,
            price: plan.price,
            permission: parsed.permission,
            signature: parsed.signature,
            permission_hash: hash.to_string(),
            period_index: paid.map_or(subscription.next_period_index, |(index, ..)| index),
            proration,
            fee: charge.platform_fee,
            net: charge.merchant_net,
            created_at: now_ms,
        })
    }

    /// The plan `plan_id` when the subscription may move to it: another active plan of its merchant with
    /// its billing period.
    async fn new_plan(
        &self,
        subscription: &CustomerSubscription,
        plan_id: &PlanId,
    ) -> Result<Plan, RecurringError> {
        let plan = self
            .recurring
            .fetch_plan(plan_id)
            .await?
            .ok_or_else(|| RecurringError::PlanUnknown(plan_id.clone()))?;
        if plan.merchant != subscription.merchant {
            return Err(RecurringError::PlanOfAnotherMerchant(plan.id));
        }
        if plan.id == subscription.plan_id {
            return Err(RecurringError::SamePlan(plan.id));
        }
        if !plan.active {
            return Err(RecurringError::PlanInactive(plan.id));
        }
        if plan.period != subscription.period {
            return Err(RecurringError::PeriodChange {
                plan: plan.id,
                from: subscription.period,
                to: plan.period,
            });
        }
        Ok(plan)
    }
}
