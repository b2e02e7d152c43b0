//! 65-byte secp256k1 signatures (`r || s || v`) and recovery of the signing address from a prehash.

use alloy_primitives::{Address, B256, U256, keccak256, uint};
use k256::ecdsa::{RecoveryId, Signature, VerifyingKey};
use std::str::FromStr;
use thiserror::Error;

/// Order `n` of the secp256k1 group.
const CURVE_ORDER: U256 = uint!(0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141_U256);

/// `n / 2` (rounded down): the largest `s` accepted, as in EIP-2.
const HALF_CURVE_ORDER: U256 = uint!(0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0_U256);

/// Length of an `r || s || v` signature.
const SIGNATURE_LEN: usize = 65;

/// A well-formed recoverable ECDSA signature over secp256k1: `r` and `s` in `1..n`, `s` in the lower half
/// of the order (EIP-2, so each signature has one encoding), and the parity of the nonce point's `y`.
///
/// Parse one from the 65-byte `r || s || v` wire form with [`RecoverableSignature::from_bytes`] or from
/// hex with [`RecoverableSignature::from_hex`] (also [`FromStr`]); `v` may be 0, 1, 27 or 28.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RecoverableSignature {
    r: U256,
    s: U256,
    y_parity: bool,
}

impl RecoverableSignature {
    /// Reads a 65-byte `r || s || v` signature.
    ///
    /// # Errors
    ///
    /// [`SignatureError::WrongLength`] unless there are exactly 65 bytes,
    /// [`SignatureError::InvalidRecoveryId`] when `v` is not 0, 1, 27 or 28,
    /// [`SignatureError::ROutOfRange`] / [`SignatureError::SOutOfRange`] when `r` or `s` is zero or not
    /// below the curve order, and [`SignatureError::HighS`] when `s > n/2`.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, SignatureError> {
        let Ok(bytes) = <&[u8; SIGNATURE_LEN]>::try_from(bytes) else {
            return Err(SignatureError::WrongLength { len: bytes.len() });
        };
        let (r, rest) = bytes.split_at(32);
        let (s, v) = rest.split_at(32);
        let r = U256::from_be_slice(r);
        let s = U256::from_be_slice(s);
        let y_parity = match v {
            [0 | 27] => false,
            [1 | 28] => true,
            [v, ..] => return Err(SignatureError::InvalidRecoveryId { v: *v }),
            [] => {
                return Err(SignatureError::WrongLength {
                    len: SIGNATURE_LEN - 1,
                });
            }
        };
        if r.is_zero() || r >= CURVE_ORDER {
            return Err(SignatureError::ROutOfRange);
        }
        if s.is_zero() || s >= CURVE_ORDER {
            return Err(SignatureError::SOutOfRange);
        }
        if s > HALF_CURVE_ORDER {
            return Err(SignatureError::HighS);
        }
        Ok(Self { r, s, y_parity })
    }

    /// Reads a signature from hex (with or without a `0x` prefix) of the 65-byte `r || s || v` form.
    ///
    /// # Errors
    ///
    /// [`SignatureError::InvalidHex`] when the text is not an even number of hex digits, otherwise the
    /// errors of [`RecoverableSignature::from_bytes`].
    pub fn from_hex(text: &str) -> Result<Self, SignatureError> {
        let digits = text.strip_prefix("0x").unwrap_or(text);
        let bytes = hex::decode(digits).map_err(|_| SignatureError::InvalidHex)?;
        Self::from_bytes(&bytes)
    }

    /// The `r` value.
    pub fn r(&self) -> U256 {
        self.r
    }

    /// The `s` value (always at most `n/2`).
    pub fn s(&self) -> U256 {
        self.s
    }

    /// Whether the nonce point's `y` is odd (`v` = 1 or 28).
    pub fn y_parity(&self) -> bool {
        self.y_parity
    }

    /// The 65-byte `r || s || v` form with `v` as 27 or 28.
    pub fn to_bytes(&self) -> [u8; SIGNATURE_LEN] {
        let mut bytes = [0_u8; SIGNATURE_LEN];
        let (r, rest) = bytes.split_at_mut(32);
        let (s, v) = rest.split_at_mut(32);
        r.copy_from_slice(&self.r.to_be_bytes::<32>());
        s.copy_from_slice(&self.s.to_be_bytes::<32>());
        v.fill(if self.y_parity { 28 } else { 27 });
        bytes
    }

    /// The address whose key made this signature over the 32-byte `prehash` (for EIP-712, the signing
    /// hash, e.g. from [`eip712_signing_hash`](super::eip712_signing_hash)).
    ///
    /// # Errors
    ///
    /// [`SignatureError::RecoveryFailed`] when no public key matches (for example `r` is not the
    /// x-coordinate of a curve point).
    pub fn recover(&self, prehash: &B256) -> Result<Address, SignatureError> {
        let signature = Signature::from_scalars(self.r.to_be_bytes::<32>(), self.s.to_be_bytes::<32>())
            .map_err(|_| SignatureError::RecoveryFailed)?;
        let key = VerifyingKey::recover_from_prehash(
            prehash.as_slice(),
            &signature,
            RecoveryId::new(self.y_parity, false),
        )
        .map_err(|_| SignatureError::RecoveryFailed)?;
        let point = key.to_encoded_point(false);
        // Uncompressed SEC1 point: a 0x04 tag, then x and y; the address hashes x || y.
        let Some((_tag, xy)) = point.as_bytes().split_first() else {
            return Err(SignatureError::RecoveryFailed);
        };
        Ok(Address::from_word(keccak256(xy)))
    }
}

impl FromStr for RecoverableSignature {
    type Err = SignatureError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::from_hex(text)
    }
}

/// Recovers the signing address from a 32-byte `prehash` and a 65-byte `r || s || v` signature.
///
/// Works for any EIP-712 struct: compute the prehash with
/// [`eip712_signing_hash`](super::eip712_signing_hash) and compare the result with the expected signer.
///
/// # Errors
///
/// The errors of [`RecoverableSignature::from_bytes`] for malformed signatures, and
/// [`SignatureError::RecoveryFailed`] when no key matches.
pub fn recover_address(prehash: &B256, signature: &[u8]) -> Result<Address, SignatureError> {
    RecoverableSignature::from_bytes(signature)?.recover(prehash)
}

/// Why a signature could not be read or no signer recovered from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SignatureError {
    /// The text is not an even number of hex digits.
    #[error("signature is not hex")]
    InvalidHex,
    /// The signature is not 65 bytes.
    #[error("signature is {len} bytes, expected 65")]
    WrongLength {
        /// The number of bytes received.
        len: usize,
    },
    /// The recovery byte `v` is not 0, 1, 27 or 28.
    #[error("signature recovery byte {v} is not 0, 1, 27 or 28")]
    InvalidRecoveryId {
        /// The byte received.
        v: u8,
    },
    /// `r` is zero or not below the curve order.
    #[error("signature r is zero or not below the curve order")]
    ROutOfRange,
    /// `s` is zero or not below the curve order.
    #[error("signature s is zero or not below the curve order")]
    SOutOfRange,
    /// `s` is above half the curve order: a malleable encoding that EIP-2 forbids.
    #[error("signature s is above half the curve order")]
    HighS,
    /// No public key produces this signature over the given hash.
    #[error("no signer can be recovered from the signature")]
    RecoveryFailed,
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_primitives::{address, b256};

    const VECTOR_DIGEST: B256 = b256!("0xbbf88da9590bcf6f8ddaf8799d0d5d19b940edc875886f51e30b79c49cb5d4b1");
    const VECTOR_SIGNATURE: &str = "0xd039939e6f89d5741bf1f47148b59aaeebe94167082bd1e68ed55d2884614fac1aaf6963bde66d41d949f1df5c9cddd42f116e3f9de6a3843f32aebd7e9442221c";
    const VECTOR_SIGNER: Address = address!("0x4A2Bd4f4A39EC4541baD64e197b26471523B7D41");

    fn vector_bytes() -> Vec<u8> {
        hex::decode(VECTOR_SIGNATURE.trim_start_matches("0x")).expect("vector signature is hex")
    }

    #[test]
    fn a_vector_signature_recovers_its_signer() {
        let signer = recover_address(&VECTOR_DIGEST, &vector_bytes());

        assert_eq!(signer, Ok(VECTOR_SIGNER));
    }

    #[test]
    fn v_as_0_or_1_is_the_same_signature_as_27_or_28() {
        let mut bytes = vector_bytes();
        bytes[64] = 1;

        let signer = recover_address(&VECTOR_DIGEST, &bytes);

        assert_eq!(signer, Ok(VECTOR_SIGNER));
    }

    #[test]
    fn hex_without_prefix_is_accepted() {
        let parsed = RecoverableSignature::from_hex(VECTOR_SIGNATURE.trim_start_matches("0x"));

        assert_eq!(parsed, VECTOR_SIGNATURE.parse::<RecoverableSignature>());
    }

    #[test]
    fn to_bytes_gives_back_the_wire_form() {
        let signature = RecoverableSignature::from_hex(VECTOR_SIGNATURE).expect("vector is valid");

        assert_eq!(signature.to_bytes().to_vec(), vector_bytes());
        assert!(signature.y_parity());
    }

    #[test]
    fn a_64_byte_signature_is_rejected_with_its_length() {
        let bytes = &vector_bytes()[..64];

        assert_eq!(
            RecoverableSignature::from_bytes(bytes),
            Err(SignatureError::WrongLength { len: 64 })
        );
    }

    #[test]
    fn a_66_byte_signature_is_rejected_with_its_length() {
        let mut bytes = vector_bytes();
        bytes.push(0);

        assert_eq!(
            RecoverableSignature::from_bytes(&bytes),
            Err(SignatureError::WrongLength { len: 66 })
        );
    }

    #[test]
    fn an_empty_signature_is_rejected_with_length_zero() {
        assert_eq!(
            RecoverableSignature::from_hex("0x"),
            Err(SignatureError::WrongLength { len: 0 })
        );
    }

    #[test]
    fn recovery_byte_2_is_rejected() {
        let mut bytes = vector_bytes();
        bytes[64] = 2;

        assert_eq!(
            RecoverableSignature::from_bytes(&bytes),
            Err(SignatureError::InvalidRecoveryId { v: 2 })
        );
    }

    #[test]
    fn recovery_byte_29_is_rejected() {
        let mut bytes = vector_bytes();
        bytes[64] = 29;

        assert_eq!(
            RecoverableSignature::from_bytes(&bytes),
            Err(SignatureError::InvalidRecoveryId { v: 29 })
        );
    }

    #[test]
    fn the_high_s_twin_of_a_valid_signature_is_rejected() {
        let mut bytes = vector_bytes();
        let n = U256::from_str_radix(
            "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141",
            16,
        )
        .expect("curve order literal");
        let s = U256::from_be_slice(&bytes[32..64]);
        bytes[32..64].copy_from_slice(&(n - s).to_be_bytes::<32>());
        bytes[64] = 27; // the twin signs with the opposite parity

        assert_eq!(
            RecoverableSignature::from_bytes(&bytes),
            Err(SignatureError::HighS)
        );
    }

    #[test]
    fn non_hex_text_is_rejected() {
        let text = VECTOR_SIGNATURE.replace('d', "g");

        assert_eq!(
            RecoverableSignature::from_hex(&text),
            Err(SignatureError::InvalidHex)
        );
    }

    #[test]
    fn an_odd_number_of_hex_digits_is_rejected() {
        assert_eq!(
            RecoverableSignature::from_hex("0xabc"),
            Err(SignatureError::InvalidHex)
        );
    }

    #[test]
    fn a_zero_r_is_rejected() {
        let mut bytes = vector_bytes();
        bytes[..32].fill(0);

        assert_eq!(
            RecoverableSignature::from_bytes(&bytes),
            Err(SignatureError::ROutOfRange)
        );
    }

    #[test]
    fn an_r_at_or_above_the_curve_order_is_rejected() {
        let mut bytes = vector_bytes();
        bytes[..32].fill(0xff);

        assert_eq!(
            RecoverableSignature::from_bytes(&bytes),
            Err(SignatureError::ROutOfRange)
        );
    }

    #[test]
    fn a_zero_s_is_rejected() {
        let mut bytes = vector_bytes();
        bytes[32..64].fill(0);

        assert_eq!(
            RecoverableSignature::from_bytes(&bytes),
            Err(SignatureError::SOutOfRange)
        );
    }

    #[test]
    fn an_s_at_or_above_the_curve_order_is_rejected() {
        let mut bytes = vector_bytes();
        bytes[32..64].fill(0xff);

        assert_eq!(
            RecoverableSignature::from_bytes(&bytes),
            Err(SignatureError::SOutOfRange)
        );
    }

    #[test]
    fn an_r_that_is_no_curve_point_fails_recovery() {
        // x = 5 is not the x-coordinate of any secp256k1 point (5^3 + 7 = 132 is a non-residue mod p).
        let mut bytes = vector_bytes();
        bytes[..32].copy_from_slice(&U256::from(5_u8).to_be_bytes::<32>());

        let signer = recover_address(&VECTOR_DIGEST, &bytes);

        assert_eq!(signer, Err(SignatureError::RecoveryFailed));
    }

    #[test]
    fn a_different_digest_recovers_a_different_address() {
        let other = b256!("0x0000000000000000000000000000000000000000000000000000000000000001");

        let signer = recover_address(&other, &vector_bytes());

        assert_ne!(signer, Ok(VECTOR_SIGNER));
    }
}
