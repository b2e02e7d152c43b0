//! Webhook-endpoint envelopes, event types this version does not know, and bodies that are not events.

use serde_json::json;
use webhook_verify::{Event, ReceiptStatus, SubscriptionStatus, Webhook};

/// The event types announced as coming next: each must parse, never fail.
const UPCOMING_TYPES: [&str; 4] = [
    "subscription.paused",
    "receipt.underpaid",
    "receipt.overpaid",
    "endpoint.disabled",
];

fn parse(body: &serde_json::Value) -> Webhook {
    Webhook::parse(body.to_string().as_bytes()).unwrap()
}

#[test]
fn an_envelope_carries_its_id_time_and_test_flag_around_a_typed_event() {
    let body = json!({
        "id": "msg_2xK9",
        "type": "receipt.status_updated",
        "createdAt": 1_767_599_992_000_u64,
        "test": true,
        "data": {"event": "receipt.status_updated", "receiptId": "R-5", "status": "paid", "totalUsd": 12.5}
    });

    let webhook = parse(&body);

    let Webhook::Enveloped(envelope) = &webhook else {
        panic!("expected an envelope: {webhook:?}");
    };
    assert_eq!(envelope.id, "msg_2xK9");
    assert_eq!(envelope.created_at, 1_767_599_992_000);
    assert!(envelope.test);
    assert!(webhook.is_test());
    assert_eq!(webhook.event_type(), "receipt.status_updated");
    match webhook.event() {
        Event::ReceiptStatusUpdated(receipt) => {
            assert_eq!(receipt.receipt_id, "R-5");
            assert_eq!(receipt.status, ReceiptStatus::Paid);
            assert_eq!(receipt.total_cents(), Some(1_250));
        }
        other => panic!("expected a receipt event, got {other:?}"),
    }
}

#[test]
fn an_envelope_without_a_test_flag_is_a_live_event() {
    let body = json!({
        "id": "msg_1", "type": "subscription.charged", "createdAt": 1,
        "data": {"event": "subscription.charged", "subscriptionId": "csub_1", "status": "active"}
    });

    let webhook = parse(&body);

    assert!(!webhook.is_test());
    assert!(
        matches!(webhook.event(), Event::SubscriptionCharged(event) if event.status == SubscriptionStatus::Active)
    );
}

#[test]
fn a_direct_event_is_never_a_test() {
    let webhook = parse(
        &json!({"event": "receipt.status_updated", "receiptId": "R-1", "status": "paid", "test": true}),
    );

    assert!(matches!(webhook, Webhook::Direct(Event::ReceiptStatusUpdated(_))));
    assert!(!webhook.is_test());
}

#[test]
fn an_envelope_whose_data_leaves_out_its_own_event_takes_the_envelope_type() {
    let body = json!({
        "id": "msg_3", "type": "subscription.created", "createdAt": 5,
        "data": {"subscriptionId": "csub_7", "status": "active"}
    });

    let webhook = parse(&body);

    let Event::SubscriptionCreated(event) = webhook.into_event() else {
        panic!("expected subscription.created");
    };
    assert_eq!(event.event, "subscription.created");
    assert_eq!(event.subscription_id, "csub_7");
}

#[test]
fn an_envelope_whose_data_names_another_event_is_refused() {
    let body = json!({
        "id": "msg_4", "type": "receipt.status_updated", "createdAt": 5,
        "data": {"event": "subscription.created", "receiptId": "R-1", "status": "paid"}
    });

    let err = Webhook::parse(body.to_string().as_bytes()).unwrap_err();

    assert_eq!(err.event_type(), Some("receipt.status_updated"));
    assert!(err.to_string().contains("subscription.created"), "{err}");
}

#[test]
fn upcoming_event_types_arrive_as_unknown_with_their_json_in_both_forms() {
    for event_type in UPCOMING_TYPES {
        let data = json!({"event": event_type, "subscriptionId": "csub_1", "balanceSufficient": false});
        let envelope = json!({"id": "msg_5", "type": event_type, "createdAt": 9, "data": data});

        for webhook in [parse(&data), parse(&envelope)] {
            match webhook.event() {
                Event::Unknown { event_type: got, raw } => {
                    assert_eq!(got, event_type);
                    assert_eq!(raw, &data);
                }
                other => panic!("{event_type}: expected Unknown, got {other:?}"),
            }
        }
    }
}

#[test]
fn an_unknown_type_keeps_data_of_any_shape() {
    let body = json!({"id": "msg_6", "type": "endpoint.disabled", "createdAt": 1, "data": ["a", 1]});

    let webhook = parse(&body);

    assert!(matches!(webhook.event(), Event::Unknown { raw, .. } if raw == &json!(["a", 1])));
}

#[test]
fn bodies_that_are_not_events_are_refused_with_a_typed_error() {
    let cases: [&[u8]; 9] = [
        b"",
        b"not json",
        b"[1,2]",
        b"\"receipt.status_updated\"",
        br#"{"receiptId":"R-1","status":"paid"}"#,
        br#"{"event":42,"receiptId":"R-1","status":"paid"}"#,
        br#"{"id":"msg_1","type":"receipt.status_updated","data":{"receiptId":"R-1","status":"paid"}}"#,
        br#"{"id":"msg_1","type":"receipt.status_updated","createdAt":-1,"data":{}}"#,
        br#"{"event":"receipt.status_updated","receiptId":7,"status":"paid"}"#,
    ];

    for body in cases {
        let result = Webhook::parse(body);

        assert!(result.is_err(), "{}: {result:?}", String::from_utf8_lossy(body));
    }
}

#[test]
fn a_known_type_with_the_wrong_shape_names_the_type_in_its_error() {
    let err = Webhook::parse(br#"{"event":"receipt.status_updated","status":"paid"}"#).unwrap_err();

    assert_eq!(err.event_type(), Some("receipt.status_updated"));
    assert!(err.to_string().contains("receiptId"), "{err}");
}

#[test]
fn json_nested_deeper_than_serde_json_allows_is_an_error_not_a_crash() {
    let deep = format!(
        r#"{{"event":"x","data":{}1{}}}"#,
        "[".repeat(100_000),
        "]".repeat(100_000)
    );

    assert!(Webhook::parse(deep.as_bytes()).is_err());
}
