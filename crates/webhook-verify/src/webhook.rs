//! What a verified body says: [`Webhook`] (the event itself, or the endpoint envelope around it) and
//! [`Event`], the typed event.

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::body_error::BodyError;
use crate::receipt_event::{RECEIPT_STATUS_UPDATED, ReceiptStatusUpdated};
use crate::subscription_event::{
    SUBSCRIPTION_CANCELED, SUBSCRIPTION_CHARGE_FAILED, SUBSCRIPTION_CHARGE_UPCOMING, SUBSCRIPTION_CHARGED,
    SUBSCRIPTION_CREATED, SUBSCRIPTION_UPDATED, SubscriptionEvent,
};

/// One event of the service, typed by its event type.
///
/// New event types are added over time (`receipt.underpaid`,
/// `endpoint.disabled`, ...). A correctly signed body of a type this version does not know is never an
/// error: it arrives as [`Event::Unknown`] with its type and its JSON, so you can acknowledge it (answer 2xx)
/// and handle it later. Match with a `_` arm: the enum is `#[non_exhaustive]`.
///
/// ```
/// use webhook_verify::{Event, Webhook};
///
/// let body = br#"{"event":"subscription.created","subscriptionId":"csub_1","status":"active"}"#;
/// // In a handler, `verifier.verify_and_parse(&headers, body)?` checks the signature first.
/// let webhook = Webhook::parse(body)?;
/// match webhook.event() {
///     Event::ReceiptStatusUpdated(receipt) => println!("receipt {} is {}", receipt.receipt_id, receipt.status),
///     Event::SubscriptionCreated(subscription) => assert_eq!(subscription.subscription_id, "csub_1"),
///     other => println!("not handled: {}", other.event_type()),
/// }
/// # Ok::<(), webhook_verify::BodyError>(())
/// ```
// Boxing the bodies would make every `match` on an event clumsier to save a few hundred bytes, once per
// request.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Event {
    /// `receipt.status_updated`: a receipt's payment status changed.
    ReceiptStatusUpdated(ReceiptStatusUpdated),
    /// `subscription.created`: a customer subscribed.
    SubscriptionCreated(SubscriptionEvent),
    /// `subscription.charge_upcoming`: a period's charge is due within the notice window;
    /// [`SubscriptionEvent::upcoming_charge`] says when, how much, and whether it would go through now.
    SubscriptionChargeUpcoming(SubscriptionEvent),
    /// `subscription.charged`: a period was charged.
    SubscriptionCharged(SubscriptionEvent),
    /// `subscription.charge_failed`: an attempt to charge a period failed; nothing moved.
    SubscriptionChargeFailed(SubscriptionEvent),
    /// `subscription.canceled`: the subscription ended.
    SubscriptionCanceled(SubscriptionEvent),
    /// `subscription.updated`: the customer moved the subscription to another plan;
    /// [`SubscriptionEvent::plan_change`] says what it charged or credited.
    SubscriptionUpdated(SubscriptionEvent),
    /// An event type this version of the crate does not know, kept as sent.
    Unknown {
        /// The event type, e.g. `subscription.charge_upcoming`.
        event_type: String,
        /// The event's JSON: the whole body, or an envelope's `data`.
        raw: Value,
    },
}

impl Event {
    /// The event type, e.g. `receipt.status_updated`.
    pub fn event_type(&self) -> &str {
        match self {
            Self::ReceiptStatusUpdated(_) => RECEIPT_STATUS_UPDATED,
            Self::SubscriptionCreated(_) => SUBSCRIPTION_CREATED,
            Self::SubscriptionChargeUpcoming(_) => SUBSCRIPTION_CHARGE_UPCOMING,
            Self::SubscriptionCharged(_) => SUBSCRIPTION_CHARGED,
            Self::SubscriptionChargeFailed(_) => SUBSCRIPTION_CHARGE_FAILED,
            Self::SubscriptionCanceled(_) => SUBSCRIPTION_CANCELED,
            Self::SubscriptionUpdated(_) => SUBSCRIPTION_UPDATED,
            Self::Unknown { event_type, .. } => event_type,
        }
    }

    /// The body of any of the subscription events.
    pub fn subscription(&self) -> Option<&SubscriptionEvent> {
        match self {
            Self::SubscriptionCreated(event)
            | Self::SubscriptionChargeUpcoming(event)
            | Self::SubscriptionCharged(event)
            | Self::SubscriptionChargeFailed(event)
            | Self::SubscriptionCanceled(event)
            | Self::SubscriptionUpdated(event) => Some(event),
            Self::ReceiptStatusUpdated(_) | Self::Unknown { .. } => None,
        }
    }

    /// The event of type `event_type` whose fields are `body`.
    fn from_parts(event_type: &str, body: Value) -> Result<Self, BodyError> {
        let subscription: fn(SubscriptionEvent) -> Self = match event_type {
            RECEIPT_STATUS_UPDATED => return typed(event_type, body).map(Self::ReceiptStatusUpdated),
            SUBSCRIPTION_CREATED => Self::SubscriptionCreated,
            SUBSCRIPTION_CHARGE_UPCOMING => Self::SubscriptionChargeUpcoming,
            SUBSCRIPTION_CHARGED => Self::SubscriptionCharged,
            SUBSCRIPTION_CHARGE_FAILED => Self::SubscriptionChargeFailed,
            SUBSCRIPTION_CANCELED => Self::SubscriptionCanceled,
            SUBSCRIPTION_UPDATED => Self::SubscriptionUpdated,
            _ => {
                return Ok(Self::Unknown {
                    event_type: event_type.to_owned(),
                    raw: body,
                });
            }
        };
        typed(event_type, body).map(subscription)
    }
}

/// A delivery to a merchant's webhook endpoint: the event wrapped with the delivery's id, time and test
/// flag, sent as `{"id", "type", "createdAt", "test", "data"}`.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Envelope {
    /// The message id (`msg_...`), equal to the signed `webhook-id` header: a deduplication key.
    pub id: String,
    /// When the event happened, Unix milliseconds. Deliveries may arrive out of order; this orders them.
    pub created_at: u64,
    /// `true` only for test events sent by `payments webhooks trigger`: nothing really happened.
    pub test: bool,
    /// The event, typed by the envelope's `type`, from its `data`.
    pub event: Event,
}

/// A verified webhook body: either the event itself (the webhooks of a receipt's `webhook_url` or a plan's
/// `webhookUrl`) or an [`Envelope`] around it (the webhooks of a merchant's webhook endpoints).
///
/// Most handlers only need [`Webhook::event`] and [`Webhook::is_test`].
///
/// ```
/// use webhook_verify::{Event, Webhook};
///
/// let body = br#"{"id":"msg_1","type":"receipt.status_updated","createdAt":1767599992000,"test":true,
///     "data":{"event":"receipt.status_updated","receiptId":"R-1","status":"paid"}}"#;
/// let webhook = Webhook::parse(body)?;
///
/// assert!(webhook.is_test());
/// assert!(matches!(webhook.event(), Event::ReceiptStatusUpdated(receipt) if receipt.receipt_id == "R-1"));
/// # Ok::<(), webhook_verify::BodyError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Webhook {
    /// The body is the event, with its type in `event`.
    Direct(Event),
    /// The body is an endpoint envelope, with the type in `type` and the event in `data`.
    Enveloped(Envelope),
}

impl Webhook {
    /// Reads a body **you have already verified** (or one you made in a test). In a handler use
    /// [`Verifier::verify_and_parse`](crate::Verifier::verify_and_parse), which checks the signature first.
    ///
    /// Parse the body as received, and bound its size before (the service's bodies are a few KiB): parsing
    /// holds the whole JSON document in memory. Nesting deeper than 128 levels is an error, not a crash.
    ///
    /// # Errors
    ///
    /// [`BodyError`] when the body is not JSON, not an object with a string `event` or an envelope (`id`,
    /// `type`, `createdAt`, optional `test`, `data`), or when an event of a known type lacks that type's
    /// required fields. An unknown event type is not an error: it is [`Event::Unknown`].
    pub fn parse(body: &[u8]) -> Result<Self, BodyError> {
        let value: Value = serde_json::from_slice(body).map_err(|err| BodyError::json(None, err))?;
        let Value::Object(object) = value else {
            return Err(BodyError::not_an_event("the body is not a JSON object"));
        };
        match object.get("event") {
            Some(Value::String(event_type)) => {
                let event_type = event_type.clone();
                Event::from_parts(&event_type, Value::Object(object)).map(Self::Direct)
            }
            Some(_) => Err(BodyError::not_an_event("`event` is not a string")),
            None if object.contains_key("type") => envelope(object).map(Self::Enveloped),
            None => Err(BodyError::not_an_event(
                "neither `event` (an event) nor `type` (an envelope)",
            )),
        }
    }

    /// The event, whichever form it came in.
    pub fn event(&self) -> &Event {
        match self {
            Self::Direct(event) => event,
            Self::Enveloped(envelope) => &envelope.event,
        }
    }

    /// The event, whichever form it came in, by value.
    pub fn into_event(self) -> Event {
        match self {
            Self::Direct(event) => event,
            Self::Enveloped(envelope) => envelope.event,
        }
    }

    /// The event type, e.g. `subscription.charged`.
    pub fn event_type(&self) -> &str {
        self.event().event_type()
    }

    /// Whether this is a test event (`"test": true` in an envelope): do not ship anything for it.
    pub fn is_test(&self) -> bool {
        matches!(self, Self::Enveloped(envelope) if envelope.test)
    }
}

/// The envelope's fields as sent.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawEnvelope {
    id: String,
    #[serde(rename = "type")]
    event_type: String,
    created_at: u64,
    #[serde(default)]
    test: bool,
    data: Value,
}

fn envelope(object: Map<String, Value>) -> Result<Envelope, BodyError> {
    let announced = object.get("type").and_then(Value::as_str).map(str::to_owned);
    let raw: RawEnvelope = serde_json::from_value(Value::Object(object))
        .map_err(|err| BodyError::json(announced.as_deref(), err))?;
    Ok(Envelope {
        id: raw.id,
        created_at: raw.created_at,
        test: raw.test,
        event: Event::from_parts(&raw.event_type, raw.data)?,
    })
}

/// The fields of a known event type. An envelope's `data` may leave out its own `event`; when it has
/// one, it must name the same type.
fn typed<T: DeserializeOwned>(event_type: &str, mut body: Value) -> Result<T, BodyError> {
    if let Value::Object(fields) = &mut body {
        match fields.get("event") {
            None => {
                fields.insert("event".to_owned(), Value::String(event_type.to_owned()));
            }
            Some(Value::String(own)) if own == event_type => {}
            Some(Value::String(own)) => return Err(BodyError::type_mismatch(event_type, own)),
            Some(_) => return Err(BodyError::type_mismatch(event_type, "(not a string)")),
        }
    }
    serde_json::from_value(body).map_err(|err| BodyError::json(Some(event_type), err))
}
