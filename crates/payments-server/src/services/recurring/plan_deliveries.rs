//! A plan's webhook delivery log and redelivery, for its merchant: what receipts have
//! (`GET /api/receipts/{id}/webhooks`, `.../redeliver`), over the deliveries of every subscription on the
//! plan.

use payments_core::Wallet;

use crate::domain::recurring::PlanId;
use crate::services::recurring::{RecurringError, RecurringService};
use crate::store::DeliveryLog;

impl RecurringService {
    /// The deliveries to the plan's webhook target, oldest first, each with its subscription and attempts.
    ///
    /// # Errors
    /// [`RecurringError::PlanNotFound`] when the merchant has no such plan.
    pub(crate) async fn plan_deliveries(
        &self,
        merchant: Wallet,
        plan_id: &PlanId,
    ) -> Result<Vec<DeliveryLog>, RecurringError> {
        self.outbox
            .list_plan_deliveries(merchant, plan_id)
            .await?
            .ok_or_else(|| RecurringError::PlanNotFound(plan_id.clone()))
    }

    /// Sends a delivery of the plan again: the same body and delivery id, a new round of attempts.
    ///
    /// # Errors
    /// [`RecurringError::DeliveryNotFound`] when the merchant's plan has no such delivery (or no such plan).
    pub(crate) async fn redeliver_plan_delivery(
        &self,
        merchant: Wallet,
        plan_id: &PlanId,
        delivery_id: &str,
    ) -> Result<(), RecurringError> {
        let found = self
            .outbox
            .redeliver_plan_delivery(merchant, plan_id, delivery_id, self.now_ms())
            .await?;
        if !found {
            return Err(RecurringError::DeliveryNotFound {
                plan: plan_id.clone(),
                delivery: delivery_id.to_owned(),
            });
        }
        self.outbox_wakeup.notify_one();
        Ok(())
    }
}
