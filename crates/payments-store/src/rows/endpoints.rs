//! Webhook endpoints and their deliveries as stored (`webhook_endpoints`, `webhook_deliveries`).

use payments_core::{WEBHOOK_ENDPOINT_DISABLED, Wallet};
use payments_domain::receipt::DeliveryId;
use payments_domain::webhook_endpoint::{EndpointId, EventId};

use super::{bad, json};
use crate::{EndpointDeliveryLog, MerchantEvent, StoredEndpoint};

/// A `webhook_endpoints` row as every endpoint read selects it, with its row id.
pub(crate) struct EndpointRow {
    pub(crate) row_id: i64,
    pub(crate) public_id: String,
    pub(crate) wallet: String,
    pub(crate) url: String,
    pub(crate) events_json: String,
    pub(crate) description: Option<String>,
    pub(crate) enabled: bool,
    pub(crate) failing_since: Option<i64>,
    pub(crate) previous_secret_expires_at: Option<i64>,
    pub(crate) created_at: i64,
    pub(crate) updated_at: i64,
}

impl EndpointRow {
    /// The endpoint and its row id.
    pub(crate) fn into_record(self) -> Result<(i64, StoredEndpoint), String> {
        Ok((
            self.row_id,
            StoredEndpoint {
                id: EndpointId::from_stored(self.public_id),
                wallet: Wallet::parse(&self.wallet).map_err(|error| bad("wallet", error))?,
                url: self.url,
                events: json("events_json", &self.events_json)?,
                description: self.description,
                enabled: self.enabled,
                failing_since: self.failing_since,
                previous_secret_expires_at: self.previous_secret_expires_at,
                created_at: self.created_at,
                updated_at: self.updated_at,
            },
        ))
    }
}

/// A `webhook_deliveries` row joined with its event, as the delivery log lists it.
pub(crate) struct DeliveryLogRow {
    pub(crate) row_id: i64,
    pub(crate) public_id: String,
    pub(crate) event_id: String,
    pub(crate) event: String,
    pub(crate) state: String,
    pub(crate) attempts: i64,
    pub(crate) next_attempt_at: Option<i64>,
    pub(crate) created_at: i64,
    pub(crate) last_status_code: Option<i64>,
    pub(crate) last_error: Option<String>,
}

impl DeliveryLogRow {
    pub(crate) fn into_record(self) -> EndpointDeliveryLog {
        EndpointDeliveryLog {
            row: self.row_id,
            id: DeliveryId::from_stored(self.public_id),
            event_id: EventId::from_stored(self.event_id),
            event_type: self.event,
            state: self.state,
            attempts: self.attempts,
            next_attempt_at: self.next_attempt_at,
            created_at: self.created_at,
            // A code outside HTTP's range was never a status: shown as none.
            last_status_code: self.last_status_code.and_then(|code| u16::try_from(code).ok()),
            last_error: self.last_error,
        }
    }
}

/// The endpoint a failing streak just disabled (`DISABLE_FAILING`'s row).
pub(crate) struct DisabledRow {
    pub(crate) public_id: String,
    pub(crate) wallet: String,
    pub(crate) url: String,
    pub(crate) failing_since: i64,
}

impl DisabledRow {
    /// The endpoint's id and the `webhook_endpoint.disabled` event telling its merchant.
    pub(crate) fn into_event(self, now_ms: i64) -> Result<(EndpointId, MerchantEvent), String> {
        let wallet = Wallet::parse(&self.wallet).map_err(|error| bad("wallet", error))?;
        let data = serde_json::json!({
            "endpointId": self.public_id, "url": self.url, "failingSince": self.failing_since,
            "disabledAt": now_ms,
        });
        let event = MerchantEvent::new(
            wallet,
            WEBHOOK_ENDPOINT_DISABLED,
            now_ms,
            data.to_string().into_bytes(),
        );
        Ok((EndpointId::from_stored(self.public_id), event))
    }
}
