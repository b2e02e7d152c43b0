//! Merchant webhook endpoints (issue 28, docs/webhooks.md#endpoints): registering receivers with their own
//! `whsec_` secret (sealed at rest, shown on create and rotate only), their delivery log, redelivery,
//! recovery after an outage, and test events. The deliveries themselves go through the receipt outbox's
//! dispatcher (its lease, fairness and per-endpoint limits); the store fans every merchant event out to the
//! matching endpoints in the transaction that records the event.

mod error;
mod samples;

use std::sync::Arc;

use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use payments_core::{
    EventFilters, MAX_ENDPOINTS_PER_MERCHANT, ROTATION_OVERLAP_MS, STANDARD_WEBHOOKS_SECRET_PREFIX, Wallet,
};
use tokio::sync::Notify;

use crate::domain::receipt::TargetPolicy;
use crate::domain::webhook_endpoint::EndpointId;
use crate::runtime::clock::Clock;
use crate::runtime::master_key::MasterKey;
use crate::secret::Secret;
use crate::store::{
    DeliveryQuery, EndpointChange, EndpointDeliveryLog, EndpointRefused, MerchantEvent, NewEndpoint,
    StoredEndpoint, WebhookEndpointRepository,
};

pub(crate) use error::EndpointError;
pub(crate) use samples::SAMPLE_EVENT_TYPES;

/// Bytes of a new endpoint secret (base64 after `whsec_`): as long as the HMAC-SHA256 output.
const SECRET_BYTES: usize = 32;
/// The longest description kept.
const MAX_DESCRIPTION_CHARS: usize = 256;

/// What a create or update asks for; `None` keeps (update) or defaults (create) the field.
#[derive(Debug, Clone, Default)]
pub(crate) struct EndpointRequest {
    pub(crate) url: Option<String>,
    pub(crate) events: Option<Vec<String>>,
    /// `Some(None)` clears the description.
    pub(crate) description: Option<Option<String>>,
    pub(crate) enabled: Option<bool>,
}

/// An endpoint with its secret, as create and rotate answer it (the only times the secret is shown).
#[derive(Debug)]
pub(crate) struct EndpointWithSecret {
    pub(crate) endpoint: StoredEndpoint,
    pub(crate) secret: Secret,
}

#[derive(Debug)]
pub(crate) struct WebhookEndpointService {
    pub(crate) endpoints: Arc<dyn WebhookEndpointRepository>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) master_key: Option<MasterKey>,
    /// Signalled after a commit that queued deliveries, so the dispatcher starts them at once.
    pub(crate) wakeup: Arc<Notify>,
    pub(crate) target_policy: TargetPolicy,
}

impl WebhookEndpointService {
    pub(crate) async fn create(
        &self,
        wallet: Wallet,
        request: EndpointRequest,
    ) -> Result<EndpointWithSecret, EndpointError> {
        let url = self.checked_url(request.url.ok_or(EndpointError::UrlRequired)?)?;
        let events = checked_events(request.events.ok_or(EndpointError::EventsRequired)?)?;
        let description = checked_description(request.description.flatten())?;
        let id = EndpointId::generate();
        let (secret, sealed_secret) = self.new_secret(&id)?;
        let new = NewEndpoint {
            id,
            wallet,
            url,
            events,
            description,
            enabled: request.enabled.unwrap_or(true),
            sealed_secret,
            now_ms: self.clock.now_ms(),
        };
        match self
            .endpoints
            .create_endpoint(&new, MAX_ENDPOINTS_PER_MERCHANT)
            .await?
        {
            Ok(endpoint) => Ok(EndpointWithSecret { endpoint, secret }),
            Err(EndpointRefused::LimitReached) => Err(EndpointError::TooMany),
        }
    }

    pub(crate) async fn list(&self, wallet: Wallet) -> Result<Vec<StoredEndpoint>, EndpointError> {
        Ok(self.endpoints.list_endpoints(wallet).await?)
    }

    pub(crate) async fn get(&self, wallet: Wallet, id: &str) -> Result<StoredEndpoint, EndpointError> {
        let id = parsed_id(id)?;
        self.endpoints
            .fetch_endpoint(wallet, &id)
            .await?
            .ok_or(EndpointError::NotFound(id))
    }

    pub(crate) async fn update(
        &self,
        wallet: Wallet,
        id: &str,
        request: EndpointRequest,
    ) -> Result<StoredEndpoint, EndpointError> {
        let id = parsed_id(id)?;
        let change = EndpointChange {
            url: request.url.map(|url| self.checked_url(url)).transpose()?,
            events: request.events.map(checked_events).transpose()?,
            description: request.description.map(checked_description).transpose()?,
            enabled: request.enabled,
        };
        let updated = self
            .endpoints
            .update_endpoint(wallet, &id, &change, self.clock.now_ms())
            .await?
            .ok_or(EndpointError::NotFound(id))?;
        // Re-enabling lets its waiting deliveries be claimed again.
        self.wakeup.notify_one();
        Ok(updated)
    }

    pub(crate) async fn delete(&self, wallet: Wallet, id: &str) -> Result<(), EndpointError> {
        let id = parsed_id(id)?;
        if self.endpoints.delete_endpoint(wallet, &id).await? {
            Ok(())
        } else {
            Err(EndpointError::NotFound(id))
        }
    }

    /// A new secret; the old one keeps signing (beside the new) for 24 h.
    pub(crate) async fn rotate(&self, wallet: Wallet, id: &str) -> Result<EndpointWithSecret, EndpointError> {
        let id = parsed_id(id)?;
        let (secret, sealed) = self.new_secret(&id)?;
        let now_ms = self.clock.now_ms();
        let endpoint = self
            .endpoints
            .rotate_endpoint_secret(
                wallet,
                &id,
                &sealed,
                now_ms.saturating_add(ROTATION_OVERLAP_MS),
                now_ms,
            )
            .await?
            .ok_or(EndpointError::NotFound(id))?;
        Ok(EndpointWithSecret { endpoint, secret })
    }

    pub(crate) async fn deliveries(
        &self,
        wallet: Wallet,
        id: &str,
        query: &DeliveryQuery,
    ) -> Result<Vec<EndpointDeliveryLog>, EndpointError> {
        let id = parsed_id(id)?;
        self.endpoints
            .endpoint_deliveries(wallet, &id, query)
            .await?
            .ok_or(EndpointError::NotFound(id))
    }

    pub(crate) async fn redeliver(
        &self,
        wallet: Wallet,
        id: &str,
        delivery: &str,
    ) -> Result<(), EndpointError> {
        let id = parsed_id(id)?;
        let queued = self
            .endpoints
            .redeliver_endpoint_delivery(wallet, &id, delivery, self.clock.now_ms())
            .await?;
        if !queued {
            return Err(EndpointError::DeliveryNotFound(
                delivery.chars().take(64).collect(),
            ));
        }
        self.wakeup.notify_one();
        Ok(())
    }

    /// Queues again every failed delivery created since `since_ms`; how many.
    pub(crate) async fn recover(
        &self,
        wallet: Wallet,
        id: &str,
        since_ms: i64,
    ) -> Result<u64, EndpointError> {
        let id = parsed_id(id)?;
        let now_ms = self.clock.now_ms();
        if since_ms > now_ms {
            return Err(EndpointError::SinceInFuture);
        }
        let recovered = self
            .endpoints
            .recover_endpoint(wallet, &id, since_ms, now_ms)
            .await?
            .ok_or(EndpointError::NotFound(id))?;
        self.wakeup.notify_one();
        Ok(recovered)
    }

    /// Sends a realistic test event (`"test": true`) of `event_type` to the merchant's matching endpoints,
    /// or to `only`; the event and how many deliveries were queued.
    pub(crate) async fn trigger(
        &self,
        wallet: Wallet,
        event_type: &str,
        only: Option<&str>,
    ) -> Result<(MerchantEvent, u64), EndpointError> {
        let only = only.map(parsed_id).transpose()?;
        let now_ms = self.clock.now_ms();
        let data = samples::sample(event_type, wallet, now_ms)
            .ok_or_else(|| EndpointError::UnknownEventType(event_type.chars().take(64).collect()))?;
        let mut event = MerchantEvent::new(wallet, event_type, now_ms, data);
        event.test = true;
        let sent = match (self.endpoints.send_event(&event, only.as_ref()).await?, only) {
            (Some(sent), _) => sent,
            (None, Some(only)) => return Err(EndpointError::NotFound(only)),
            (None, None) => 0,
        };
        self.wakeup.notify_one();
        Ok((event, sent))
    }

    fn checked_url(&self, url: String) -> Result<String, EndpointError> {
        self.target_policy
            .check(&url)
            .map_err(EndpointError::InvalidUrl)?;
        Ok(url)
    }

    /// A fresh `whsec_` secret and its sealed bytes (bound to the endpoint id).
    fn new_secret(&self, id: &EndpointId) -> Result<(Secret, Vec<u8>), EndpointError> {
        let master = self.master_key.as_ref().ok_or(EndpointError::NoMasterKey)?;
        let key: [u8; SECRET_BYTES] = rand::random();
        let sealed = master.seal(&key, id.as_str());
        let text = format!("{STANDARD_WEBHOOKS_SECRET_PREFIX}{}", BASE64.encode(key));
        Ok((Secret::new(text), sealed))
    }
}

/// A malformed id names no endpoint: 404, as an unknown one.
fn parsed_id(id: &str) -> Result<EndpointId, EndpointError> {
    EndpointId::parse(id)
        .ok_or_else(|| EndpointError::NotFound(EndpointId::from_stored(id.chars().take(64).collect())))
}

fn checked_events(events: Vec<String>) -> Result<Vec<String>, EndpointError> {
    Ok(EventFilters::parse(&events)
        .map_err(EndpointError::InvalidEvents)?
        .to_strings())
}

fn checked_description(description: Option<String>) -> Result<Option<String>, EndpointError> {
    match description {
        Some(text) if text.chars().count() > MAX_DESCRIPTION_CHARS => Err(EndpointError::DescriptionTooLong),
        Some(text) if text.trim().is_empty() => Ok(None),
        other => Ok(other),
    }
}
