//! Keys and secrets: what is accepted, and that they never show up in `Debug` or error text.

use webhook_verify::{ApiKey, KeyError, Verifier, VerifyError, WebhookSecret};

use crate::common::{vector, x_service_now};

#[test]
fn an_empty_api_key_is_rejected() {
    assert_eq!(ApiKey::new("").err(), Some(KeyError::Empty));
}

#[test]
fn an_api_key_with_surrounding_whitespace_is_rejected_rather_than_silently_trimmed() {
    for key in ["sk_abc\n", " sk_abc", "sk_abc\t"] {
        assert_eq!(ApiKey::new(key).err(), Some(KeyError::Whitespace), "{key:?}");
    }
}

#[test]
fn an_api_key_parses_from_a_string() {
    let key: Result<ApiKey, _> = "sk_abc".parse();

    assert!(key.is_ok());
}

#[test]
fn a_webhook_secret_needs_the_whsec_prefix_so_an_api_key_is_not_mistaken_for_one() {
    // A 32-character API key is valid base64 on its own.
    assert_eq!(
        WebhookSecret::new("c3j27xdcg2lMLzgeonyLGcTJFiz4soCm").err(),
        Some(KeyError::MissingWhsecPrefix)
    );
}

#[test]
fn a_webhook_secret_with_invalid_base64_is_rejected() {
    assert_eq!(
        WebhookSecret::new("whsec_not base64!").err(),
        Some(KeyError::InvalidBase64)
    );
}

#[test]
fn an_empty_webhook_secret_is_rejected() {
    assert_eq!(WebhookSecret::new("whsec_").err(), Some(KeyError::Empty));
}

#[test]
fn a_webhook_secret_is_accepted_with_or_without_base64_padding() {
    assert!(WebhookSecret::new("whsec_c2VjcmV0").is_ok());
    assert!(WebhookSecret::new("whsec_c2VjcmV0cw==").is_ok());
    assert!(WebhookSecret::new("whsec_c2VjcmV0cw").is_ok());
}

#[test]
fn debug_output_of_keys_secrets_and_verifiers_is_redacted() {
    let v = vector(0);
    let api_key = v.api_key();
    let secret = v.secret();
    let verifiers = [
        Verifier::new(api_key.clone()),
        Verifier::standard_webhooks(secret.clone()),
    ];

    let printed = format!("{api_key:?} {secret:?} {verifiers:?} {:#?}", verifiers[0]);

    assert!(printed.contains("[redacted]"), "{printed}");
    assert!(!printed.contains(&v.api_key), "{printed}");
    assert!(
        !printed.contains(&v.standard_webhooks.secret["whsec_".len()..]),
        "{printed}"
    );
}

#[test]
fn a_mismatch_error_does_not_reveal_the_expected_signature() {
    let v = vector(0);
    let mut body = v.body();
    body.push(b' ');

    let err = Verifier::new(v.api_key())
        .verify_at(&v.x_service_headers(), &body, x_service_now())
        .unwrap_err();

    assert!(matches!(err, VerifyError::SignatureMismatch));
    assert_eq!(
        err.to_string(),
        "signature does not match the body and any candidate key"
    );
}

#[test]
fn a_secret_derived_from_an_api_key_checks_the_key_like_api_key_new() {
    assert_eq!(WebhookSecret::from_api_key("").err(), Some(KeyError::Empty));
    assert_eq!(
        WebhookSecret::from_api_key("sk_abc\n").err(),
        Some(KeyError::Whitespace)
    );
    assert!(WebhookSecret::from_api_key("sk_abc").is_ok());
}
