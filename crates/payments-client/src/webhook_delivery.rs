//! The webhook log of a receipt (`GET /api/receipts/{id}/webhooks`): each delivery, its event and state,
//! and its attempts.

use payments_core::{RECEIPT_STATUS_UPDATED, SubscriptionEventKind};
use serde::{Deserialize, Serialize};

use crate::or_unknown::{OrUnknown, WireName, wire_names};

/// The event a webhook carries (the body's `event` and the `X-Service-Event` header).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WebhookEvent {
    /// `receipt.status_updated`: a receipt's status changed.
    ReceiptStatusUpdated,
    /// `subscription.created`, `subscription.charged`, ...: a subscription changed.
    Subscription(SubscriptionEventKind),
}

impl WireName for WebhookEvent {
    fn wire_name(self) -> &'static str {
        match self {
            WebhookEvent::ReceiptStatusUpdated => RECEIPT_STATUS_UPDATED,
            WebhookEvent::Subscription(kind) => kind.as_str(),
        }
    }

    fn from_wire_name(name: &str) -> Option<Self> {
        if name == RECEIPT_STATUS_UPDATED {
            return Some(WebhookEvent::ReceiptStatusUpdated);
        }
        SubscriptionEventKind::ALL
            .into_iter()
            .find(|kind| kind.as_str() == name)
            .map(WebhookEvent::Subscription)
    }
}

/// Where a webhook delivery stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DeliveryState {
    /// Not delivered yet; another attempt is due at `nextAttemptAt`.
    Pending,
    /// The receiver answered 2xx.
    Delivered,
    /// Every attempt of the schedule failed (or the delivery cannot be signed); no more attempts.
    Failed,
}

wire_names!(DeliveryState {
    Pending => "pending",
    Delivered => "delivered",
    Failed => "failed",
});

/// One webhook delivery of a receipt or a plan with its attempts (`GET /api/receipts/{id}/webhooks`,
/// `GET /api/subscriptions/plans/{planId}/webhooks`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct WebhookDelivery {
    /// Stable across attempts (`X-Service-Delivery`).
    pub delivery_id: String,
    /// The subscription a plan's delivery is about (`None` for a receipt's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subscription_id: Option<String>,
    /// The event delivered (`receipt.status_updated`).
    pub event: OrUnknown<WebhookEvent>,
    /// Target URL.
    pub url: String,
    /// Where the delivery stands.
    pub state: OrUnknown<DeliveryState>,
    /// Unix ms of the next attempt, while pending.
    #[serde(default)]
    pub next_attempt_at: Option<i64>,
    /// Unix ms.
    pub created_at: i64,
    /// Attempts so far, oldest first.
    #[serde(default)]
    pub attempts: Vec<WebhookAttempt>,
}

/// One attempt of a webhook delivery.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct WebhookAttempt {
    /// 1-based.
    pub attempt: i64,
    /// The receiver's HTTP status, when it answered.
    #[serde(default)]
    pub status_code: Option<u16>,
    /// Network error or timeout, when it did not.
    #[serde(default)]
    pub error: Option<String>,
    /// Unix ms.
    pub started_at: i64,
    /// Unix ms.
    pub finished_at: i64,
    /// Milliseconds.
    pub duration_ms: i64,
}
