//! The `Headers` trait works with the common header containers, case-insensitively.

use std::collections::{BTreeMap, HashMap};

use webhook_verify::{Headers, Verifier, VerifyError};

use crate::common::{SENT_AT_MS_TEXT, vector, x_service_now};

const SIGNATURE: &str = "sha256=247257e9be62a5719c5b22c41bfc6a749e53f13401f8f241633975b2222d03ca";

fn verify<H: Headers + ?Sized>(headers: &H) -> Result<webhook_verify::Verified, VerifyError> {
    let v = vector(0);
    Verifier::new(v.api_key()).verify_at(headers, &v.body(), x_service_now())
}

#[test]
fn a_slice_of_str_pairs_works() {
    let headers = [
        ("X-Service-Signature", SIGNATURE),
        ("X-Service-Timestamp", SENT_AT_MS_TEXT),
    ];

    assert!(verify(&headers[..]).is_ok());
}

#[test]
fn a_vec_of_owned_pairs_works() {
    let headers = vec![
        ("X-Service-Signature".to_owned(), SIGNATURE.to_owned()),
        ("X-Service-Timestamp".to_owned(), SENT_AT_MS_TEXT.to_owned()),
    ];

    assert!(verify(&headers).is_ok());
}

#[test]
fn byte_values_work() {
    let headers: Vec<(&str, Vec<u8>)> = vec![
        ("x-service-signature", SIGNATURE.as_bytes().to_vec()),
        ("x-service-timestamp", SENT_AT_MS_TEXT.as_bytes().to_vec()),
    ];

    assert!(verify(&headers).is_ok());
}

#[test]
fn a_hash_map_works_case_insensitively() {
    let headers: HashMap<String, String> = HashMap::from([
        ("X-SERVICE-SIGNATURE".to_owned(), SIGNATURE.to_owned()),
        ("x-service-timestamp".to_owned(), SENT_AT_MS_TEXT.to_owned()),
    ]);

    assert!(verify(&headers).is_ok());
}

#[test]
fn a_hash_map_holding_two_spellings_of_one_header_is_ambiguous() {
    let headers: HashMap<&str, &str> = HashMap::from([
        ("X-Service-Signature", SIGNATURE),
        ("x-service-signature", SIGNATURE),
        ("x-service-timestamp", SENT_AT_MS_TEXT),
    ]);

    let result = verify(&headers);

    assert!(
        matches!(result, Err(VerifyError::AmbiguousHeader { count: 2, .. })),
        "{result:?}"
    );
}

#[test]
fn a_btree_map_works() {
    let headers = BTreeMap::from([
        ("x-service-signature", SIGNATURE),
        ("x-service-timestamp", SENT_AT_MS_TEXT),
    ]);

    assert!(verify(&headers).is_ok());
}

#[test]
fn a_trait_object_works() {
    let headers = [
        ("x-service-signature", SIGNATURE),
        ("x-service-timestamp", SENT_AT_MS_TEXT),
    ];
    let headers: &dyn Headers = &headers;

    assert!(verify(headers).is_ok());
}

#[test]
fn a_framework_type_can_implement_the_trait_in_a_few_lines() {
    struct FrameworkHeaders(Vec<(String, String)>);
    impl Headers for FrameworkHeaders {
        fn get_all(&self, name: &str) -> Vec<&[u8]> {
            self.0.get_all(name)
        }
    }
    let headers = FrameworkHeaders(vector(0).x_service_headers());

    assert!(verify(&headers).is_ok());
}

#[test]
fn get_all_returns_every_value_in_order() {
    let headers = [("a", "1"), ("B", "2"), ("b", "3")];

    assert_eq!(headers.get_all("b"), vec![b"2".as_slice(), b"3".as_slice()]);
    assert!(headers.get_all("c").is_empty());
}

#[cfg(feature = "http")]
mod http_header_map {
    use http::{HeaderMap, HeaderValue};
    use webhook_verify::VerifyError;

    use super::{SIGNATURE, verify};
    use crate::common::SENT_AT_MS_TEXT;

    fn header_map() -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert("X-Service-Signature", HeaderValue::from_static(SIGNATURE));
        headers.insert("X-Service-Timestamp", HeaderValue::from_static(SENT_AT_MS_TEXT));
        headers
    }

    #[test]
    fn an_http_header_map_works() {
        assert!(verify(&header_map()).is_ok());
    }

    #[test]
    fn an_http_header_map_with_an_appended_duplicate_is_ambiguous() {
        let mut headers = header_map();
        headers.append("x-service-signature", HeaderValue::from_static(SIGNATURE));

        let result = verify(&headers);

        assert!(
            matches!(result, Err(VerifyError::AmbiguousHeader { count: 2, .. })),
            "{result:?}"
        );
    }

    #[test]
    fn an_http_header_map_with_a_non_utf8_value_is_malformed() {
        let mut headers = header_map();
        headers.insert(
            "x-service-signature",
            HeaderValue::from_bytes(b"sha256=\xff").unwrap(),
        );

        let result = verify(&headers);

        assert!(
            matches!(result, Err(VerifyError::MalformedHeader { .. })),
            "{result:?}"
        );
    }
}
