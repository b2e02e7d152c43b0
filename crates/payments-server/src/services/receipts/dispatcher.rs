//! The webhook dispatcher: a background task that delivers outbox rows after their commit. It wakes when a
//! transition enqueues a delivery or an attempt ends, and polls briefly otherwise, so a retry becomes due as
//! soon as the injected clock passes its `next_attempt_at` (tests move a manual clock instead of sleeping 5 s).
//!
//! Attempts run as their own tasks, at most [`in_flight::POOL`] at once and [`in_flight::PER_ENDPOINT`] per
//! endpoint: the claim itself skips an endpoint that is at its limit, so a slow receiver's backlog waits in
//! the outbox (unleased) while other merchants' deliveries go out at once.

use std::sync::Arc;
use std::time::{Duration, Instant};

use payments_core::{StandardWebhooksSecret, signature_header, x_service_signature};
use tokio::task::JoinSet;

use crate::domain::receipt::TargetPolicy;
use crate::domain::webhook_endpoint::EventId;
use crate::runtime::clock::Clock;
use crate::runtime::master_key::MasterKey;
use crate::runtime::metrics::{AttemptOutcome, Metrics};
use crate::services::receipts::attempt_error::{AttemptError, Retry, Unsigned};
use crate::services::receipts::delivery::{Outgoing, WebhookSender};
use crate::services::receipts::in_flight::{self, InFlight, Slot};
use crate::services::worker::WorkerHandle;
use crate::store::{
    AttemptRecord, Claim, DeliveryNext, DeliveryOwner, DueDelivery, OutboxDepth, OutboxRepository, StoreError,
};

/// How often due deliveries are looked for without a wake-up.
const POLL_INTERVAL: Duration = Duration::from_millis(100);
/// A claimed delivery is not claimed again for this long beyond its timeout (a crashed attempt is retried then).
const LEASE_MARGIN_MS: i64 = 30_000;

/// What the dispatcher uses: the outbox, the clock, the master key that opens signing keys, and the
/// delivery settings.
#[derive(Debug)]
pub(crate) struct Dispatcher {
    pub(crate) outbox: Arc<dyn OutboxRepository>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) master_key: Option<MasterKey>,
    /// Signalled after a commit that enqueued a delivery.
    pub(crate) wakeup: Arc<tokio::sync::Notify>,
    pub(crate) timeout: Duration,
    pub(crate) retry_delays: Vec<Duration>,
    /// The retry schedule of merchant webhook endpoints' deliveries (about 3 days by default).
    pub(crate) endpoint_retry_delays: Vec<Duration>,
    /// Development mode allows loopback and plain-HTTP targets.
    pub(crate) dev_mode: bool,
    /// Counts attempts by outcome.
    pub(crate) metrics: Arc<Metrics>,
}

impl Dispatcher {
    /// The outbox's depth now (all merchants), for the metrics.
    pub(crate) async fn depth(&self) -> Result<OutboxDepth, StoreError> {
        self.outbox.depth(self.clock.now_ms()).await
    }
}

pub(crate) fn start_dispatcher(state: Arc<Dispatcher>) -> WorkerHandle {
    WorkerHandle::spawn(|mut stopped| async move {
        let wakeup = Arc::clone(&state.wakeup);
        let policy = TargetPolicy {
            dev_mode: state.dev_mode,
        };
        let sender = match WebhookSender::new(policy, state.timeout) {
            Ok(sender) => sender,
            Err(error) => {
                // Deliveries stay in the outbox and go out once a restarted server has a client.
                tracing::error!(error = %error, "no HTTP client for webhooks; deliveries wait for a restart");
                return;
            }
        };
        let in_flight = InFlight::new(in_flight::POOL);
        // Dropped when the loop ends: attempts cut short are retried after their lease.
        let mut attempts = JoinSet::new();
        loop {
            tokio::select! {
                _ = &mut stopped => break,
                () = start_due(&state, &sender, &in_flight, &mut attempts) => {}
            }
            while attempts.try_join_next().is_some() {}
            tokio::select! {
                _ = &mut stopped => break,
                () = wakeup.notified() => {}
                () = in_flight.finished.notified() => {}
                () = tokio::time::sleep(POLL_INTERVAL) => {}
            }
        }
    })
}

/// Claims due deliveries while the pool has room, and starts an attempt task for each.
async fn start_due(
    state: &Arc<Dispatcher>,
    sender: &WebhookSender,
    in_flight: &Arc<InFlight>,
    attempts: &mut JoinSet<()>,
) {
    loop {
        let free = in_flight.free();
        if free == 0 {
            return;
        }
        let now_ms = state.clock.now_ms();
        let timeout_ms = i64::try_from(state.timeout.as_millis()).unwrap_or(i64::MAX);
        let claim = Claim {
            now_ms,
            lease_until_ms: now_ms.saturating_add(timeout_ms).saturating_add(LEASE_MARGIN_MS),
            limit: u32::try_from(free).unwrap_or(u32::MAX),
            per_endpoint: in_flight::PER_ENDPOINT,
            busy: in_flight.busy(),
        };
        let due = match state.outbox.claim_due(&claim).await {
            Ok(due) => due,
            Err(error) => {
                tracing::warn!(error = %error, "claiming webhook deliveries failed");
                return;
            }
        };
        let claimed_all = due.len() < free;
        for delivery in due {
            let Some(slot) = in_flight.start(delivery.endpoint.clone()) else {
                // Not reached (the claim was sized to the free places); its lease retries it.
                continue;
            };
            let (state, sender) = (Arc::clone(state), sender.clone());
            attempts.spawn(async move { attempt(&state, &sender, delivery, slot).await });
        }
        if claimed_all {
            return;
        }
    }
}

/// One attempt; `_slot` holds its place in the pool until the attempt is recorded.
async fn attempt(state: &Dispatcher, sender: &WebhookSender, delivery: DueDelivery, _slot: Slot) {
    let started_at = state.clock.now_ms();
    let started = Instant::now();
    let result = match signed_request(state, &delivery, started_at) {
        Ok(outgoing) => sender.send(outgoing).await,
        Err(error) => Err(error),
    };
    let finished_at = state.clock.now_ms();
    let delivered = matches!(result, Ok(status) if (200..300).contains(&status));
    let retry = match &result {
        Ok(_) => Retry::OnSchedule,
        Err(error) => error.retry(),
    };
    let next = if retry == Retry::OnSchedule || delivered {
        let schedule = match delivery.owner {
            DeliveryOwner::Endpoint { .. } => &state.endpoint_retry_delays,
            DeliveryOwner::Receipt(_) | DeliveryOwner::Subscription { .. } => &state.retry_delays,
        };
        next_step(delivery.round_attempt, schedule, finished_at, delivered)
    } else {
        DeliveryNext::Failed
    };
    let (status_code, error) = match result {
        Ok(status) if delivered => (Some(status), None),
        Ok(status) => (Some(status), Some(format!("receiver answered {status}"))),
        Err(error) => (None, Some(bounded(error.to_string()))),
    };
    log_outcome(&delivery, next, status_code, error.as_deref());
    let outcome = match next {
        DeliveryNext::Delivered => AttemptOutcome::Delivered,
        DeliveryNext::RetryAt(_) => AttemptOutcome::Retrying,
        DeliveryNext::Failed => AttemptOutcome::Failed,
    };
    state.metrics.webhook_attempt(outcome, started.elapsed());
    let record = AttemptRecord {
        delivery_rowid: delivery.rowid,
        attempt: delivery.attempt,
        status_code,
        error,
        started_at,
        finished_at,
        duration_ms: i64::try_from(started.elapsed().as_millis()).unwrap_or(i64::MAX),
        next,
    };
    match state.outbox.record_attempt(&record).await {
        Ok(Some(disabled)) => tracing::warn!(
            endpoint = disabled.as_str(),
            "webhook endpoint disabled: its deliveries have failed for 5 days; its other endpoints were told"
        ),
        Ok(None) => {}
        Err(error) => {
            tracing::warn!(error = %error, delivery = delivery.id.as_str(), "recording a webhook attempt failed");
        }
    }
}

/// After attempt `round_attempt` (1-based) of a round: done, retry after the next configured delay, or give up.
pub(crate) fn next_step(
    round_attempt: u32,
    retry_delays: &[Duration],
    now_ms: i64,
    delivered: bool,
) -> DeliveryNext {
    if delivered {
        return DeliveryNext::Delivered;
    }
    let index = usize::try_from(round_attempt.saturating_sub(1)).unwrap_or(usize::MAX);
    match retry_delays.get(index) {
        Some(delay) => {
            DeliveryNext::RetryAt(now_ms.saturating_add(i64::try_from(delay.as_millis()).unwrap_or(i64::MAX)))
        }
        None => DeliveryNext::Failed,
    }
}

/// Both signature schemes, keyed with the owner's API key (unsealed only here, only for this request):
/// receipt and subscription deliveries go through this one signer.
fn signed_request(state: &Dispatcher, delivery: &DueDelivery, now_ms: i64) -> Result<Outgoing, AttemptError> {
    let unsigned = match &delivery.owner {
        DeliveryOwner::Receipt(_) => Unsigned::ReceiptWithoutKey,
        DeliveryOwner::Subscription { .. } => Unsigned::PlanTargetRemoved,
        DeliveryOwner::Endpoint { event, .. } => return endpoint_request(state, delivery, event, now_ms),
    };
    let sealed = delivery
        .sealed_signing_key
        .as_deref()
        .ok_or(AttemptError::NoSigningKey(unsigned))?;
    let master = state.master_key.as_ref().ok_or(AttemptError::NoMasterKey)?;
    let key = master
        .open(sealed, &delivery.owner.signing_context())
        .map_err(AttemptError::SigningKeyUnreadable)?;
    let seconds = now_ms.div_euclid(1000);
    let headers = vec![
        ("x-service-signature", x_service_signature(&key, &delivery.body)),
        ("x-service-event", delivery.event.clone()),
        ("x-service-delivery", delivery.id.as_str().to_owned()),
        ("x-service-timestamp", now_ms.to_string()),
        ("webhook-id", delivery.id.as_str().to_owned()),
        ("webhook-timestamp", seconds.to_string()),
        (
            "webhook-signature",
            StandardWebhooksSecret::from_key_bytes(&key).sign(delivery.id.as_str(), seconds, &delivery.body),
        ),
    ];
    Ok(Outgoing {
        url: delivery.url.clone(),
        headers,
        body: delivery.body.clone(),
    })
}

/// A merchant endpoint's delivery: Standard Webhooks headers only, `webhook-id` the event's id (the same
/// for every endpoint and attempt), signed with the endpoint's secret and, during the 24 h after a rotation,
/// its previous one too.
fn endpoint_request(
    state: &Dispatcher,
    delivery: &DueDelivery,
    event: &EventId,
    now_ms: i64,
) -> Result<Outgoing, AttemptError> {
    let sealed = delivery
        .sealed_signing_key
        .as_deref()
        .ok_or(AttemptError::NoSigningKey(Unsigned::EndpointRemoved))?;
    let master = state.master_key.as_ref().ok_or(AttemptError::NoMasterKey)?;
    let context = delivery.owner.signing_context();
    let secret = master
        .open(sealed, &context)
        .map_err(AttemptError::SigningKeyUnreadable)?;
    let previous = match &delivery.previous_signing_key {
        Some(previous) if previous.until_ms > now_ms => Some(
            master
                .open(&previous.sealed, &context)
                .map_err(AttemptError::SigningKeyUnreadable)?,
        ),
        Some(_) | None => None,
    };
    let secret = StandardWebhooksSecret::from_key_bytes(&secret);
    let previous = previous.map(|key| StandardWebhooksSecret::from_key_bytes(&key));
    let mut secrets = vec![&secret];
    secrets.extend(previous.as_ref());
    let seconds = now_ms.div_euclid(1000);
    let headers = vec![
        ("webhook-id", event.as_str().to_owned()),
        ("webhook-timestamp", seconds.to_string()),
        (
            "webhook-signature",
            signature_header(&secrets, event.as_str(), seconds, &delivery.body),
        ),
    ];
    Ok(Outgoing {
        url: delivery.url.clone(),
        headers,
        body: delivery.body.clone(),
    })
}

/// The most of an attempt's error text kept in the delivery log and the log line.
const MAX_ATTEMPT_ERROR_BYTES: usize = 512;

/// Cuts an error text to [`MAX_ATTEMPT_ERROR_BYTES`] at a character boundary, marking the cut.
fn bounded(mut error: String) -> String {
    if error.len() > MAX_ATTEMPT_ERROR_BYTES {
        let mut end = MAX_ATTEMPT_ERROR_BYTES;
        while !error.is_char_boundary(end) {
            end -= 1;
        }
        error.truncate(end);
        error.push('…');
    }
    error
}

fn log_outcome(delivery: &DueDelivery, next: DeliveryNext, status: Option<u16>, error: Option<&str>) {
    let id = delivery.id.as_str();
    let (receipt, subscription) = match &delivery.owner {
        DeliveryOwner::Receipt(receipt) => (Some(receipt.as_str()), None),
        DeliveryOwner::Subscription { subscription, .. } => (None, Some(subscription.as_str())),
        DeliveryOwner::Endpoint { endpoint, .. } => (None, Some(endpoint.as_str())),
    };
    match next {
        DeliveryNext::Delivered => {
            tracing::info!(delivery = id, receipt, subscription, status, "webhook delivered");
        }
        DeliveryNext::RetryAt(at) => {
            tracing::info!(
                delivery = id,
                receipt,
                subscription,
                status,
                error,
                retry_at = at,
                "webhook attempt failed; will retry"
            );
        }
        DeliveryNext::Failed => {
            tracing::warn!(
                delivery = id,
                receipt,
                subscription,
                status,
                error,
                attempts = delivery.attempt,
                "webhook delivery failed"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attempt_errors_are_kept_to_a_bounded_length_at_a_character_boundary() {
        let long = "é".repeat(MAX_ATTEMPT_ERROR_BYTES);

        let kept = bounded(long);

        assert!(kept.len() <= MAX_ATTEMPT_ERROR_BYTES + '…'.len_utf8());
        assert!(kept.ends_with('…'));
        assert_eq!(bounded("short".to_owned()), "short");
    }

    #[test]
    fn the_default_schedule_retries_once_five_seconds_after_a_failure() {
        let delays = [Duration::from_secs(5)];

        assert_eq!(next_step(1, &delays, 1_000, false), DeliveryNext::RetryAt(6_000));
        assert_eq!(next_step(2, &delays, 6_000, false), DeliveryNext::Failed);
        assert_eq!(next_step(1, &delays, 1_000, true), DeliveryNext::Delivered);
        assert_eq!(next_step(2, &delays, 6_000, true), DeliveryNext::Delivered);
    }

    #[test]
    fn a_longer_schedule_uses_each_delay_in_turn() {
        let delays = [Duration::from_secs(1), Duration::from_secs(10)];

        assert_eq!(next_step(1, &delays, 0, false), DeliveryNext::RetryAt(1_000));
        assert_eq!(next_step(2, &delays, 0, false), DeliveryNext::RetryAt(10_000));
        assert_eq!(next_step(3, &delays, 0, false), DeliveryNext::Failed);
        assert_eq!(next_step(1, &[], 0, false), DeliveryNext::Failed);
    }
}
