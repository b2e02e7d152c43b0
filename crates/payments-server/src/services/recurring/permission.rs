//! `GET /api/subscriptions/plans/{planId}/permission`: the spend permission a customer signs to subscribe
//! (the exact EIP-712 document `subscribe` verifies) and whether the customer must first approve the token
//! for the spend permission manager, read on chain.

use alloy_primitives::U256;
use alloy_primitives::aliases::U48;
use payments_core::{
    SpendPermissionTypedData, SpendingConfig, SubscriptionPermissionOffer, TokenApproval, Wallet,
    aligned_permission_start, plan_permission, slot_at,
};

use crate::domain::recurring::{CustomerSubscriptionId, Plan, PlanId};
use crate::services::recurring::{RecurringError, RecurringService};

impl RecurringService {
    /// The permission `customer` signs for `plan_id`, started now (less a minute of slack for the chain's
    /// clock) with a random salt (each offer is a distinct permission), and the approval it needs.
    ///
    /// # Errors
    /// [`RecurringError::NotConfigured`] without a manager or spender, [`RecurringError::PlanNotFound`] /
    /// [`RecurringError::PlanInactive`], [`RecurringError::Chain`] when the allowance cannot be read.
    pub(crate) async fn permission_offer(
        &self,
        plan_id: &PlanId,
        customer: Wallet,
    ) -> Result<SubscriptionPermissionOffer, RecurringError> {
        self.offer(plan_id, customer, None).await
    }

    /// The permission the customer of `subscription_id` signs to move it to `plan_id`: as a subscribe
    /// offer, but starting at the subscription's latest charge slot not after now, so its on-chain periods
    /// are the subscription's billing periods (`POST /api/subscriptions/change` requires it).
    ///
    /// # Errors
    /// As [`RecurringService::permission_offer`], and [`RecurringError::SubscriptionNotFound`].
    pub(crate) async fn change_permission_offer(
        &self,
        plan_id: &PlanId,
        subscription_id: &CustomerSubscriptionId,
    ) -> Result<SubscriptionPermissionOffer, RecurringError> {
        let subscription = self
            .recurring
            .fetch_subscription(subscription_id)
            .await?
            .ok_or_else(|| RecurringError::SubscriptionNotFound(subscription_id.clone()))?;
        let slot = slot_at(
            subscription.anchor_ms,
            subscription.period,
            subscription.next_period_index,
        );
        let start = aligned_permission_start(slot, subscription.period.seconds(), self.now_ms());
        self.offer(plan_id, subscription.customer, Some(start)).await
    }

    /// The offer for `customer`, its permission starting at `start` (seconds) or now less the slack.
    async fn offer(
        &self,
        plan_id: &PlanId,
        customer: Wallet,
        start: Option<u64>,
    ) -> Result<SubscriptionPermissionOffer, RecurringError> {
        let domain = self.permission_domain()?;
        let spender = self.spender()?;
        let plan = self
            .recurring
            .fetch_plan(plan_id)
            .await?
            .ok_or_else(|| RecurringError::PlanNotFound(plan_id.clone()))?;
        if !plan.active {
            return Err(RecurringError::PlanInactive(plan.id));
        }
        let config = SpendingConfig {
            token: self.terms.token.address(),
            spender: spender.address(),
        };
        let now_secs = u64::try_from(self.now_ms() / 1000).unwrap_or_default();
        let mut permission = plan_permission(
            customer.address(),
            &plan.terms(),
            &config,
            now_secs,
            U256::from(rand::random::<u128>()),
        )
        .map_err(RecurringError::PermissionDoesNotFit)?;
        if let Some(start) = start {
            permission.start = U48::saturating_from(start);
        }
        let manager = Wallet::from_address(domain.verifying_contract);
        let current = self
            .chain
            .token_allowance(self.terms.token, customer, manager)
            .await?;
        Ok(SubscriptionPermissionOffer {
            approval: TokenApproval::for_allowance(
                self.terms.token,
                manager,
                current,
                U256::from(permission.allowance),
            ),
            typed_data: SpendPermissionTypedData::new(&permission, &domain),
        })
    }
}

/// A plan as its subscribe page shows it: the plan and its merchant's brand (empty when never set).
#[derive(Debug, Clone)]
pub(crate) struct PlanPage {
    pub(crate) plan: Plan,
    pub(crate) brand_name: String,
}

impl RecurringService {
    /// The plan of the subscribe page, `None` when there is no such plan (inactive plans are shown, closed).
    ///
    /// # Errors
    /// A datastore failure.
    pub(crate) async fn plan_page(&self, plan_id: &PlanId) -> Result<Option<PlanPage>, RecurringError> {
        let Some(plan) = self.recurring.fetch_plan(plan_id).await? else {
            return Ok(None);
        };
        let brand_name = self
            .shops
            .fetch_shop(plan.merchant)
            .await?
            .map(|shop| shop.brand_name)
            .unwrap_or_default();
        Ok(Some(PlanPage { plan, brand_name }))
    }
}
