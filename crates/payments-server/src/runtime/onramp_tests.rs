use super::*;

/// A throwaway P-256 key made for this test with `openssl ecparam -name prime256v1 -genkey -noout` (SEC1 PEM,
/// as the CDP portal hands out ECDSA keys), and its public point.
const EC_KEY: &str = "-----BEGIN EC PRIVATE KEY-----
MHcCAQEEIIWVI3Sq1UTssLkM+7MVSZ+FKzhd0Ashlz69FqFs4owEoAoGCCqGSM49
AwEHoUQDQgAEAhpH3epO5XEmfMAzged+kGXPg2wG0Xf6SEzcsi/stMEceE9e249j
zoS0uBWMVEHM5EXXFcOrp3nCE1mDqUhT6g==
-----END EC PRIVATE KEY-----";
const EC_PUBLIC_POINT: &str = "04021a47ddea4ee571267cc03381e77e9065cf836c06d177fa484cdcb22fecb4c11c784f5edb8f\
                               63ce84b4b8158c5441cce445d715c3aba779c2135983a94853ea";

/// RFC 8032 test 1: seed, then public key (the 64-byte form CDP gives Ed25519 secrets in).
const ED25519_SEED: &str = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";
const ED25519_PUBLIC: &str = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";

fn signs_and_verifies(key: &CdpSigningKey, public: &[u8]) {
    let header = jsonwebtoken::Header::new(key.algorithm);
    let claims = serde_json::json!({ "sub": "key", "exp": 4_000_000_000_u64 });
    let decoding = match key.algorithm {
        jsonwebtoken::Algorithm::ES256 => jsonwebtoken::DecodingKey::from_ec_der(public),
        _ => jsonwebtoken::DecodingKey::from_ed_der(public),
    };
    let token = jsonwebtoken::encode(&header, &claims, &key.encoding_key()).unwrap();
    let mut validation = jsonwebtoken::Validation::new(key.algorithm);
    validation.validate_aud = false;
    jsonwebtoken::decode::<serde_json::Value>(&token, &decoding, &validation).unwrap();
}

#[test]
fn an_ed25519_secret_in_cdp_form_signs_tokens_its_public_key_verifies() {
    let secret = STANDARD.encode(hex::decode(format!("{ED25519_SEED}{ED25519_PUBLIC}")).unwrap());
    let key = CdpSigningKey::parse(&secret).unwrap();
    assert_eq!(key.algorithm, jsonwebtoken::Algorithm::EdDSA);
    signs_and_verifies(&key, &hex::decode(ED25519_PUBLIC).unwrap());
}

#[test]
fn a_sec1_ec_key_signs_es256_tokens_even_with_escaped_newlines() {
    let key = CdpSigningKey::parse(&EC_KEY.replace('\n', "\\n")).unwrap();
    assert_eq!(key.algorithm, jsonwebtoken::Algorithm::ES256);
    signs_and_verifies(&key, &hex::decode(EC_PUBLIC_POINT).unwrap());
}

#[test]
fn other_text_is_refused_without_being_quoted() {
    let error = CdpSigningKey::parse("sk_test_not-a-cdp-key").unwrap_err();
    assert!(!error.contains("sk_test"), "{error}");
    assert!(format!("{:?}", CdpSigningKey::parse(EC_KEY).unwrap()).contains("[redacted]"));
}

#[test]
fn a_provider_refuses_chains_it_does_not_deliver_on() {
    let stripe = OnrampConfig::stripe(Secret::new("sk_test_1"), None).unwrap();
    assert_eq!(stripe.network_for(8453), Ok("base"));
    assert!(stripe.network_for(31_337).unwrap_err().contains("chain 31337"));
    assert_eq!(stripe.api_url.as_str(), "https://api.stripe.com/");
    assert!(OnrampConfig::coinbase("", &Secret::new(EC_KEY), None).is_err());
}
