//! The shared EIP-712 spend permission vectors: every valid vector hashes to its digest and recovers its
//! signer; the tampered one fails verification with a signer mismatch.

#![allow(
    clippy::expect_used,
    reason = "helpers outside #[test] fns fail loudly on broken vector data"
)]

use alloy_primitives::{Address, B256};
use alloy_sol_types::SolStruct;
use payments_core::{
    PermissionError, RecoverableSignature, SPEND_PERMISSION_DOMAIN_NAME, SPEND_PERMISSION_DOMAIN_VERSION,
    SpendPermission, SpendPermissionData, SpendPermissionDomain, eip712_signing_hash, recover_address,
};
use serde::Deserialize;

const VECTORS_PATH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/vectors/spend-permission-eip712.json"
);

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct VectorFile {
    domain: DomainJson,
    primary_type: String,
    type_string: String,
    vectors: Vec<Vector>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct DomainJson {
    name: String,
    version: String,
    chain_id: u64,
    verifying_contract: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Vector {
    permission_data: SpendPermissionData,
    eip712_digest: Option<String>,
    signature: String,
    signer: String,
    valid: bool,
}

fn vector_file() -> VectorFile {
    let text = std::fs::read_to_string(VECTORS_PATH).expect("the vector file is readable");
    serde_json::from_str(&text).expect("the vector file is valid JSON")
}

fn domain(file: &VectorFile) -> SpendPermissionDomain {
    SpendPermissionDomain {
        chain_id: file.domain.chain_id,
        verifying_contract: address(&file.domain.verifying_contract),
    }
}

fn address(text: &str) -> Address {
    text.parse().expect("vector address")
}

fn listed_digest(vector: &Vector) -> Option<B256> {
    vector
        .eip712_digest
        .as_deref()
        .map(|text| text.parse().expect("vector digest"))
}

fn valid_vectors(file: &VectorFile) -> impl Iterator<Item = &Vector> {
    file.vectors.iter().filter(|vector| vector.valid)
}

fn parse(vector: &Vector) -> SpendPermission {
    vector
        .permission_data
        .parse()
        .expect("vector permission data parses")
}

fn signature(vector: &Vector) -> RecoverableSignature {
    vector.signature.parse().expect("vector signature is well formed")
}

mod typed {
    alloy_sol_types::sol! {
        struct SpendPermission {
            address account;
            address spender;
            address token;
            uint160 allowance;
            uint48 period;
            uint48 start;
            uint48 end;
            uint256 salt;
            bytes extraData;
        }
    }
}

#[test]
fn the_file_has_twelve_valid_vectors_and_one_tampered_one() {
    let file = vector_file();

    assert_eq!(valid_vectors(&file).count(), 12);
    assert_eq!(file.vectors.iter().filter(|vector| !vector.valid).count(), 1);
}

#[test]
fn the_file_domain_is_the_default_domain() {
    let file = vector_file();

    assert_eq!(file.domain.name, SPEND_PERMISSION_DOMAIN_NAME);
    assert_eq!(file.domain.version, SPEND_PERMISSION_DOMAIN_VERSION);
    assert_eq!(domain(&file), SpendPermissionDomain::default());
}

#[test]
fn the_eip712_type_string_matches_the_file() {
    let file = vector_file();

    assert_eq!(file.primary_type, "SpendPermission");
    assert_eq!(typed::SpendPermission::eip712_encode_type(), file.type_string);
}

#[test]
fn every_valid_vector_hashes_to_its_digest() {
    let file = vector_file();
    let domain = domain(&file);

    for vector in valid_vectors(&file) {
        let hash = parse(vector).signing_hash(&domain);

        assert_eq!(
            Some(hash),
            listed_digest(vector),
            "salt {}",
            vector.permission_data.salt
        );
    }
}

#[test]
fn every_valid_vector_recovers_its_listed_signer() {
    let file = vector_file();
    let domain = domain(&file);

    for vector in valid_vectors(&file) {
        let hash = parse(vector).signing_hash(&domain);
        let bytes = hex::decode(vector.signature.trim_start_matches("0x")).expect("signature hex");

        assert_eq!(
            recover_address(&hash, &bytes),
            Ok(address(&vector.signer)),
            "salt {}",
            vector.permission_data.salt
        );
    }
}

#[test]
fn every_valid_vector_verifies_against_its_account() {
    let file = vector_file();
    let domain = domain(&file);

    for vector in valid_vectors(&file) {
        let result = parse(vector).verify(&signature(vector), &domain);

        assert_eq!(result, Ok(()), "salt {}", vector.permission_data.salt);
    }
}

#[test]
fn the_generic_helper_gives_the_same_digests_for_a_caller_defined_struct() {
    let file = vector_file();
    let domain = domain(&file).to_eip712();

    for vector in valid_vectors(&file) {
        let permission = parse(vector);
        let typed = typed::SpendPermission {
            account: permission.account,
            spender: permission.spender,
            token: permission.token,
            allowance: permission.allowance,
            period: permission.period,
            start: permission.start,
            end: permission.end,
            salt: permission.salt,
            extraData: permission.extra_data.clone(),
        };

        assert_eq!(Some(eip712_signing_hash(&typed, &domain)), listed_digest(vector));
    }
}

#[test]
fn the_tampered_vector_fails_verification_with_a_signer_mismatch() {
    let file = vector_file();
    let tampered = file
        .vectors
        .iter()
        .find(|vector| !vector.valid)
        .expect("a tampered vector");
    assert_eq!(listed_digest(tampered), None);

    let result = parse(tampered).verify(&signature(tampered), &domain(&file));

    match result {
        Err(PermissionError::SignerMismatch { account, recovered }) => {
            assert_eq!(account, address(&tampered.signer));
            assert_ne!(recovered, address(&tampered.signer));
        }
        other => panic!("expected a signer mismatch, got {other:?}"),
    }
}

#[test]
fn a_valid_vector_under_another_chain_fails_with_a_signer_mismatch() {
    let file = vector_file();
    let vector = valid_vectors(&file).next().expect("a valid vector");
    let other_chain = SpendPermissionDomain {
        chain_id: 1,
        ..domain(&file)
    };

    let result = parse(vector).verify(&signature(vector), &other_chain);

    assert!(matches!(result, Err(PermissionError::SignerMismatch { .. })));
}
