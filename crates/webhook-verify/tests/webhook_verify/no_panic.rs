//! No input panics: arbitrary header bytes and key text only ever produce errors.

use proptest::prelude::*;
use webhook_verify::{ApiKey, Verifier, WebhookSecret};

use crate::common::{vector, x_service_now};

proptest! {
    #[test]
    fn arbitrary_x_service_header_bytes_never_panic_and_never_verify(
        signature in proptest::collection::vec(any::<u8>(), 0..96),
        timestamp in proptest::collection::vec(any::<u8>(), 0..24),
    ) {
        let v = vector(0);
        let headers = [("x-service-signature", signature), ("x-service-timestamp", timestamp)];

        let result = Verifier::new(v.api_key()).verify_at(&headers, &v.body(), x_service_now());

        prop_assert!(result.is_err());
    }

    #[test]
    fn arbitrary_text_after_the_sha256_prefix_never_panics(tail in "\\PC{0,70}") {
        let v = vector(0);
        let signature = format!("sha256={tail}");
        let headers = [("x-service-signature", signature.as_str()), ("x-service-timestamp", "1767599992000")];

        let result = Verifier::new(v.api_key()).verify_at(&headers, &v.body(), x_service_now());

        prop_assert!(result.is_err());
    }

    #[test]
    fn arbitrary_standard_webhooks_headers_never_panic_and_never_verify(
        id in "\\PC{0,20}",
        timestamp in "[0-9+\\-. ]{0,25}",
        signature in "(v1,[A-Za-z0-9+/=é]{0,50} ?){0,4}",
    ) {
        let v = vector(0);
        let headers = [("webhook-id", id), ("webhook-timestamp", timestamp), ("webhook-signature", signature)];

        let result = Verifier::standard_webhooks(v.secret()).verify_at(&headers, &v.body(), v.standard_now());

        prop_assert!(result.is_err());
    }

    #[test]
    fn arbitrary_key_text_never_panics(text in "\\PC{0,40}") {
        let _ = ApiKey::new(&text);
        let _ = WebhookSecret::new(&text);
        let _ = WebhookSecret::new(format!("whsec_{text}"));
    }
}
