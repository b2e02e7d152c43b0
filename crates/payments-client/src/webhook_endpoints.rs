//! Webhook endpoints of the key's merchant (`/api/webhook-endpoints`, scopes `webhooks:read` /
//! `webhooks:write`): register receivers for every receipt and subscription event, rotate their `whsec_`
//! secret, read their delivery log, redeliver, recover after an outage, and send test events.

use serde::{Deserialize, Serialize};
use url::Url;

use crate::client::{Auth, Client};
use crate::error::Error;
use crate::or_unknown::OrUnknown;
use crate::webhook_delivery::DeliveryState;

/// A webhook endpoint. `secret` is set only in the answers of create and rotate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct WebhookEndpoint {
    /// `we_...`.
    pub id: String,
    pub url: String,
    /// Event types or patterns (`*`, `receipt.*`, `subscription.charged`).
    pub events: Vec<String>,
    #[serde(default)]
    pub description: Option<String>,
    pub enabled: bool,
    /// Unix ms since when its deliveries have failed without a success.
    #[serde(default)]
    pub failing_since: Option<i64>,
    /// Unix ms until which the secret before the last rotation still signs.
    #[serde(default)]
    pub previous_secret_expires_at: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
    /// `whsec_...`: shown on create and rotate only.
    #[serde(default)]
    pub secret: Option<String>,
}

/// What to create or change; on update, `None` keeps the field.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct EndpointFields {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub events: Option<Vec<String>>,
    /// An empty text clears it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
}

impl EndpointFields {
    /// A new endpoint's fields: where and which events.
    pub fn new(url: impl Into<String>, events: Vec<String>) -> Self {
        EndpointFields {
            url: Some(url.into()),
            events: Some(events),
            ..EndpointFields::default()
        }
    }
}

/// One delivery of an endpoint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct EndpointDelivery {
    pub delivery_id: String,
    /// The event's id: the envelope's `id` and the `webhook-id` header.
    pub event_id: String,
    pub event_type: String,
    pub state: OrUnknown<DeliveryState>,
    pub attempts: i64,
    #[serde(default)]
    pub next_attempt_at: Option<i64>,
    pub created_at: i64,
    #[serde(default)]
    pub last_status_code: Option<u16>,
    #[serde(default)]
    pub last_error: Option<String>,
}

/// One page of an endpoint's deliveries, newest first.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct EndpointDeliveries {
    pub deliveries: Vec<EndpointDelivery>,
    /// Pass to the next call for older deliveries; `None` on the last page.
    #[serde(default)]
    pub next_cursor: Option<String>,
}

/// Which deliveries to list.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct DeliveryFilter {
    pub limit: Option<u32>,
    pub cursor: Option<String>,
    /// `pending`, `delivered` or `failed`.
    pub state: Option<String>,
    pub event_type: Option<String>,
}

/// A test event sent by [`Client::send_test_event`].
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SentTestEvent {
    pub event_id: String,
    #[serde(rename = "type")]
    pub event_type: String,
    /// How many deliveries were queued.
    pub deliveries: u64,
}

#[derive(Deserialize)]
struct EndpointList {
    endpoints: Vec<WebhookEndpoint>,
}

#[derive(Deserialize)]
struct Recovered {
    recovered: u64,
}

#[derive(Deserialize)]
struct Done {}

impl Client {
    /// `api/webhook-endpoints/{tail...}` with each segment percent-encoded.
    fn endpoints_url(&self, tail: &[&str]) -> Result<Url, Error> {
        let mut url = self.url("api/webhook-endpoints")?;
        url.path_segments_mut()
            .map_err(|()| Error::Config("the base URL cannot take a path".to_owned()))?
            .extend(tail);
        Ok(url)
    }

    /// `POST /api/webhook-endpoints` (scope `webhooks:write`): the answer carries the `whsec_` secret.
    ///
    /// # Errors
    /// [`Error::Api`] with 400 `invalid_input` (url, events, description) or 409 `too_many_endpoints`.
    pub async fn create_webhook_endpoint(&self, fields: &EndpointFields) -> Result<WebhookEndpoint, Error> {
        let request = self.http().post(self.endpoints_url(&[])?).json(fields);
        self.send_json(self.authorize(request, Auth::Subscription)).await
    }

    /// `GET /api/webhook-endpoints` (scope `webhooks:read`).
    ///
    /// # Errors
    /// [`Error::Api`] on a refusal; transport errors.
    pub async fn webhook_endpoints(&self) -> Result<Vec<WebhookEndpoint>, Error> {
        let request = self.http().get(self.endpoints_url(&[])?);
        let list: EndpointList = self
            .send_json(self.authorize(request, Auth::Subscription))
            .await?;
        Ok(list.endpoints)
    }

    /// `GET /api/webhook-endpoints/{id}`.
    ///
    /// # Errors
    /// [`Error::Api`] with 404 `not_found`.
    pub async fn webhook_endpoint(&self, id: &str) -> Result<WebhookEndpoint, Error> {
        let request = self.http().get(self.endpoints_url(&[id])?);
        self.send_json(self.authorize(request, Auth::Subscription)).await
    }

    /// `PATCH /api/webhook-endpoints/{id}`.
    ///
    /// # Errors
    /// [`Error::Api`] with 400 `invalid_input` or 404 `not_found`.
    pub async fn update_webhook_endpoint(
        &self,
        id: &str,
        fields: &EndpointFields,
    ) -> Result<WebhookEndpoint, Error> {
        let request = self.http().patch(self.endpoints_url(&[id])?).json(fields);
        self.send_json(self.authorize(request, Auth::Subscription)).await
    }

    /// `DELETE /api/webhook-endpoints/{id}`.
    ///
    /// # Errors
    /// [`Error::Api`] with 404 `not_found`.
    pub async fn delete_webhook_endpoint(&self, id: &str) -> Result<(), Error> {
        let request = self.http().delete(self.endpoints_url(&[id])?);
        let _: Done = self
            .send_json(self.authorize(request, Auth::Subscription))
            .await?;
        Ok(())
    }

    /// `POST /api/webhook-endpoints/{id}/rotate`: a new secret; the old one signs beside it for 24 h.
    ///
    /// # Errors
    /// [`Error::Api`] with 404 `not_found`.
    pub async fn rotate_webhook_endpoint_secret(&self, id: &str) -> Result<WebhookEndpoint, Error> {
        let request = self.http().post(self.endpoints_url(&[id, "rotate"])?);
        self.send_json(self.authorize(request, Auth::Subscription)).await
    }

    /// `GET /api/webhook-endpoints/{id}/deliveries`.
    ///
    /// # Errors
    /// [`Error::Api`] with 400 `invalid_input` (limit, cursor, state) or 404 `not_found`.
    pub async fn webhook_endpoint_deliveries(
        &self,
        id: &str,
        filter: &DeliveryFilter,
    ) -> Result<EndpointDeliveries, Error> {
        let mut url = self.endpoints_url(&[id, "deliveries"])?;
        {
            let mut query = url.query_pairs_mut();
            if let Some(limit) = filter.limit {
                query.append_pair("limit", &limit.to_string());
            }
            for (name, value) in [
                ("cursor", &filter.cursor),
                ("state", &filter.state),
                ("eventType", &filter.event_type),
            ] {
                if let Some(value) = value {
                    query.append_pair(name, value);
                }
            }
        }
        let request = self.http().get(url);
        self.send_json(self.authorize(request, Auth::Subscription)).await
    }

    /// `POST /api/webhook-endpoints/{id}/deliveries/{deliveryId}/redeliver`.
    ///
    /// # Errors
    /// [`Error::Api`] with 404 `not_found`.
    pub async fn redeliver_endpoint_delivery(&self, id: &str, delivery_id: &str) -> Result<(), Error> {
        let request = self
            .http()
            .post(self.endpoints_url(&[id, "deliveries", delivery_id, "redeliver"])?);
        let _: Done = self
            .send_json(self.authorize(request, Auth::Subscription))
            .await?;
        Ok(())
    }

    /// `POST /api/webhook-endpoints/{id}/recover`: sends again every failed delivery since `since_ms`;
    /// how many.
    ///
    /// # Errors
    /// [`Error::Api`] with 400 `invalid_input` (a future time) or 404 `not_found`.
    pub async fn recover_webhook_endpoint(&self, id: &str, since_ms: i64) -> Result<u64, Error> {
        let request = self
            .http()
            .post(self.endpoints_url(&[id, "recover"])?)
            .json(&serde_json::json!({ "since": since_ms }));
        let recovered: Recovered = self
            .send_json(self.authorize(request, Auth::Subscription))
            .await?;
        Ok(recovered.recovered)
    }

    /// `POST /api/webhook-endpoints/test-event`: a realistic event marked `"test": true`, to every matching
    /// endpoint or to `endpoint_id` only.
    ///
    /// # Errors
    /// [`Error::Api`] with 400 `invalid_input` (an unknown type) or 404 `not_found`.
    pub async fn send_test_event(
        &self,
        event_type: &str,
        endpoint_id: Option<&str>,
    ) -> Result<SentTestEvent, Error> {
        let request = self
            .http()
            .post(self.endpoints_url(&["test-event"])?)
            .json(&serde_json::json!({ "type": event_type, "endpointId": endpoint_id }));
        self.send_json(self.authorize(request, Auth::Subscription)).await
    }
}
