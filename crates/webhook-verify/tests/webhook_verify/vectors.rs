//! Every shared vector verifies under both schemes.

use webhook_verify::{Scheme, Tolerance, Verifier, VerifyError};

use crate::common::{vector, vectors, x_service_now};

#[test]
fn every_vector_verifies_under_x_service_signature() {
    for (index, v) in vectors().iter().enumerate() {
        let verified = Verifier::new(v.api_key())
            .verify_at(&v.x_service_headers(), &v.body(), x_service_now())
            .unwrap_or_else(|err| panic!("vector {index}: {err}"));
        assert_eq!(verified.scheme, Scheme::XService, "vector {index}");
    }
}

#[test]
fn every_vector_verifies_under_standard_webhooks() {
    for (index, v) in vectors().iter().enumerate() {
        let verified = Verifier::standard_webhooks(v.secret())
            .verify_at(&v.standard_headers(), &v.body(), v.standard_now())
            .unwrap_or_else(|err| panic!("vector {index}: {err}"));
        assert_eq!(verified.scheme, Scheme::StandardWebhooks, "vector {index}");
        assert_eq!(
            verified.webhook_id.as_deref(),
            Some(v.standard_webhooks.webhook_id.as_str())
        );
    }
}

#[test]
fn every_vector_verifies_without_a_timestamp_check_when_freshness_is_disabled() {
    for (index, v) in vectors().iter().enumerate() {
        let headers = [("x-service-signature", v.x_service_signature.as_str())];
        let verified = Verifier::new(v.api_key())
            .with_tolerance(Tolerance::Disabled)
            .verify(&headers, &v.body())
            .unwrap_or_else(|err| panic!("vector {index}: {err}"));
        assert_eq!(verified.timestamp, None);
    }
}

#[test]
fn a_body_re_serialised_from_parsed_json_no_longer_verifies() {
    // Vector 2's body has insignificant whitespace and a trailing newline; the signature covers those bytes.
    let v = vector(2);
    let parsed: serde_json::Value = serde_json::from_slice(&v.body()).unwrap();
    let reserialised = serde_json::to_vec(&parsed).unwrap();
    assert_ne!(reserialised, v.body());

    let result = Verifier::new(v.api_key()).verify_at(&v.x_service_headers(), &reserialised, x_service_now());

    assert!(
        matches!(result, Err(VerifyError::SignatureMismatch)),
        "{result:?}"
    );
}

#[cfg(feature = "serde")]
mod parsed {
    use webhook_verify::{Event, ReceiptStatus, ReceiptStatusUpdated, Verifier, VerifyError, Webhook};

    use crate::common::{vector, x_service_now};

    fn receipt(webhook: Webhook) -> ReceiptStatusUpdated {
        match webhook {
            Webhook::Direct(Event::ReceiptStatusUpdated(event)) => event,
            other => panic!("expected a direct receipt event, got {other:?}"),
        }
    }

    #[test]
    fn a_paid_vector_parses_into_a_typed_event() {
        let v = vector(0);

        let event = receipt(
            Verifier::new(v.api_key())
                .verify_and_parse_at(&v.x_service_headers(), &v.body(), x_service_now())
                .unwrap(),
        );

        assert_eq!(event.event, "receipt.status_updated");
        assert_eq!(event.receipt_id, "R-000123");
        assert_eq!(event.status, ReceiptStatus::Paid);
        assert_eq!(event.previous_status, Some(ReceiptStatus::CheckoutInitialized));
        assert_eq!(event.total_usd, Some(25.0));
        assert_eq!(event.total_cents(), Some(2_500));
        assert_eq!(event.transaction_hash, None);
    }

    #[test]
    fn a_failed_vector_with_non_ascii_text_parses_under_standard_webhooks() {
        let v = vector(1);

        let event = receipt(
            Verifier::standard_webhooks(v.secret())
                .verify_and_parse_at(&v.standard_headers(), &v.body(), v.standard_now())
                .unwrap(),
        );

        assert_eq!(event.receipt_id, "café-9");
        assert_eq!(event.status, ReceiptStatus::Failed);
        assert_eq!(
            event.failure_reason.as_deref(),
            Some("carte refusée – fonds insuffisants")
        );
        assert_eq!(event.total_usd, None);
    }

    #[test]
    fn a_tracking_vector_carries_its_timestamp_and_total() {
        let v = vector(4);

        let event = receipt(
            Verifier::new(v.api_key())
                .verify_and_parse_at(&v.x_service_headers(), &v.body(), x_service_now())
                .unwrap(),
        );

        assert_eq!(event.status, ReceiptStatus::LinkOpened);
        assert_eq!(event.timestamp, Some(1_760_354_495_734));
        assert_eq!(event.total_cents(), Some(763_581));
    }

    #[test]
    fn an_authentic_body_that_is_not_an_event_is_an_invalid_body() {
        for index in [2, 3] {
            let v = vector(index);

            let result = Verifier::new(v.api_key()).verify_and_parse_at(
                &v.x_service_headers(),
                &v.body(),
                x_service_now(),
            );

            assert!(
                matches!(result, Err(VerifyError::InvalidBody(_))),
                "vector {index}: {result:?}"
            );
        }
    }
}
