//! The X-Service-Signature scheme: the negative matrix and key rotation (freshness is in `freshness.rs`).

use webhook_verify::{ApiKey, KeyError, Verifier, VerifyError};

use crate::common::{SENT_AT_MS_TEXT, vector, with_header, without_header, x_service_now};

/// Verifies vector 0's body with vector 0's key at one second after sending.
fn verify_vector0(headers: &[(String, String)]) -> Result<webhook_verify::Verified, VerifyError> {
    let v = vector(0);
    Verifier::new(v.api_key()).verify_at(headers, &v.body(), x_service_now())
}

fn assert_malformed_signature(signature: &str) {
    let headers = with_header(&vector(0).x_service_headers(), "x-service-signature", signature);
    let result = verify_vector0(&headers);
    assert!(
        matches!(
            result,
            Err(VerifyError::MalformedHeader {
                name: "x-service-signature",
                ..
            })
        ),
        "{signature:?}: {result:?}"
    );
}

#[test]
fn the_vector_signature_verifies() {
    assert!(verify_vector0(&vector(0).x_service_headers()).is_ok());
}

#[test]
fn a_missing_signature_header_is_reported_as_missing() {
    let headers = without_header(&vector(0).x_service_headers(), "x-service-signature");

    let result = verify_vector0(&headers);

    assert!(
        matches!(
            result,
            Err(VerifyError::MissingHeader {
                name: "x-service-signature"
            })
        ),
        "{result:?}"
    );
}

#[test]
fn a_missing_timestamp_header_is_reported_as_missing_while_freshness_is_checked() {
    let headers = without_header(&vector(0).x_service_headers(), "x-service-timestamp");

    let result = verify_vector0(&headers);

    assert!(
        matches!(
            result,
            Err(VerifyError::MissingHeader {
                name: "x-service-timestamp"
            })
        ),
        "{result:?}"
    );
}

#[test]
fn a_duplicate_signature_header_is_ambiguous_even_when_both_copies_are_valid() {
    let v = vector(0);
    let mut headers = v.x_service_headers();
    headers.push(("x-service-signature".to_owned(), v.x_service_signature));

    let result = verify_vector0(&headers);

    assert!(
        matches!(
            result,
            Err(VerifyError::AmbiguousHeader {
                name: "x-service-signature",
                count: 2
            })
        ),
        "{result:?}"
    );
}

#[test]
fn a_duplicate_timestamp_header_is_ambiguous() {
    let mut headers = vector(0).x_service_headers();
    headers.push(("X-SERVICE-TIMESTAMP".to_owned(), SENT_AT_MS_TEXT.to_owned()));

    let result = verify_vector0(&headers);

    assert!(
        matches!(
            result,
            Err(VerifyError::AmbiguousHeader {
                name: "x-service-timestamp",
                count: 2
            })
        ),
        "{result:?}"
    );
}

#[test]
fn header_names_match_in_any_letter_case() {
    let v = vector(0);
    let headers = [
        ("x-SERVICE-signature", v.x_service_signature.as_str()),
        ("X-Service-TIMESTAMP", SENT_AT_MS_TEXT),
    ];

    assert!(
        Verifier::new(v.api_key())
            .verify_at(&headers, &v.body(), x_service_now())
            .is_ok()
    );
}

#[test]
fn spaces_around_the_signature_value_are_tolerated() {
    let v = vector(0);
    let headers = with_header(
        &v.x_service_headers(),
        "x-service-signature",
        &format!(" {} ", v.x_service_signature),
    );

    assert!(verify_vector0(&headers).is_ok());
}

#[test]
fn a_signature_with_a_wrong_prefix_is_malformed() {
    let hex = "247257e9be62a5719c5b22c41bfc6a749e53f13401f8f241633975b2222d03ca";
    for signature in [
        hex.to_owned(),
        format!("sha1={hex}"),
        format!("SHA256={hex}"),
        format!("sha256:{hex}"),
    ] {
        assert_malformed_signature(&signature);
    }
}

#[test]
fn an_uppercase_signature_is_malformed() {
    assert_malformed_signature("sha256=247257E9BE62A5719C5B22C41BFC6A749E53F13401F8F241633975B2222D03CA");
}

#[test]
fn an_odd_length_signature_is_malformed() {
    assert_malformed_signature("sha256=247257e9be62a5719c5b22c41bfc6a749e53f13401f8f241633975b2222d03c");
}

#[test]
fn a_signature_of_the_wrong_even_length_is_malformed() {
    assert_malformed_signature("sha256=247257e9be62a5719c5b22c41bfc6a749e53f13401f8f241633975b2222d03ca00");
    assert_malformed_signature("sha256=");
}

#[test]
fn a_non_hex_signature_is_malformed() {
    assert_malformed_signature("sha256=247257e9be62a5719c5b22c41bfc6a749e53f13401f8f241633975b2222d03cg");
}

#[test]
fn a_signature_with_non_ascii_characters_is_malformed() {
    // 62 hex digits and one two-byte character: 64 bytes, so no length shortcut applies.
    assert_malformed_signature("sha256=247257e9be62a5719c5b22c41bfc6a749e53f13401f8f241633975b2222d03é");
}

#[test]
fn a_header_value_that_is_not_utf8_is_malformed() {
    let v = vector(0);
    let headers: [(&str, &[u8]); 2] = [
        ("x-service-signature", b"sha256=\xff\xfe"),
        ("x-service-timestamp", SENT_AT_MS_TEXT.as_bytes()),
    ];

    let result = Verifier::new(v.api_key()).verify_at(&headers, &v.body(), x_service_now());

    assert!(
        matches!(
            result,
            Err(VerifyError::MalformedHeader {
                name: "x-service-signature",
                ..
            })
        ),
        "{result:?}"
    );
}

#[test]
fn a_body_tampered_by_one_byte_fails() {
    let v = vector(0);
    let mut body = v.body();
    body[20] ^= 0x01;

    let result = Verifier::new(v.api_key()).verify_at(&v.x_service_headers(), &body, x_service_now());

    assert!(
        matches!(result, Err(VerifyError::SignatureMismatch)),
        "{result:?}"
    );
}

#[test]
fn a_body_with_one_byte_appended_fails() {
    let v = vector(0);
    let mut body = v.body();
    body.push(b'\n');

    let result = Verifier::new(v.api_key()).verify_at(&v.x_service_headers(), &body, x_service_now());

    assert!(
        matches!(result, Err(VerifyError::SignatureMismatch)),
        "{result:?}"
    );
}

#[test]
fn a_signature_made_with_another_key_fails() {
    let v = vector(0);

    let result =
        Verifier::new(vector(1).api_key()).verify_at(&v.x_service_headers(), &v.body(), x_service_now());

    assert!(
        matches!(result, Err(VerifyError::SignatureMismatch)),
        "{result:?}"
    );
}

#[test]
fn an_empty_body_verifies_when_it_was_signed() {
    let v = vector(3);
    assert!(v.body().is_empty());

    let result = Verifier::new(v.api_key()).verify_at(&v.x_service_headers(), b"", x_service_now());

    assert!(result.is_ok(), "{result:?}");
}

#[test]
fn an_empty_body_fails_against_the_signature_of_a_non_empty_one() {
    let v = vector(0);

    let result = Verifier::new(v.api_key()).verify_at(&v.x_service_headers(), b"", x_service_now());

    assert!(
        matches!(result, Err(VerifyError::SignatureMismatch)),
        "{result:?}"
    );
}

#[test]
fn key_rotation_accepts_deliveries_signed_with_the_old_key_and_with_the_new_key() {
    let (old, new) = (vector(0), vector(1));
    let verifier = Verifier::from_api_keys([new.api_key(), old.api_key()]).unwrap();

    for v in [&old, &new] {
        let result = verifier.verify_at(&v.x_service_headers(), &v.body(), x_service_now());
        assert!(result.is_ok(), "{result:?}");
    }
}

#[test]
fn key_rotation_still_rejects_a_key_that_is_not_listed() {
    let verifier = Verifier::from_api_keys([vector(1).api_key(), vector(2).api_key()]).unwrap();
    let v = vector(0);

    let result = verifier.verify_at(&v.x_service_headers(), &v.body(), x_service_now());

    assert!(
        matches!(result, Err(VerifyError::SignatureMismatch)),
        "{result:?}"
    );
}

#[test]
fn a_verifier_needs_at_least_one_key() {
    let result = Verifier::from_api_keys(Vec::<ApiKey>::new());

    assert!(matches!(result, Err(KeyError::NoKeys)), "{result:?}");
}

#[test]
fn an_x_service_verifier_does_not_accept_standard_webhooks_headers_instead() {
    let v = vector(0);

    let result = Verifier::new(v.api_key()).verify_at(&v.standard_headers(), &v.body(), v.standard_now());

    assert!(
        matches!(
            result,
            Err(VerifyError::MissingHeader {
                name: "x-service-signature"
            })
        ),
        "{result:?}"
    );
}
