//! Webhook deliveries as stored (`webhook_deliveries` with their owner, `webhook_attempts`).

use payments_domain::receipt::{DeliveryId, ReceiptId};
use payments_domain::recurring::{CustomerSubscriptionId, PlanId};
use payments_domain::webhook_endpoint::{EndpointId, EventId};

use super::bad;
use crate::{AttemptLog, DeliveryLog, DeliveryOwner, DueDelivery, PreviousKey};

/// A delivery claimed for sending, with the public ids of whichever owns it.
pub(crate) struct DueRow {
    pub(crate) row_id: i64,
    pub(crate) public_id: String,
    pub(crate) receipt_public_id: Option<String>,
    pub(crate) url: String,
    pub(crate) event: String,
    pub(crate) body: Vec<u8>,
    pub(crate) signing_key: Option<Vec<u8>>,
    pub(crate) attempts: i64,
    pub(crate) round_attempts: i64,
    pub(crate) origin: String,
    pub(crate) subscription_public_id: Option<String>,
    pub(crate) plan_public_id: Option<String>,
    pub(crate) endpoint_public_id: Option<String>,
    pub(crate) event_id: Option<String>,
    pub(crate) previous_secret: Option<Vec<u8>>,
    pub(crate) previous_secret_expires_at: Option<i64>,
}

impl DueRow {
    pub(crate) fn into_record(self) -> Result<DueDelivery, String> {
        let owner = match (
            self.receipt_public_id,
            self.subscription_public_id,
            self.plan_public_id,
            self.endpoint_public_id,
            self.event_id,
        ) {
            (Some(receipt), None, _, None, _) => DeliveryOwner::Receipt(ReceiptId::from_stored(receipt)),
            (None, Some(subscription), Some(plan), None, _) => DeliveryOwner::Subscription {
                subscription: CustomerSubscriptionId::from_stored(subscription),
                plan: PlanId::from_stored(plan),
            },
            (None, None, _, Some(endpoint), Some(event)) => DeliveryOwner::Endpoint {
                endpoint: EndpointId::from_stored(endpoint),
                event: EventId::from_stored(event),
            },
            _ => {
                return Err("a delivery must belong to one receipt, one subscription or one endpoint".into());
            }
        };
        Ok(DueDelivery {
            rowid: self.row_id,
            id: DeliveryId::from_stored(self.public_id),
            owner,
            url: self.url,
            event: self.event,
            body: self.body,
            sealed_signing_key: self.signing_key,
            previous_signing_key: match (self.previous_secret, self.previous_secret_expires_at) {
                (Some(sealed), Some(until_ms)) => Some(PreviousKey { sealed, until_ms }),
                _ => None,
            },
            // The attempt about to be made: one past those recorded.
            attempt: self.attempts + 1,
            round_attempt: u32::try_from(self.round_attempts + 1).unwrap_or(u32::MAX),
            endpoint: self.origin,
        })
    }
}

/// A `webhook_attempts` row.
pub(crate) struct AttemptRow {
    pub(crate) attempt: i64,
    pub(crate) status_code: Option<i64>,
    pub(crate) error: Option<String>,
    pub(crate) started_at: i64,
    pub(crate) finished_at: i64,
    pub(crate) duration_ms: i64,
}

impl AttemptRow {
    pub(crate) fn into_record(self) -> Result<AttemptLog, String> {
        Ok(AttemptLog {
            attempt: self.attempt,
            status_code: self
                .status_code
                .map(u16::try_from)
                .transpose()
                .map_err(|error| bad("status_code", error))?,
            error: self.error,
            started_at: self.started_at,
            finished_at: self.finished_at,
            duration_ms: self.duration_ms,
        })
    }
}

/// A delivery of the log with its row id, without its attempts yet.
pub(crate) struct DeliveryLogEntryRow {
    pub(crate) row_id: i64,
    pub(crate) public_id: String,
    pub(crate) event: String,
    pub(crate) url: String,
    pub(crate) state: String,
    pub(crate) next_attempt_at: Option<i64>,
    pub(crate) created_at: i64,
}

impl DeliveryLogEntryRow {
    pub(crate) fn into_record(self, subscription_id: Option<CustomerSubscriptionId>) -> (i64, DeliveryLog) {
        (
            self.row_id,
            DeliveryLog {
                id: DeliveryId::from_stored(self.public_id),
                subscription_id,
                event: self.event,
                url: self.url,
                state: self.state,
                next_attempt_at: self.next_attempt_at,
                created_at: self.created_at,
                attempts: Vec::new(),
            },
        )
    }
}
