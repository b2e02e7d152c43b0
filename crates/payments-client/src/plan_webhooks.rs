//! A plan's webhook delivery log and redelivery (`/api/subscriptions/plans/{planId}/webhooks`), for its
//! merchant's key (`subscriptions:read` to list, `subscriptions:write` to redeliver), as a receipt's.

use serde::Deserialize;
use url::Url;

use crate::client::{Auth, Client};
use crate::error::Error;
use crate::webhook_delivery::WebhookDelivery;

#[derive(Debug, Deserialize)]
struct PlanDeliveries {
    deliveries: Vec<WebhookDelivery>,
}

#[derive(Debug, Deserialize)]
struct Redelivered {}

impl Client {
    /// `GET /api/subscriptions/plans/{planId}/webhooks`: the deliveries of every subscription on the plan
    /// (each naming its [`WebhookDelivery::subscription_id`]) and their attempts, oldest first.
    ///
    /// # Errors
    /// [`Error::Api`] with 404 `not_found` for a plan that is not the key's merchant's.
    pub async fn plan_webhooks(&self, plan_id: &str) -> Result<Vec<WebhookDelivery>, Error> {
        let url = self.plan_url(plan_id, &["webhooks"])?;
        let reply: PlanDeliveries = self.get_json(url, Auth::Subscription).await?;
        Ok(reply.deliveries)
    }

    /// `POST /api/subscriptions/plans/{planId}/webhooks/{deliveryId}/redeliver`: the same body again, same
    /// delivery id, a new round of attempts.
    ///
    /// # Errors
    /// [`Error::Api`] with 404 `not_found` for an unknown plan or delivery.
    pub async fn redeliver_plan_webhook(&self, plan_id: &str, delivery_id: &str) -> Result<(), Error> {
        let url = self.plan_url(plan_id, &["webhooks", delivery_id, "redeliver"])?;
        let request = self.http().post(url);
        let _: Redelivered = self
            .send_json(self.authorize(request, Auth::Subscription))
            .await?;
        Ok(())
    }

    /// `api/subscriptions/plans/{planId}/{tail...}` with each segment percent-encoded.
    fn plan_url(&self, plan_id: &str, tail: &[&str]) -> Result<Url, Error> {
        let mut url = self.url("api/subscriptions/plans")?;
        url.path_segments_mut()
            .map_err(|()| Error::Config("the base URL cannot take a path".to_owned()))?
            .push(plan_id)
            .extend(tail);
        Ok(url)
    }
}
