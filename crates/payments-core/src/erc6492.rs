//! ERC-6492 signatures: how a smart wallet that is not deployed yet (a "counterfactual" account, e.g. a
//! fresh Coinbase Smart Wallet) signs. The wallet's own signature (what its ERC-1271 `isValidSignature`
//! will accept once it exists) is wrapped with the factory call that deploys it:
//! `abi.encode(address factory, bytes factoryCalldata, bytes innerSignature) ‖ ERC6492_SUFFIX`.
//! A verifier without the wallet's code runs the factory call and then ERC-1271 in one simulation
//! (`contracts/src/SignatureValidator6492.sol`, run by `eth_call` without deploying it); once the wallet
//! exists, the inner signature alone is what the wallet accepts.

use alloy_primitives::{Address, Bytes};
use alloy_sol_types::SolValue;

/// The 32 bytes that end every ERC-6492 signature (and nothing else in practice).
pub const ERC6492_SUFFIX: [u8; 32] = [
    0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64,
    0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92, 0x64, 0x92,
];

/// The longest signature a subscription accepts, in bytes. A passkey wallet's wrapped signature (factory
/// call with its owners, WebAuthn data) is one or two kilobytes; the bound keeps what is stored, sent to the
/// node and replayed in every charge small.
pub const MAX_SIGNATURE_BYTES: usize = 8 * 1024;

/// Creation code of `SignatureValidator6492`: with `abi.encode(account, hash, signature)` appended and run by
/// `eth_call` without a `to`, it returns one word, 1 when `account` accepts `signature` over `hash`.
pub const SIGNATURE_VALIDATOR_6492_CREATION_CODE: &[u8] =
    crate::onchain::SIGNATURE_VALIDATOR_6492_CREATION_CODE;

/// A stored subscription signature is not empty and not over [`MAX_SIGNATURE_BYTES`]: any other length is
/// legitimate (an EOA's 65 bytes, an ERC-1271 wallet's own format, an ERC-6492 wrapper), so a store must not
/// ask for 65 bytes when it reads one back.
///
/// # Errors
/// The length found, when it is out of bounds.
pub fn stored_signature_fits(signature: &[u8]) -> Result<(), String> {
    if signature.is_empty() || signature.len() > MAX_SIGNATURE_BYTES {
        return Err(format!(
            "signature is {} bytes, expected 1 to {MAX_SIGNATURE_BYTES}",
            signature.len()
        ));
    }
    Ok(())
}

/// The three parts of an ERC-6492 signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CounterfactualSignature {
    /// The contract that deploys the wallet.
    pub factory: Address,
    /// The call to `factory` that deploys it (e.g. `createAccount(owners, nonce)`).
    pub factory_calldata: Bytes,
    /// The signature the deployed wallet's ERC-1271 accepts.
    pub inner: Bytes,
}

/// A signature that ends with the ERC-6492 suffix but whose body is not the three ABI fields.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("an ERC-6492 signature must be abi.encode(address, bytes, bytes) followed by the 6492 suffix")]
pub struct CounterfactualSignatureError;

impl CounterfactualSignature {
    /// `Ok(None)` for a signature without the suffix (an EOA's or a deployed wallet's, used as is),
    /// `Ok(Some(..))` for a well-formed ERC-6492 signature.
    ///
    /// # Errors
    /// [`CounterfactualSignatureError`] when it has the suffix but the body does not decode strictly.
    pub fn parse(signature: &[u8]) -> Result<Option<Self>, CounterfactualSignatureError> {
        let Some(body) = signature.strip_suffix(&ERC6492_SUFFIX) else {
            return Ok(None);
        };
        let (factory, factory_calldata, inner) = <(Address, Bytes, Bytes)>::abi_decode_params_validate(body)
            .map_err(|_| CounterfactualSignatureError)?;
        Ok(Some(CounterfactualSignature {
            factory,
            factory_calldata,
            inner,
        }))
    }

    /// The wrapped form: `abi.encode(factory, factoryCalldata, inner) ‖ ERC6492_SUFFIX`.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = (self.factory, self.factory_calldata.clone(), self.inner.clone()).abi_encode_params();
        bytes.extend_from_slice(&ERC6492_SUFFIX);
        bytes
    }

    /// The signature a deployed account is asked about: the inner one of a well-formed wrapped signature,
    /// else the signature itself (an EOA's, or a deployed wallet's own format).
    #[must_use]
    pub fn for_deployed_account(signature: &[u8]) -> Vec<u8> {
        match Self::parse(signature) {
            Ok(Some(wrapped)) => wrapped.inner.to_vec(),
            Ok(None) | Err(_) => signature.to_vec(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wrapped() -> CounterfactualSignature {
        CounterfactualSignature {
            factory: Address::repeat_byte(0xfa),
            factory_calldata: Bytes::from(vec![0x5f, 0xbf, 0xb9, 0xcf, 1, 2, 3]),
            inner: Bytes::from(vec![0xab; 65]),
        }
    }

    #[test]
    fn a_wrapped_signature_parses_back_to_its_three_parts() {
        let bytes = wrapped().to_bytes();

        assert_eq!(bytes.len() % 32, 0);
        assert_eq!(CounterfactualSignature::parse(&bytes), Ok(Some(wrapped())));
        assert_eq!(
            CounterfactualSignature::for_deployed_account(&bytes),
            vec![0xab; 65]
        );
    }

    #[test]
    fn a_plain_signature_is_not_wrapped_and_is_its_own_inner_signature() {
        let plain = [0x11; 65];

        assert_eq!(CounterfactualSignature::parse(&plain), Ok(None));
        assert_eq!(
            CounterfactualSignature::for_deployed_account(&plain),
            plain.to_vec()
        );
    }

    #[test]
    fn a_suffix_after_anything_but_the_three_fields_is_refused() {
        let mut garbage = vec![0x01; 40];
        garbage.extend_from_slice(&ERC6492_SUFFIX);

        assert_eq!(
            CounterfactualSignature::parse(&garbage),
            Err(CounterfactualSignatureError)
        );
        assert_eq!(
            CounterfactualSignature::parse(&ERC6492_SUFFIX),
            Err(CounterfactualSignatureError)
        );
    }
}
