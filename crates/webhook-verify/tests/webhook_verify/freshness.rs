//! Freshness of both schemes: stale and future timestamps, the tolerance boundary, custom and disabled tolerances.

mod x_service {
    use std::time::Duration;

    use webhook_verify::{Tolerance, Verifier, VerifyError};

    use crate::common::{SENT_AT_MS, at_millis, vector, with_header, without_header, x_service_now};

    fn verify_vector0(headers: &[(String, String)]) -> Result<webhook_verify::Verified, VerifyError> {
        let v = vector(0);
        Verifier::new(v.api_key()).verify_at(headers, &v.body(), x_service_now())
    }

    #[test]
    fn a_timestamp_older_than_five_minutes_is_stale() {
        let v = vector(0);
        let now = at_millis(SENT_AT_MS + 300_001);

        let result = Verifier::new(v.api_key()).verify_at(&v.x_service_headers(), &v.body(), now);

        match result {
            Err(VerifyError::Stale { age, tolerance }) => {
                assert_eq!(age, Duration::from_millis(300_001));
                assert_eq!(tolerance, Duration::from_secs(300));
            }
            other => panic!("expected stale, got {other:?}"),
        }
    }

    #[test]
    fn a_timestamp_exactly_five_minutes_old_is_still_fresh() {
        let v = vector(0);

        let result = Verifier::new(v.api_key()).verify_at(
            &v.x_service_headers(),
            &v.body(),
            at_millis(SENT_AT_MS + 300_000),
        );

        assert!(result.is_ok(), "{result:?}");
    }

    #[test]
    fn a_timestamp_more_than_five_minutes_ahead_is_from_the_future() {
        let v = vector(0);
        let now = at_millis(SENT_AT_MS - 300_001);

        let result = Verifier::new(v.api_key()).verify_at(&v.x_service_headers(), &v.body(), now);

        assert!(
            matches!(result, Err(VerifyError::FromTheFuture { ahead, .. }) if ahead == Duration::from_millis(300_001)),
            "{result:?}"
        );
    }

    #[test]
    fn a_custom_tolerance_replaces_the_default() {
        let v = vector(0);
        let verifier = Verifier::new(v.api_key()).with_tolerance(Tolerance::Within(Duration::from_secs(60)));

        let fresh = verifier.verify_at(&v.x_service_headers(), &v.body(), at_millis(SENT_AT_MS + 60_000));
        let stale = verifier.verify_at(&v.x_service_headers(), &v.body(), at_millis(SENT_AT_MS + 60_001));

        assert!(fresh.is_ok(), "{fresh:?}");
        assert!(matches!(stale, Err(VerifyError::Stale { .. })), "{stale:?}");
    }

    #[test]
    fn a_disabled_tolerance_accepts_an_old_timestamp_and_a_missing_one() {
        let v = vector(0);
        let verifier = Verifier::new(v.api_key()).with_tolerance(Tolerance::Disabled);
        let headers = without_header(&v.x_service_headers(), "x-service-timestamp");

        assert!(
            verifier
                .verify_at(&v.x_service_headers(), &v.body(), at_millis(SENT_AT_MS * 2))
                .is_ok()
        );
        assert!(verifier.verify_at(&headers, &v.body(), x_service_now()).is_ok());
    }

    #[test]
    fn a_timestamp_that_is_not_a_plain_integer_is_malformed() {
        for timestamp in [
            "",
            "-1",
            "+1767599992000",
            "1767599992000.5",
            "1.767e12",
            "abc",
            "99999999999999999999999",
        ] {
            let headers = with_header(&vector(0).x_service_headers(), "x-service-timestamp", timestamp);

            let result = verify_vector0(&headers);

            assert!(
                matches!(
                    result,
                    Err(VerifyError::MalformedHeader {
                        name: "x-service-timestamp",
                        ..
                    })
                ),
                "{timestamp:?}: {result:?}"
            );
        }
    }

    #[test]
    fn the_verified_timestamp_is_the_header_value() {
        let verified = verify_vector0(&vector(0).x_service_headers()).unwrap();

        assert_eq!(verified.timestamp, Some(at_millis(SENT_AT_MS)));
    }
}

mod standard_webhooks {
    use std::time::Duration;

    use webhook_verify::{Tolerance, Verifier, VerifyError};

    use crate::common::{at_secs, vector, without_header};

    /// Vector 0's timestamp, in seconds.
    const SENT_AT: u64 = 1_767_599_992;
    /// 32 bytes of well-formed base64 that are nobody's signature.
    const GARBAGE: &str = "v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";

    fn with_signature(signature: &str) -> Vec<(String, String)> {
        vector(0).standard_headers_with_signature(signature)
    }

    #[test]
    fn a_webhook_timestamp_older_than_five_minutes_is_stale() {
        let v = vector(0);

        let result = Verifier::standard_webhooks(v.secret()).verify_at(
            &v.standard_headers(),
            &v.body(),
            at_secs(SENT_AT + 301),
        );

        assert!(
            matches!(result, Err(VerifyError::Stale { age, .. }) if age == Duration::from_secs(301)),
            "{result:?}"
        );
    }

    #[test]
    fn a_webhook_timestamp_five_minutes_old_is_still_fresh() {
        let v = vector(0);

        let result = Verifier::standard_webhooks(v.secret()).verify_at(
            &v.standard_headers(),
            &v.body(),
            at_secs(SENT_AT + 300),
        );

        assert!(result.is_ok(), "{result:?}");
    }

    #[test]
    fn a_webhook_timestamp_more_than_five_minutes_ahead_is_from_the_future() {
        let v = vector(0);

        let result = Verifier::standard_webhooks(v.secret()).verify_at(
            &v.standard_headers(),
            &v.body(),
            at_secs(SENT_AT - 301),
        );

        assert!(
            matches!(result, Err(VerifyError::FromTheFuture { .. })),
            "{result:?}"
        );
    }

    #[test]
    fn a_forged_signature_is_reported_as_a_mismatch_not_as_stale() {
        let v = vector(0);
        let headers = with_signature(GARBAGE);

        let result =
            Verifier::standard_webhooks(v.secret()).verify_at(&headers, &v.body(), at_secs(SENT_AT + 3_600));

        assert!(
            matches!(result, Err(VerifyError::SignatureMismatch)),
            "{result:?}"
        );
    }

    #[test]
    fn a_disabled_tolerance_accepts_an_old_delivery_but_still_needs_its_timestamp() {
        let v = vector(0);
        let verifier = Verifier::standard_webhooks(v.secret()).with_tolerance(Tolerance::Disabled);

        let old = verifier.verify_at(&v.standard_headers(), &v.body(), at_secs(SENT_AT + 86_400));
        let missing = verifier.verify_at(
            &without_header(&v.standard_headers(), "webhook-timestamp"),
            &v.body(),
            at_secs(SENT_AT),
        );

        assert!(old.is_ok(), "{old:?}");
        assert!(
            matches!(
                missing,
                Err(VerifyError::MissingHeader {
                    name: "webhook-timestamp"
                })
            ),
            "{missing:?}"
        );
    }
}
