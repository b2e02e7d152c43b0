//! The Standard Webhooks scheme: the negative matrix, multi-signature headers and secret rotation.

use webhook_verify::{Verifier, VerifyError, WebhookSecret};

use crate::common::{at_secs, vector, with_header, without_header};

/// Vector 0's timestamp, in seconds.
const SENT_AT: u64 = 1_767_599_992;
/// Vector 0's valid signature.
const VALID: &str = "v1,7DKMFEVFk9LXHS7kAVI8vfuUkjNYgol6YRZr1iNYssM=";
/// Vector 1's signature: well formed, but over another message with another secret.
const OTHER: &str = "v1,UT+YslF/sfPALhr3xwSPsj2XldEjTUAv4z8L0ei//Fk=";
/// 32 bytes of well-formed base64 that are nobody's signature.
const GARBAGE: &str = "v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";

fn verify_vector0(headers: &[(String, String)]) -> Result<webhook_verify::Verified, VerifyError> {
    let v = vector(0);
    Verifier::standard_webhooks(v.secret()).verify_at(headers, &v.body(), at_secs(SENT_AT + 1))
}

fn with_signature(signature: &str) -> Vec<(String, String)> {
    vector(0).standard_headers_with_signature(signature)
}

#[test]
fn the_vector_signature_verifies_and_reports_the_signed_id_and_timestamp() {
    let verified = verify_vector0(&vector(0).standard_headers()).unwrap();

    assert_eq!(verified.webhook_id.as_deref(), Some("msg_656abd72fb710734"));
    assert_eq!(verified.timestamp, Some(at_secs(SENT_AT)));
}

#[test]
fn each_missing_header_is_reported_by_name() {
    for name in ["webhook-id", "webhook-timestamp", "webhook-signature"] {
        let headers = without_header(&vector(0).standard_headers(), name);

        let result = verify_vector0(&headers);

        assert!(
            matches!(result, Err(VerifyError::MissingHeader { name: n }) if n == name),
            "{name}: {result:?}"
        );
    }
}

#[test]
fn each_duplicated_header_is_ambiguous() {
    for name in ["webhook-id", "webhook-timestamp", "webhook-signature"] {
        let mut headers = vector(0).standard_headers();
        let copy = headers.iter().find(|(k, _)| k == name).cloned().unwrap();
        headers.push((name.to_uppercase(), copy.1));

        let result = verify_vector0(&headers);

        assert!(
            matches!(result, Err(VerifyError::AmbiguousHeader { name: n, count: 2 }) if n == name),
            "{name}: {result:?}"
        );
    }
}

#[test]
fn a_multi_signature_header_passes_when_only_the_last_signature_is_valid() {
    let headers = with_signature(&format!("{OTHER} {GARBAGE} {VALID}"));

    assert!(verify_vector0(&headers).is_ok());
}

#[test]
fn a_multi_signature_header_passes_when_only_the_first_signature_is_valid() {
    let headers = with_signature(&format!("{VALID} {OTHER}"));

    assert!(verify_vector0(&headers).is_ok());
}

#[test]
fn a_multi_signature_header_fails_when_no_signature_is_valid() {
    let headers = with_signature(&format!("{OTHER} {GARBAGE}"));

    let result = verify_vector0(&headers);

    assert!(
        matches!(result, Err(VerifyError::SignatureMismatch)),
        "{result:?}"
    );
}

#[test]
fn signatures_of_other_versions_are_skipped() {
    let headers = with_signature(&format!(
        "v2,7DKMFEVFk9LXHS7kAVI8vfuUkjNYgol6YRZr1iNYssM= {VALID}"
    ));
    assert!(verify_vector0(&headers).is_ok());

    let only_v2 = with_signature("v2,7DKMFEVFk9LXHS7kAVI8vfuUkjNYgol6YRZr1iNYssM=");
    let result = verify_vector0(&only_v2);
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

#[test]
fn a_header_without_any_v1_signature_is_malformed() {
    for signature in ["", "7DKMFEVFk9LXHS7kAVI8vfuUkjNYgol6YRZr1iNYssM=", "v1", "v1;abc"] {
        let result = verify_vector0(&with_signature(signature));

        assert!(
            matches!(
                result,
                Err(VerifyError::MalformedHeader {
                    name: "webhook-signature",
                    ..
                })
            ),
            "{signature:?}: {result:?}"
        );
    }
}

#[test]
fn a_v1_signature_that_is_not_32_bytes_of_base64_never_matches() {
    for signature in [
        "v1,",
        "v1,!!!!",
        "v1,7DKMFEVFk9LXHS7kAVI8vfuUkjNYgol6YRZr1iNYss",
        "v1,AAAA",
        "v1,é",
    ] {
        let result = verify_vector0(&with_signature(signature));

        assert!(
            matches!(result, Err(VerifyError::SignatureMismatch)),
            "{signature:?}: {result:?}"
        );
    }
}

#[test]
fn a_signature_without_base64_padding_still_verifies() {
    let headers = with_signature("v1,7DKMFEVFk9LXHS7kAVI8vfuUkjNYgol6YRZr1iNYssM");

    assert!(verify_vector0(&headers).is_ok());
}

#[test]
fn a_body_tampered_by_one_byte_fails() {
    let v = vector(0);
    let mut body = v.body();
    body[0] ^= 0x01;

    let result =
        Verifier::standard_webhooks(v.secret()).verify_at(&v.standard_headers(), &body, v.standard_now());

    assert!(
        matches!(result, Err(VerifyError::SignatureMismatch)),
        "{result:?}"
    );
}

#[test]
fn a_replay_with_a_refreshed_timestamp_fails_because_the_timestamp_is_signed() {
    let v = vector(0);
    let replayed_at = SENT_AT + 3_600;
    let headers = with_header(
        &v.standard_headers(),
        "webhook-timestamp",
        &replayed_at.to_string(),
    );

    let result = Verifier::standard_webhooks(v.secret()).verify_at(&headers, &v.body(), at_secs(replayed_at));

    assert!(
        matches!(result, Err(VerifyError::SignatureMismatch)),
        "{result:?}"
    );
}

#[test]
fn a_changed_webhook_id_fails_because_the_id_is_signed() {
    let headers = with_header(
        &vector(0).standard_headers(),
        "webhook-id",
        "msg_656abd72fb710735",
    );

    let result = verify_vector0(&headers);

    assert!(
        matches!(result, Err(VerifyError::SignatureMismatch)),
        "{result:?}"
    );
}

#[test]
fn an_empty_webhook_id_is_malformed() {
    let headers = with_header(&vector(0).standard_headers(), "webhook-id", "");

    let result = verify_vector0(&headers);

    assert!(
        matches!(
            result,
            Err(VerifyError::MalformedHeader {
                name: "webhook-id",
                ..
            })
        ),
        "{result:?}"
    );
}

#[test]
fn a_webhook_timestamp_that_is_not_a_plain_integer_is_malformed() {
    for timestamp in ["", "-1", "+1767599992", "1767599992.0", "1767599992000000000000"] {
        let headers = with_header(&vector(0).standard_headers(), "webhook-timestamp", timestamp);

        let result = verify_vector0(&headers);

        assert!(
            matches!(
                result,
                Err(VerifyError::MalformedHeader {
                    name: "webhook-timestamp",
                    ..
                })
            ),
            "{timestamp:?}: {result:?}"
        );
    }
}

#[test]
fn a_signature_made_with_another_secret_fails() {
    let v = vector(0);

    let result = Verifier::standard_webhooks(vector(1).secret()).verify_at(
        &v.standard_headers(),
        &v.body(),
        v.standard_now(),
    );

    assert!(
        matches!(result, Err(VerifyError::SignatureMismatch)),
        "{result:?}"
    );
}

#[test]
fn an_empty_body_verifies_when_it_was_signed() {
    let v = vector(3);

    let result =
        Verifier::standard_webhooks(v.secret()).verify_at(&v.standard_headers(), b"", v.standard_now());

    assert!(result.is_ok(), "{result:?}");
}

#[test]
fn secret_rotation_accepts_deliveries_signed_with_the_old_secret_and_with_the_new_secret() {
    let (old, new) = (vector(0), vector(1));
    let verifier = Verifier::from_webhook_secrets([new.secret(), old.secret()]).unwrap();

    for v in [&old, &new] {
        let result = verifier.verify_at(&v.standard_headers(), &v.body(), v.standard_now());
        assert!(result.is_ok(), "{result:?}");
    }
}

#[test]
fn a_verifier_needs_at_least_one_secret() {
    let result = Verifier::from_webhook_secrets(Vec::<WebhookSecret>::new());

    assert!(result.is_err());
}

#[test]
fn a_standard_webhooks_verifier_does_not_fall_back_to_x_service_headers() {
    let v = vector(0);
    let mut headers = v.x_service_headers();
    headers.extend(without_header(&v.standard_headers(), "webhook-signature"));

    let result = Verifier::standard_webhooks(v.secret()).verify_at(&headers, &v.body(), v.standard_now());

    assert!(
        matches!(
            result,
            Err(VerifyError::MissingHeader {
                name: "webhook-signature"
            })
        ),
        "{result:?}"
    );
}
