//! 65-byte `r || s || v` signatures: parsing from bytes and hex, and recovery of the signer.

use super::config;
use alloy_primitives::{Address, B256, keccak256};
use k256::ecdsa::SigningKey;
use payments_core::{RecoverableSignature, SignatureError, recover_address};
use proptest::prelude::*;

fn signing_key() -> impl Strategy<Value = SigningKey> {
    any::<[u8; 32]>().prop_filter_map("not a secp256k1 scalar", |bytes| {
        SigningKey::from_bytes(&bytes.into()).ok()
    })
}

fn address_of(key: &SigningKey) -> Address {
    let point = key.verifying_key().to_encoded_point(false);
    let xy = point
        .as_bytes()
        .get(1..)
        .expect("an uncompressed point has a tag byte");
    Address::from_word(keccak256(xy))
}

/// The wire form of `key`'s signature over `prehash`, with `v` as 27 or 28.
fn sign(key: &SigningKey, prehash: &B256) -> [u8; 65] {
    let (signature, recovery) = key
        .sign_prehash_recoverable(prehash.as_slice())
        .expect("a 32-byte prehash signs");
    let mut bytes = [0_u8; 65];
    bytes[..64].copy_from_slice(&signature.to_bytes());
    bytes[64] = 27 + recovery.to_byte();
    bytes
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn arbitrary_bytes_parse_or_fail_typed_and_a_parsed_signature_writes_back_the_same_bytes(
        bytes in prop_oneof![
            proptest::collection::vec(any::<u8>(), 0..80),
            proptest::collection::vec(any::<u8>(), 65..=65),
        ],
    ) {
        match RecoverableSignature::from_bytes(&bytes) {
            Ok(signature) => {
                let written = signature.to_bytes();
                prop_assert_eq!(&written[..64], &bytes[..64]);
                prop_assert_eq!(written[64] == 28, matches!(bytes[64], 1 | 28));
                prop_assert_eq!(RecoverableSignature::from_bytes(&written), Ok(signature));
            }
            Err(SignatureError::WrongLength { len }) => prop_assert_eq!(len, bytes.len()),
            Err(error) => prop_assert_eq!(bytes.len(), 65, "{}", error),
        }
    }

    #[test]
    fn arbitrary_text_never_panics_the_hex_parse(text in prop_oneof![".{0,140}", "(0x)?[0-9a-fA-F]{0,140}"]) {
        if let Ok(signature) = RecoverableSignature::from_hex(&text) {
            let digits = text.strip_prefix("0x").unwrap_or(&text);
            prop_assert_eq!(digits.len(), 130);
            prop_assert_eq!(signature, RecoverableSignature::from_bytes(&signature.to_bytes()).unwrap());
        }
    }

    #[test]
    fn any_keys_signature_over_any_hash_recovers_that_key_and_no_tampered_copy_does(
        key in signing_key(),
        prehash in any::<[u8; 32]>().prop_map(B256::from),
        tampered_byte in 0..65_usize,
        flip in 1..=255_u8,
    ) {
        let signer = address_of(&key);
        let mut signature = sign(&key, &prehash);
        prop_assert_eq!(recover_address(&prehash, &signature), Ok(signer));

        let odd_before = signature[64] == 28;
        signature[tampered_byte] ^= flip;
        let same_parity_encoding = tampered_byte == 64
            && matches!(signature[64], 0 | 1 | 27 | 28)
            && matches!(signature[64], 1 | 28) == odd_before;
        match recover_address(&prehash, &signature) {
            // v = 0 and 27 (1 and 28) are two spellings of one parity: still the same signature.
            Ok(recovered) if same_parity_encoding => prop_assert_eq!(recovered, signer),
            Ok(recovered) => prop_assert_ne!(recovered, signer),
            Err(error) => prop_assert!(!same_parity_encoding, "{}", error),
        }
    }

    #[test]
    fn a_signature_over_one_hash_does_not_recover_its_signer_for_another(
        key in signing_key(),
        signed in any::<[u8; 32]>().prop_map(B256::from),
        other in any::<[u8; 32]>().prop_map(B256::from),
    ) {
        prop_assume!(signed != other);
        let signature = sign(&key, &signed);
        if let Ok(recovered) = recover_address(&other, &signature) {
            prop_assert_ne!(recovered, address_of(&key));
        }
    }
}
