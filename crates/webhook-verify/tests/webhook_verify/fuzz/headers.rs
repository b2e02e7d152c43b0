//! Header parsing: signature lists, timestamps, ids and repeated headers, in both schemes.

use proptest::prelude::*;
use webhook_verify::{MAX_HEADER_BYTES, Verifier, VerifyError};

use super::config;
use crate::common::{vector, x_service_now};

/// Vector 0's valid Standard Webhooks signature, id and timestamp.
const VALID: &str = "v1,7DKMFEVFk9LXHS7kAVI8vfuUkjNYgol6YRZr1iNYssM=";
const ID: &str = "msg_656abd72fb710734";
const TIMESTAMP: &str = "1767599992";
/// Vector 1's signature: well formed, made over another message with another secret.
const OTHER: &str = "v1,UT+YslF/sfPALhr3xwSPsj2XldEjTUAv4z8L0ei//Fk=";

/// One entry of a `webhook-signature` list: the valid one, a wrong one, another version, base64-ish text
/// of any length, or any printable text.
fn signature_entry() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(VALID.to_owned()),
        Just(OTHER.to_owned()),
        "v[0-9],[A-Za-z0-9+/=]{0,60}",
        "v1,[A-Za-z0-9+/]{43}=?",
        "[ -~]{0,24}",
        "\\PC{0,24}",
    ]
}

fn standard_webhooks(
    id: &str,
    timestamp: &str,
    signature: &str,
) -> Result<webhook_verify::Verified, VerifyError> {
    let v = vector(0);
    let headers = [
        ("webhook-id", id),
        ("webhook-timestamp", timestamp),
        ("webhook-signature", signature),
    ];
    Verifier::standard_webhooks(v.secret()).verify_at(&headers, &v.body(), v.standard_now())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn a_signature_list_verifies_exactly_when_it_holds_the_valid_signature(
        entries in proptest::collection::vec(signature_entry(), 0..12),
        separators in proptest::collection::vec(prop_oneof![Just(" "), Just("\t"), Just("  ")], 12),
    ) {
        let mut header = String::new();
        for (entry, separator) in entries.iter().zip(&separators) {
            header.push_str(entry);
            header.push_str(separator);
        }
        let holds_valid = header.split_ascii_whitespace().any(|token| token == VALID);

        let result = standard_webhooks(ID, TIMESTAMP, &header);

        prop_assert_eq!(result.is_ok(), holds_valid, "{:?}: {:?}", header, result);
        if let Err(err) = result {
            prop_assert!(
                matches!(err, VerifyError::SignatureMismatch
                    | VerifyError::MalformedHeader { name: "webhook-signature", .. }),
                "{:?}", err
            );
        }
    }

    #[test]
    fn a_signature_header_over_the_size_bound_is_malformed_even_when_it_holds_the_valid_signature(
        padding in proptest::collection::vec(signature_entry(), 1..8),
        repeat in 1usize..200,
    ) {
        let mut header = format!("{VALID} ");
        while header.len() <= MAX_HEADER_BYTES {
            header.push_str(&padding.join(" ").repeat(repeat));
            header.push(' ');
        }

        let result = standard_webhooks(ID, TIMESTAMP, &header);

        prop_assert!(
            matches!(result, Err(VerifyError::MalformedHeader { name: "webhook-signature", .. })),
            "{:?}", result
        );
    }

    #[test]
    fn a_webhook_timestamp_verifies_only_as_the_exact_signed_text(timestamp in prop_oneof![
        "[0-9]{0,25}",
        "[0-9+\\-. eE]{0,25}",
        "0{1,5}1767599992",
        "[ \t]{0,3}1767599992[ \t]{0,3}",
        "\\PC{0,30}",
    ]) {
        let signed_text = timestamp.trim_matches([' ', '\t']) == TIMESTAMP;

        let result = standard_webhooks(ID, &timestamp, VALID);

        prop_assert_eq!(result.is_ok(), signed_text, "{:?}: {:?}", timestamp, result);
        if let Err(err) = result {
            prop_assert!(
                matches!(err, VerifyError::SignatureMismatch
                    | VerifyError::MalformedHeader { name: "webhook-timestamp", .. }),
                "{:?}", err
            );
        }
    }

    #[test]
    fn a_webhook_id_verifies_only_as_the_exact_signed_text(id in prop_oneof![
        "msg_[0-9a-f]{0,20}",
        "[ \t]{0,2}msg_656abd72fb710734[ \t]{0,2}",
        "\\PC{0,40}",
    ]) {
        let signed_text = id.trim_matches([' ', '\t']) == ID;

        let result = standard_webhooks(&id, TIMESTAMP, VALID);

        prop_assert_eq!(result.is_ok(), signed_text, "{:?}: {:?}", id, result);
        if let Err(err) = result {
            prop_assert!(
                matches!(err, VerifyError::SignatureMismatch
                    | VerifyError::MalformedHeader { name: "webhook-id", .. }),
                "{:?}", err
            );
        }
    }

    #[test]
    fn arbitrary_header_bytes_never_panic_and_never_verify_in_either_scheme(
        id in proptest::collection::vec(any::<u8>(), 0..64),
        timestamp in proptest::collection::vec(any::<u8>(), 0..32),
        signature in proptest::collection::vec(any::<u8>(), 0..256),
    ) {
        let v = vector(0);
        let standard = [
            ("webhook-id", id),
            ("webhook-timestamp", timestamp.clone()),
            ("webhook-signature", signature.clone()),
        ];
        let x_service = [("x-service-signature", signature), ("x-service-timestamp", timestamp)];

        let standard = Verifier::standard_webhooks(v.secret()).verify_at(&standard, &v.body(), v.standard_now());
        let x_service = Verifier::new(v.api_key()).verify_at(&x_service, &v.body(), x_service_now());

        prop_assert!(standard.is_err());
        prop_assert!(x_service.is_err());
    }

    #[test]
    fn arbitrary_text_after_the_sha256_prefix_never_panics_or_verifies(tail in "\\PC{0,80}") {
        let v = vector(0);
        let signature = format!("sha256={tail}");
        let headers = [("x-service-signature", signature.as_str()), ("x-service-timestamp", "1767599992000")];

        let result = Verifier::new(v.api_key()).verify_at(&headers, &v.body(), x_service_now());

        prop_assert!(result.is_err());
    }

    #[test]
    fn a_header_repeated_any_number_of_times_is_ambiguous(
        repeated in prop_oneof![Just("webhook-id"), Just("webhook-timestamp"), Just("webhook-signature")],
        copies in 2usize..40,
    ) {
        let mut headers = vec![("webhook-id", ID), ("webhook-timestamp", TIMESTAMP), ("webhook-signature", VALID)];
        let value = headers.iter().find(|(name, _)| *name == repeated).map(|(_, value)| *value).unwrap_or_default();
        headers.extend(std::iter::repeat_n((repeated, value), copies - 1));
        let v = vector(0);

        let result = Verifier::standard_webhooks(v.secret()).verify_at(&headers, &v.body(), v.standard_now());

        prop_assert!(
            matches!(result, Err(VerifyError::AmbiguousHeader { name, count }) if name == repeated && count == copies),
            "{:?}", result
        );
    }
}
