//! A webhook endpoint's own `whsec_` secret: an envelope delivery, signed during a secret rotation with the
//! new and the old secret in one header. The signatures were made with Python's `hmac` module, not with
//! this crate.

use webhook_verify::{Event, SubscriptionStatus, Verifier, VerifyError, WebhookSecret};

use crate::common::at_secs;

const NEW_SECRET: &str = "whsec_Jn0xJ0N3iVsw5cQf6QdyqP1vb1dB6kM5x9p1Kc0Bf3s=";
const OLD_SECRET: &str = "whsec_q83vEjRWeJASNFZ4kKvN7xI0VniQq83vEjRWeJCrze8=";
const ID: &str = "msg_2Lh8ZqYdTn4kS1vW";
const TIMESTAMP: &str = "1767600000";
const BODY: &str = r#"{"id":"msg_2Lh8ZqYdTn4kS1vW","type":"subscription.created","createdAt":1767600000123,"test":false,"data":{"event":"subscription.created","id":"msg_2Lh8ZqYdTn4kS1vW","timestamp":1767600000123,"subscriptionId":"csub_42","planId":"plan_7","merchantWallet":"0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","customerWallet":"0xcccccccccccccccccccccccccccccccccccccccc","status":"active","previousStatus":null,"period":"MONTHLY","priceUsd":2.50,"priceBaseUnits":"2500000","charge":null,"cancelReason":null}}"#;
const SIGNED_WITH_NEW: &str = "v1,tpWXvqurfp5ds8fIvjom+ul5DXx5WfzztIHbo94EC8c=";
const SIGNED_WITH_OLD: &str = "v1,j/qgoAyp8H1k7S2Khv1P6cbTvuKOzeQ/SBsHJKipKuQ=";

fn headers(signature: &str) -> [(&'static str, String); 3] {
    [
        ("webhook-id", ID.to_owned()),
        ("webhook-timestamp", TIMESTAMP.to_owned()),
        ("webhook-signature", signature.to_owned()),
    ]
}

fn verifier(secret: &str) -> Verifier {
    Verifier::standard_webhooks(WebhookSecret::new(secret).unwrap())
}

fn one_second_later() -> std::time::SystemTime {
    at_secs(1_767_600_001)
}

#[test]
fn an_endpoint_delivery_verifies_with_its_secret_and_parses_its_envelope() {
    let webhook = verifier(NEW_SECRET)
        .verify_and_parse_at(&headers(SIGNED_WITH_NEW), BODY.as_bytes(), one_second_later())
        .unwrap();

    let webhook_verify::Webhook::Enveloped(envelope) = webhook else {
        panic!("expected an envelope");
    };
    assert_eq!(envelope.id, ID);
    assert_eq!(envelope.created_at, 1_767_600_000_123);
    assert!(!envelope.test);
    let Event::SubscriptionCreated(created) = envelope.event else {
        panic!("expected subscription.created");
    };
    assert_eq!(created.subscription_id, "csub_42");
    assert_eq!(created.status, SubscriptionStatus::Active);
}

#[test]
fn during_a_rotation_both_signatures_travel_in_one_header_and_either_secret_verifies() {
    let rotating = headers(&format!("{SIGNED_WITH_NEW} {SIGNED_WITH_OLD}"));

    for secret in [NEW_SECRET, OLD_SECRET] {
        let result = verifier(secret).verify_at(&rotating, BODY.as_bytes(), one_second_later());

        assert!(result.is_ok(), "{secret}: {result:?}");
    }
}

#[test]
fn a_rotation_header_does_not_verify_with_a_third_secret() {
    let rotating = headers(&format!("{SIGNED_WITH_NEW} {SIGNED_WITH_OLD}"));
    let third = "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";

    let result = verifier(third).verify_at(&rotating, BODY.as_bytes(), one_second_later());

    assert!(
        matches!(result, Err(VerifyError::SignatureMismatch)),
        "{result:?}"
    );
}

#[test]
fn an_endpoint_delivery_outside_the_tolerance_is_stale_even_when_signed() {
    let result = verifier(NEW_SECRET).verify_at(
        &headers(SIGNED_WITH_NEW),
        BODY.as_bytes(),
        at_secs(1_767_600_000 + 301),
    );

    assert!(matches!(result, Err(VerifyError::Stale { .. })), "{result:?}");
}

#[test]
fn an_over_long_signature_header_is_refused_before_any_work() {
    let huge = format!("{SIGNED_WITH_NEW} {}", "v1,AAAA ".repeat(1_000));

    let result = verifier(NEW_SECRET).verify_at(&headers(&huge), BODY.as_bytes(), one_second_later());

    assert!(
        matches!(
            result,
            Err(VerifyError::MalformedHeader {
                name: "webhook-signature",
                ..
            })
        ),
        "{result:?}"
    );
}
