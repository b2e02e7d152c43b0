//! Merchant webhook endpoints (issue 28): their rows, their delivery log, and the one fan-out every event of a
//! merchant goes through (both backends call it from the transaction that records the event).

use async_trait::async_trait;
use payments_core::{EventEnvelope, EventFilters, Wallet};
use std::fmt;

use crate::StoreError;
use payments_domain::receipt::{DeliveryId, endpoint_of};
use payments_domain::webhook_endpoint::{EndpointId, EventId};

/// One event of a merchant, as endpoints receive it (inside the envelope `{ id, type, createdAt, data }`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MerchantEvent {
    pub id: EventId,
    pub merchant: Wallet,
    pub event_type: String,
    pub created_at_ms: i64,
    /// The receipt or subscription JSON the event is about.
    pub data: Vec<u8>,
    /// Sent by `payments webhooks trigger`: marked `"test": true`.
    pub test: bool,
}

impl MerchantEvent {
    /// A new event (fresh id) of `merchant`.
    pub fn new(merchant: Wallet, event_type: impl Into<String>, created_at_ms: i64, data: Vec<u8>) -> Self {
        MerchantEvent {
            id: EventId::generate(),
            merchant,
            event_type: event_type.into(),
            created_at_ms,
            data,
            test: false,
        }
    }

    /// The envelope bytes every endpoint delivery of this event carries.
    pub(crate) fn body(&self) -> Vec<u8> {
        EventEnvelope {
            id: self.id.as_str(),
            event_type: &self.event_type,
            created_at_ms: self.created_at_ms,
            test: self.test,
            data: &self.data,
        }
        .to_body()
    }
}

/// An enabled endpoint as the fan-out reads it.
#[derive(Debug, Clone)]
pub(crate) struct FanoutTarget {
    pub(crate) row_id: i64,
    pub(crate) url: String,
    pub(crate) events_json: String,
}

/// A delivery row of an endpoint to insert, due at once.
#[derive(Debug, Clone)]
pub(crate) struct EndpointDelivery {
    pub(crate) endpoint_row: i64,
    pub(crate) id: DeliveryId,
    pub(crate) url: String,
    pub(crate) origin: String,
}

/// The deliveries of `event` to `targets`: one per endpoint whose patterns match its type. Stored patterns
/// were validated when written; a row whose patterns no longer parse receives nothing.
pub(crate) fn fan_out(event: &MerchantEvent, targets: Vec<FanoutTarget>) -> Vec<EndpointDelivery> {
    targets
        .into_iter()
        .filter(|target| {
            serde_json::from_str::<Vec<String>>(&target.events_json)
                .ok()
                .and_then(|patterns| EventFilters::parse(&patterns).ok())
                .is_some_and(|filters| filters.matches(&event.event_type))
        })
        .map(|target| EndpointDelivery {
            endpoint_row: target.row_id,
            id: DeliveryId::generate(),
            origin: endpoint_of(&target.url),
            url: target.url,
        })
        .collect()
}

/// A new endpoint, its secret already sealed under its id.
#[derive(Debug, Clone)]
pub struct NewEndpoint {
    pub id: EndpointId,
    pub wallet: Wallet,
    pub url: String,
    pub events: Vec<String>,
    pub description: Option<String>,
    pub enabled: bool,
    pub sealed_secret: Vec<u8>,
    pub now_ms: i64,
}

/// A change to an endpoint; `None` keeps the field.
#[derive(Debug, Clone, Default)]
pub struct EndpointChange {
    pub url: Option<String>,
    pub events: Option<Vec<String>>,
    /// `Some(None)` clears the description.
    pub description: Option<Option<String>>,
    pub enabled: Option<bool>,
}

/// A stored endpoint (never its secrets).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredEndpoint {
    pub id: EndpointId,
    pub wallet: Wallet,
    pub url: String,
    pub events: Vec<String>,
    pub description: Option<String>,
    pub enabled: bool,
    /// Since when its deliveries have failed without a success in between.
    pub failing_since: Option<i64>,
    /// Until when the previous secret (of the last rotation) still signs.
    pub previous_secret_expires_at: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
}

/// Why an endpoint was not created.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndpointRefused {
    /// The merchant already has the most endpoints allowed.
    LimitReached,
}

/// Which deliveries of an endpoint to list: after the cursor (a delivery's row, newest first), filtered.
#[derive(Debug, Clone, Default)]
pub struct DeliveryQuery {
    pub limit: u32,
    /// The `rowid` of the last delivery of the previous page.
    pub before_row: Option<i64>,
    pub state: Option<String>,
    pub event_type: Option<String>,
}

/// One delivery of an endpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndpointDeliveryLog {
    pub row: i64,
    pub id: DeliveryId,
    pub event_id: EventId,
    pub event_type: String,
    pub state: String,
    pub attempts: i64,
    pub next_attempt_at: Option<i64>,
    pub created_at: i64,
    pub last_status_code: Option<u16>,
    pub last_error: Option<String>,
}

/// Webhook endpoints of merchants; every method one transaction.
#[async_trait]
pub trait WebhookEndpointRepository: Send + Sync + fmt::Debug {
    /// Creates the endpoint unless the merchant already has `max_per_merchant` (counted in the same
    /// transaction, so two racing creates cannot both pass).
    async fn create_endpoint(
        &self,
        endpoint: &NewEndpoint,
        max_per_merchant: usize,
    ) -> Result<Result<StoredEndpoint, EndpointRefused>, StoreError>;
    async fn list_endpoints(&self, wallet: Wallet) -> Result<Vec<StoredEndpoint>, StoreError>;
    async fn fetch_endpoint(
        &self,
        wallet: Wallet,
        id: &EndpointId,
    ) -> Result<Option<StoredEndpoint>, StoreError>;
    /// `None` when the merchant has no such endpoint. Re-enabling clears `failing_since`.
    async fn update_endpoint(
        &self,
        wallet: Wallet,
        id: &EndpointId,
        change: &EndpointChange,
        now_ms: i64,
    ) -> Result<Option<StoredEndpoint>, StoreError>;
    /// Deletes the endpoint with its deliveries and their attempts; false when there is no such endpoint.
    async fn delete_endpoint(&self, wallet: Wallet, id: &EndpointId) -> Result<bool, StoreError>;
    /// Stores `sealed_secret` as the endpoint's secret; the current one becomes the previous secret, signing
    /// until `previous_expires_at`.
    async fn rotate_endpoint_secret(
        &self,
        wallet: Wallet,
        id: &EndpointId,
        sealed_secret: &[u8],
        previous_expires_at: i64,
        now_ms: i64,
    ) -> Result<Option<StoredEndpoint>, StoreError>;
    /// `None` when the merchant has no such endpoint.
    async fn endpoint_deliveries(
        &self,
        wallet: Wallet,
        id: &EndpointId,
        query: &DeliveryQuery,
    ) -> Result<Option<Vec<EndpointDeliveryLog>>, StoreError>;
    /// Queues one delivery again as a new round (as [`crate::OutboxRepository::redeliver`]); false when the
    /// endpoint has no such delivery.
    async fn redeliver_endpoint_delivery(
        &self,
        wallet: Wallet,
        id: &EndpointId,
        delivery: &str,
        now_ms: i64,
    ) -> Result<bool, StoreError>;
    /// Queues again, as new rounds, every `failed` delivery of the endpoint created at or after `since_ms`;
    /// `None` when there is no such endpoint, else how many.
    async fn recover_endpoint(
        &self,
        wallet: Wallet,
        id: &EndpointId,
        since_ms: i64,
        now_ms: i64,
    ) -> Result<Option<u64>, StoreError>;
    /// Sends `event` (a test event) to the merchant's enabled endpoints whose patterns match it, or only to
    /// `only` (enabled or not, whatever its patterns); `None` when `only` names no endpoint of the merchant,
    /// else how many deliveries were queued.
    async fn send_event(
        &self,
        event: &MerchantEvent,
        only: Option<&EndpointId>,
    ) -> Result<Option<u64>, StoreError>;
}
