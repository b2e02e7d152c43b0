//! Body parsing: arbitrary bytes, arbitrary JSON, envelopes of any type, statuses of any name.

use proptest::prelude::*;
use serde_json::{Map, Value};
use webhook_verify::{Event, ReceiptStatus, Webhook};

use super::config;

/// Keys the parser looks at, mixed with others, so generated objects often look almost like events.
fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("event".to_owned()),
        Just("type".to_owned()),
        Just("data".to_owned()),
        Just("id".to_owned()),
        Just("createdAt".to_owned()),
        Just("test".to_owned()),
        Just("receiptId".to_owned()),
        Just("subscriptionId".to_owned()),
        Just("status".to_owned()),
        "[a-zA-Z]{1,10}",
    ]
}

/// Strings the parser dispatches on, mixed with any text.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("receipt.status_updated".to_owned()),
        Just("subscription.created".to_owned()),
        Just("subscription.charged".to_owned()),
        Just("paid".to_owned()),
        Just("active".to_owned()),
        "\\PC{0,16}",
    ]
}

fn json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        text().prop_map(Value::String),
    ];
    leaf.prop_recursive(5, 96, 8, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            proptest::collection::vec((key(), inner), 0..8)
                .prop_map(|fields| Value::Object(fields.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// The type an event body or an envelope announces, as the parser must report it.
fn announced_type(value: &Value) -> Option<&str> {
    match value.get("event") {
        Some(event) => event.as_str(),
        None => value.get("type")?.as_str(),
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn arbitrary_bytes_never_panic_the_parser(body in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let _ = Webhook::parse(&body);
    }

    #[test]
    fn arbitrary_json_parses_into_the_type_it_announces_or_fails_typed(value in json()) {
        let body = value.to_string();

        let result = Webhook::parse(body.as_bytes());

        if let Ok(webhook) = &result {
            prop_assert_eq!(Some(webhook.event_type()), announced_type(&value), "{}", body);
        }
        if let Err(err) = &result {
            // The error names the announced type whenever there was one to name.
            if let Some(event_type) = err.event_type() {
                prop_assert_eq!(Some(event_type), announced_type(&value), "{}", body);
            }
        }
    }

    #[test]
    fn an_envelope_of_an_unknown_type_keeps_any_data_as_sent(
        event_type in "[a-z_]{1,12}\\.[a-z_]{1,16}",
        id in "\\PC{0,20}",
        created_at in any::<u64>(),
        test in any::<bool>(),
        data in json(),
    ) {
        prop_assume!(!event_type.starts_with("receipt.") && !event_type.starts_with("subscription."));
        let body = serde_json::json!({"id": id, "type": event_type, "createdAt": created_at, "test": test, "data": data});

        let webhook = Webhook::parse(body.to_string().as_bytes()).unwrap();

        prop_assert_eq!(webhook.is_test(), test);
        let Webhook::Enveloped(envelope) = webhook else {
            return Err(TestCaseError::fail("expected an envelope"));
        };
        prop_assert_eq!(envelope.id, id);
        prop_assert_eq!(envelope.created_at, created_at);
        prop_assert_eq!(envelope.event, Event::Unknown { event_type, raw: data });
    }

    #[test]
    fn a_receipt_event_with_any_status_and_extra_fields_parses_and_keeps_the_status(
        status in "\\PC{0,24}",
        extra in proptest::collection::vec(("[a-z]{3,10}", json()), 0..6),
    ) {
        let mut body = Map::new();
        for (name, value) in extra {
            body.insert(name, value);
        }
        body.insert("event".to_owned(), "receipt.status_updated".into());
        body.insert("receiptId".to_owned(), "R-1".into());
        body.insert("status".to_owned(), status.clone().into());
        let body = Value::Object(body).to_string();

        let result = Webhook::parse(body.as_bytes());

        // Extra fields may collide with known optional ones and give them the wrong type; that is the only
        // acceptable failure.
        match result {
            Ok(webhook) => match webhook.into_event() {
                Event::ReceiptStatusUpdated(event) => {
                    prop_assert_eq!(event.status.as_str(), status.as_str());
                    prop_assert_eq!(event.status, ReceiptStatus::from(status.as_str()));
                }
                other => return Err(TestCaseError::fail(format!("not a receipt event: {other:?}"))),
            },
            Err(err) => prop_assert_eq!(err.event_type(), Some("receipt.status_updated")),
        }
    }
}

#[cfg(feature = "test-helpers")]
proptest! {
    #![proptest_config(config())]

    #[test]
    fn signed_arbitrary_bytes_verify_then_parse_or_fail_only_as_an_invalid_body(
        body in prop_oneof![
            proptest::collection::vec(any::<u8>(), 0..1024),
            json().prop_map(|value| value.to_string().into_bytes()),
        ],
    ) {
        use std::time::SystemTime;
        use webhook_verify::{Verifier, VerifyError, WebhookSecret, testing};

        let secret = WebhookSecret::new("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").unwrap();
        let now = SystemTime::now();
        let headers = testing::standard_webhooks_headers(&secret, "msg_1", &body, now);

        let result = Verifier::standard_webhooks(secret).verify_and_parse_at(&headers, &body, now);

        prop_assert!(matches!(result, Ok(_) | Err(VerifyError::InvalidBody(_))), "{:?}", result);
    }
}
