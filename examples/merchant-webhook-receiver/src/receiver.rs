//! One webhook request: read the raw body, verify, drop duplicates, queue the event, answer at once.

use std::convert::Infallible;
use std::sync::{Mutex, PoisonError};

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full, LengthLimitError, Limited};
use hyper::body::Incoming;
use hyper::header::{CONTENT_TYPE, HeaderValue};
use hyper::{HeaderMap, Method, Request, Response, StatusCode};
use tokio::sync::mpsc;
use webhook_verify::{Scheme, Verifier, VerifyError, WEBHOOK_ID, Webhook, X_SERVICE_DELIVERY};

use crate::dedupe::RecentDeliveries;

/// The path the service posts to (the receipt's `webhook_url`, the plan's `webhookUrl`, the endpoint's `url`).
pub(crate) const WEBHOOK_PATH: &str = "/webhooks";
/// Event bodies are small; anything bigger is not from the service.
const MAX_BODY_BYTES: usize = 256 * 1024;

/// Shared by every connection.
#[derive(Debug)]
pub(crate) struct Receiver {
    pub(crate) verifier: Verifier,
    pub(crate) recent: Mutex<RecentDeliveries>,
    pub(crate) events: mpsc::Sender<Webhook>,
}

type Reply = Response<Full<Bytes>>;

impl Receiver {
    pub(crate) async fn handle(&self, request: Request<Incoming>) -> Result<Reply, Infallible> {
        if request.uri().path() != WEBHOOK_PATH {
            return Ok(reply(StatusCode::NOT_FOUND, "not found"));
        }
        if request.method() != Method::POST {
            return Ok(reply(StatusCode::METHOD_NOT_ALLOWED, "use POST"));
        }
        let (parts, body) = request.into_parts();
        // The raw bytes, exactly as sent: the signature covers these, not any re-serialised JSON.
        let body = match Limited::new(body, MAX_BODY_BYTES).collect().await {
            Ok(collected) => collected.to_bytes(),
            Err(err) if err.is::<LengthLimitError>() => {
                return Ok(reply(StatusCode::PAYLOAD_TOO_LARGE, "body too large"));
            }
            Err(_) => return Ok(reply(StatusCode::BAD_REQUEST, "could not read body")),
        };
        Ok(self.accept(&parts.headers, &body))
    }

    fn accept(&self, headers: &HeaderMap, body: &[u8]) -> Reply {
        // Every event type is taken once its signature holds, even one this receiver does not handle: the
        // worker names it, and the service does not retry it.
        let event = match self.verifier.verify_and_parse(headers, body) {
            Ok(event) => event,
            Err(err) => {
                eprintln!("rejected webhook: {err}");
                return reply(rejection_status(&err), "rejected");
            }
        };
        // Deduplicate only after verification, so forged requests cannot fill the set.
        let delivery = delivery_id(self.verifier.scheme(), headers);
        if let Some(id) = &delivery
            && !self.recent().first_time(id)
        {
            return reply(StatusCode::OK, "duplicate");
        }
        // Queue the work and answer now; a full queue answers 503 so the service retries later.
        if self.events.try_send(event).is_err() {
            if let Some(id) = &delivery {
                self.recent().forget(id);
            }
            return reply(StatusCode::SERVICE_UNAVAILABLE, "busy");
        }
        reply(StatusCode::OK, "ok")
    }

    fn recent(&self) -> std::sync::MutexGuard<'_, RecentDeliveries> {
        self.recent.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The deduplication key: `X-Service-Delivery`, or with Standard Webhooks the signed `webhook-id`, which a
/// replay cannot change.
fn delivery_id(scheme: Scheme, headers: &HeaderMap) -> Option<String> {
    match scheme {
        Scheme::StandardWebhooks => single(headers, WEBHOOK_ID),
        _ => single(headers, X_SERVICE_DELIVERY),
    }
}

/// A header's value when it appears exactly once, as text.
fn single(headers: &HeaderMap, name: &str) -> Option<String> {
    let mut values = headers.get_all(name).iter();
    match (values.next(), values.next()) {
        (Some(value), None) => value.to_str().ok().map(str::to_owned),
        _ => None,
    }
}

fn rejection_status(err: &VerifyError) -> StatusCode {
    match err {
        VerifyError::SignatureMismatch | VerifyError::Stale { .. } | VerifyError::FromTheFuture { .. } => {
            StatusCode::UNAUTHORIZED
        }
        _ => StatusCode::BAD_REQUEST,
    }
}

fn reply(status: StatusCode, text: &'static str) -> Reply {
    let mut response = Response::new(Full::new(Bytes::from_static(text.as_bytes())));
    *response.status_mut() = status;
    response.headers_mut().insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;
    use std::time::{SystemTime, UNIX_EPOCH};

    use hyper::header::HeaderValue;
    use hyper::{HeaderMap, StatusCode};
    use tokio::sync::mpsc;
    use webhook_verify::{ApiKey, Event, Verifier, Webhook};

    use super::Receiver;
    use crate::dedupe::RecentDeliveries;

    // The first shared webhook vector.
    const API_KEY: &str = "c3j27xdcg2lMLzgeonyLGcTJFiz4soCm";
    const BODY: &[u8] = br#"{"event":"receipt.status_updated","receiptId":"R-000123","status":"paid","previousStatus":"checkout_initialized","totalUsd":25.0}"#;
    const SIGNATURE: &str = "sha256=247257e9be62a5719c5b22c41bfc6a749e53f13401f8f241633975b2222d03ca";

    fn receiver(queue_length: usize) -> (Receiver, mpsc::Receiver<Webhook>) {
        let (events, queue) = mpsc::channel(queue_length);
        let verifier = Verifier::new(ApiKey::new(API_KEY).unwrap());
        (
            Receiver {
                verifier,
                recent: Mutex::new(RecentDeliveries::new(16)),
                events,
            },
            queue,
        )
    }

    /// The vector's signature, sent now (X-Service-Timestamp is not signed), as delivery `delivery`.
    fn headers(delivery: &'static str) -> HeaderMap {
        signed(SIGNATURE, delivery)
    }

    /// `signature` (of some body), sent now as delivery `delivery`.
    fn signed(signature: &'static str, delivery: &'static str) -> HeaderMap {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_millis()
            .to_string();
        let mut headers = HeaderMap::new();
        headers.insert("x-service-signature", HeaderValue::from_static(signature));
        headers.insert("x-service-timestamp", HeaderValue::from_str(&now).unwrap());
        headers.insert("x-service-delivery", HeaderValue::from_static(delivery));
        headers
    }

    #[test]
    fn a_verified_delivery_is_queued_and_answered_with_200() {
        let (receiver, mut queue) = receiver(4);

        let response = receiver.accept(&headers("d-1"), BODY);

        assert_eq!(response.status(), StatusCode::OK);
        assert!(matches!(
            queue.try_recv().unwrap().into_event(),
            Event::ReceiptStatusUpdated(event) if event.receipt_id == "R-000123"
        ));
    }

    #[test]
    fn a_signed_subscription_event_and_an_unknown_event_type_are_queued_and_answered_with_200() {
        // Signed with the vector's key by Python's `hmac` module.
        const CREATED: &[u8] = br#"{"event":"subscription.created","subscriptionId":"csub_1","planId":"plan_1","status":"active","previousStatus":null,"period":"MONTHLY","priceUsd":2.50,"priceBaseUnits":"2500000","charge":null,"cancelReason":null}"#;
        const CREATED_SIGNATURE: &str =
            "sha256=836ba8ed1c59314c1a87d2d7d8bf85e2b908175dcc8d0997f7945f97f4dd03e9";
        const UNKNOWN: &[u8] =
            br#"{"event":"subscription.paused","subscriptionId":"csub_1","balanceSufficient":false}"#;
        const UNKNOWN_SIGNATURE: &str =
            "sha256=0527a674c7f9024028eec5eff9d1f39cc07c01326667faaf320bdb520c8f5a03";
        let (receiver, mut queue) = receiver(4);

        let created = receiver.accept(&signed(CREATED_SIGNATURE, "d-1"), CREATED);
        let unknown = receiver.accept(&signed(UNKNOWN_SIGNATURE, "d-2"), UNKNOWN);

        assert_eq!(created.status(), StatusCode::OK);
        assert_eq!(unknown.status(), StatusCode::OK);
        assert!(matches!(
            queue.try_recv().unwrap().into_event(),
            Event::SubscriptionCreated(event) if event.subscription_id == "csub_1"
        ));
        assert_eq!(queue.try_recv().unwrap().event_type(), "subscription.paused");
    }

    #[test]
    fn a_repeated_delivery_is_acknowledged_but_queued_once() {
        let (receiver, mut queue) = receiver(4);

        let first = receiver.accept(&headers("d-1"), BODY);
        let repeat = receiver.accept(&headers("d-1"), BODY);

        assert_eq!(
            (first.status(), repeat.status()),
            (StatusCode::OK, StatusCode::OK)
        );
        assert!(queue.try_recv().is_ok());
        assert!(queue.try_recv().is_err());
    }

    #[test]
    fn a_tampered_body_is_rejected_with_401_and_not_queued() {
        let (receiver, mut queue) = receiver(4);
        let mut body = BODY.to_vec();
        body[20] ^= 1;

        let response = receiver.accept(&headers("d-1"), &body);

        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
        assert!(queue.try_recv().is_err());
    }

    #[test]
    fn a_missing_signature_is_rejected_with_400() {
        let (receiver, _queue) = receiver(4);
        let mut headers = headers("d-1");
        headers.remove("x-service-signature");

        assert_eq!(receiver.accept(&headers, BODY).status(), StatusCode::BAD_REQUEST);
    }

    #[test]
    fn a_full_queue_answers_503_and_the_retry_is_taken_later() {
        let (receiver, mut queue) = receiver(1);
        receiver.accept(&headers("d-1"), BODY);

        let busy = receiver.accept(&headers("d-2"), BODY);
        queue.try_recv().unwrap();
        let retry = receiver.accept(&headers("d-2"), BODY);

        assert_eq!(busy.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(retry.status(), StatusCode::OK);
        assert!(queue.try_recv().is_ok());
    }
}
