//! Recurring billing: plans, customer subscriptions backed by signed spend permissions, and the batch that
//! charges them on chain exactly once per period (see `docs/subscriptions.md`).

mod attempt;
mod batch;
mod cancel;
mod change;
mod change_send;
mod error;
mod notice;
mod permission;
mod plan_deliveries;
mod plan_webhook;
mod revoke;
mod scheduler;
mod subscribe;
mod test_fund;

use std::sync::Arc;
use std::time::Duration;

use payments_core::{FailurePolicy, SpendPermissionDomain, Wallet};
use tokio::sync::Notify;

use crate::chain::Chain;
use crate::domain::recurring::{
    BillingEvent, CustomerSubscription, CustomerSubscriptionId, Plan, PlanUpdate, StatusQuery,
};
use crate::runtime::clock::Clock;
use crate::runtime::master_key::MasterKey;
use crate::secret::Secret;
use crate::services::idempotency::Outcome;
use crate::services::receipts::IdempotencyRequest;
use crate::store::{EarlierCall, IdempotencyClaim, OutboxRepository, RecurringRepository, ShopRepository};

pub(crate) use crate::domain::recurring::ChangedSubscription;
pub(crate) use cancel::CancelAuthority;
pub(crate) use error::RecurringError;
pub(crate) use scheduler::start_scheduler;
pub(crate) use subscribe::SubscribeError;

/// Pause between reads of a key whose earlier call committed without keeping its answer yet, and how many
/// pauses (about 0.1 s in all) before the answer is recovered from the resource the claim names.
const KEEP_WAIT: Duration = Duration::from_millis(10);
const KEEP_WAITS: u32 = 10;

/// The `Idempotency-Key` scope of plan creates, claimed per merchant.
const PLANS_SCOPE: &str = "plans.create";
/// The `Idempotency-Key` scope of subscription creates, claimed per customer wallet.
const SUBSCRIPTIONS_SCOPE: &str = "subscriptions.create";

/// What the platform requires of every subscription and charge, from the configuration.
#[derive(Debug, Clone)]
pub(crate) struct RecurringTerms {
    /// The chain permissions are signed for (and cancellations).
    pub(crate) chain_id: u64,
    /// The spend permission manager: the permissions' verifying contract. `None`: subscriptions are off.
    pub(crate) manager: Option<Wallet>,
    /// The token every permission must name.
    pub(crate) token: Wallet,
    /// The spender every permission must name; `None` takes the chain's relayer.
    pub(crate) spender: Option<Wallet>,
    /// The platform fee of each charge, in basis points.
    pub(crate) fee_bps: u32,
    /// Where the fee goes; charges are refused without it.
    pub(crate) platform_recipient: Option<Wallet>,
    pub(crate) policy: FailurePolicy,
    /// How long a batch run holds a claim before another run may reconcile it.
    pub(crate) lease: Duration,
    /// How long before a charge its `subscription.charge_upcoming` notice is sent (zero: never).
    pub(crate) notice: Duration,
    /// Subscriptions claimed (and settled) per transaction.
    pub(crate) chunk: u32,
    /// Chain transactions in flight at once within a chunk.
    pub(crate) concurrency: usize,
}

/// Plans, subscriptions and the charge batch.
#[derive(Debug, Clone)]
pub(crate) struct RecurringService {
    pub(crate) recurring: Arc<dyn RecurringRepository>,
    /// The plans' webhook deliveries (their log and redelivery).
    pub(crate) outbox: Arc<dyn OutboxRepository>,
    pub(crate) shops: Arc<dyn ShopRepository>,
    pub(crate) chain: Arc<dyn Chain>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) terms: RecurringTerms,
    /// Seals the API key that signs a plan's webhooks.
    pub(crate) master_key: Option<MasterKey>,
    /// The webhook dispatcher's wake-up, signalled after a commit that may have enqueued a delivery.
    pub(crate) outbox_wakeup: Arc<Notify>,
}

impl RecurringService {
    pub(crate) fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    /// The EIP-712 domain permissions are verified under.
    fn permission_domain(&self) -> Result<SpendPermissionDomain, RecurringError> {
        let manager = self.terms.manager.ok_or(RecurringError::NotConfigured)?;
        Ok(SpendPermissionDomain {
            chain_id: self.terms.chain_id,
            verifying_contract: manager.address(),
        })
    }

    /// The platform's spender: the configured one, else the chain's relayer.
    fn spender(&self) -> Result<Wallet, RecurringError> {
        self.terms
            .spender
            .or_else(|| self.chain.relayer())
            .ok_or(RecurringError::NotConfigured)
    }

    /// What an earlier call under `claim`'s key (for its wallet and scope) left, read before the use case's
    /// checks so that a retry of a success is answered as it was whatever changed since: its kept answer, or,
    /// when it committed without keeping one yet, the resource its claim names. That call is almost always
    /// keeping its answer right now, so it is waited for (about 0.1 s) first. `None` when the key is fresh.
    ///
    /// # Errors
    /// [`RecurringError::IdempotencyConflict`] when the key was used with another body.
    async fn earlier_call(
        &self,
        claim: Option<&IdempotencyClaim>,
    ) -> Result<Option<EarlierCall>, RecurringError> {
        let Some(claim) = claim else {
            return Ok(None);
        };
        let mut waits = 0;
        loop {
            match self.recurring.earlier_call(claim).await? {
                Some(earlier) if earlier.request_hash() != claim.request_hash => {
                    return Err(RecurringError::IdempotencyConflict);
                }
                Some(EarlierCall::Committed { .. }) if waits < KEEP_WAITS => {
                    waits += 1;
                    tokio::time::sleep(KEEP_WAIT).await;
                }
                earlier => return Ok(earlier),
            }
        }
    }

    pub(crate) async fn active_plans(&self, merchant: Wallet) -> Result<Vec<Plan>, RecurringError> {
        Ok(self.recurring.active_plans(merchant).await?)
    }

    /// Stores a new plan; a webhook target is signed with `key`, the caller's API key. With an
    /// `Idempotency-Key` (claimed per merchant), a replay answers the response kept by the first create.
    ///
    /// # Errors
    /// [`RecurringError::WebhookRequiresKey`] for a webhook target without a key;
    /// [`RecurringError::IdempotencyConflict`] when the key was used with another body.
    pub(crate) async fn create_plan(
        &self,
        mut plan: Plan,
        key: Option<&Secret>,
        idempotency: Option<IdempotencyRequest>,
    ) -> Result<Outcome<Plan>, RecurringError> {
        plan.webhook = self.seal_webhook(&plan.id, plan.webhook.take(), key)?;
        let claim = idempotency.map(|request| request.claim(plan.merchant, PLANS_SCOPE, self.now_ms()));
        let committed = self.recurring.create_plan(&plan, claim.clone()).await?;
        Ok(Outcome::new(committed, claim))
    }

    /// # Errors
    /// [`RecurringError::PlanNotFound`] when the merchant has no plan with that id;
    /// [`RecurringError::WebhookRequiresKey`] for a new webhook target without a key.
    pub(crate) async fn update_plan(
        &self,
        mut update: PlanUpdate,
        key: Option<&Secret>,
    ) -> Result<Plan, RecurringError> {
        if let Some(webhook) = update.webhook.take() {
            update.webhook = Some(self.seal_webhook(&update.id, webhook, key)?);
        }
        self.recurring
            .update_plan(&update)
            .await?
            .ok_or_else(|| RecurringError::PlanNotFound(update.id.clone()))
    }

    pub(crate) async fn billing_events(
        &self,
        id: &CustomerSubscriptionId,
    ) -> Result<Vec<BillingEvent>, RecurringError> {
        Ok(self.recurring.billing_events(id).await?)
    }

    pub(crate) async fn status(
        &self,
        query: &StatusQuery,
    ) -> Result<Vec<CustomerSubscription>, RecurringError> {
        Ok(self.recurring.find_subscriptions(query).await?)
    }
}
