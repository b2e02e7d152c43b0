//! The `test-helpers` feature produces headers that verify, and matches the shared vectors.

use std::time::SystemTime;

use webhook_verify::{Verifier, testing};

use crate::common::{vector, vectors};

#[test]
fn the_x_service_signature_helper_reproduces_every_vector() {
    for v in vectors() {
        assert_eq!(
            testing::sign_x_service(&v.api_key(), &v.body()),
            v.x_service_signature
        );
    }
}

#[test]
fn the_standard_webhooks_signature_helper_reproduces_every_vector() {
    for v in vectors() {
        let s = &v.standard_webhooks;
        let timestamp = s.webhook_timestamp.parse().unwrap();

        let signature = testing::sign_standard_webhooks(&v.secret(), &s.webhook_id, timestamp, &v.body());

        assert_eq!(signature, s.webhook_signature);
    }
}

#[test]
fn x_service_headers_verify_with_the_same_key_now() {
    let v = vector(0);
    let headers = testing::x_service_headers(&v.api_key(), &v.body(), SystemTime::now());

    assert!(Verifier::new(v.api_key()).verify(&headers, &v.body()).is_ok());
    assert!(
        headers
            .iter()
            .any(|(name, value)| *name == "x-service-event" && value == "receipt.status_updated")
    );
}

#[test]
fn standard_webhooks_headers_verify_with_the_same_secret_now() {
    let v = vector(1);
    let headers = testing::standard_webhooks_headers(&v.secret(), "msg_test", &v.body(), SystemTime::now());

    let verified = Verifier::standard_webhooks(v.secret())
        .verify(&headers, &v.body())
        .unwrap();

    assert_eq!(verified.webhook_id.as_deref(), Some("msg_test"));
}

#[test]
fn a_retried_delivery_keeps_its_delivery_id() {
    let v = vector(0);
    let delivery = |headers: Vec<(&'static str, String)>| {
        headers
            .into_iter()
            .find(|(name, _)| *name == "x-service-delivery")
            .map(|(_, value)| value)
    };

    let first = delivery(testing::x_service_headers(
        &v.api_key(),
        &v.body(),
        SystemTime::now(),
    ));
    let retry = delivery(testing::x_service_headers(
        &v.api_key(),
        &v.body(),
        SystemTime::now(),
    ));

    assert_eq!(first.as_deref().map(str::len), Some(36));
    assert_eq!(first, retry);
}

#[test]
fn the_secret_derived_from_an_api_key_is_the_whsec_form_of_that_key() {
    let api_key = "sk_test";
    // base64("sk_test") = "c2tfdGVzdA=="
    let written = webhook_verify::WebhookSecret::new("whsec_c2tfdGVzdA==").unwrap();
    let derived = webhook_verify::WebhookSecret::from_api_key(api_key).unwrap();
    let body = b"{}";
    let headers = testing::standard_webhooks_headers(&written, "msg_1", body, SystemTime::now());

    assert!(
        Verifier::standard_webhooks(derived)
            .verify(&headers, body)
            .is_ok()
    );
}
