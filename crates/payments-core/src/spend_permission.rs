//! EIP-712 spend permissions: the typed permission a subscriber signs, its signing domain, and the check
//! that the signature was made by the permission's `account`.
//!
//! The wire form ([`SpendPermissionData`]) is parsed into a [`SpendPermission`] whose field types hold
//! exactly the on-chain ranges (`uint160`, `uint48`, `uint256`), so nothing past the parse step handles
//! raw strings. Hashing follows [EIP-712](https://eips.ethereum.org/EIPS/eip-712) through
//! `alloy-sol-types`; signer recovery lives in [`RecoverableSignature`].

mod eip712;
mod signature;
mod typed_data;
mod wire;

use alloy_primitives::aliases::{U48, U160};
use alloy_primitives::{Address, B256, Bytes, U256, address};
use alloy_sol_types::Eip712Domain;
use std::borrow::Cow;
use thiserror::Error;

pub use self::eip712::eip712_signing_hash;
pub use self::signature::{RecoverableSignature, SignatureError, recover_address};
pub use self::typed_data::{
    SPEND_PERMISSION_PRIMARY_TYPE, SpendPermissionTypedData, TypedDataDomain, TypedDataError, TypedDataField,
};
pub use self::wire::{PermissionField, SpendPermissionData};

/// EIP-712 domain name of the spend permission manager contract.
pub const SPEND_PERMISSION_DOMAIN_NAME: &str = "Spend Permission Manager";

/// EIP-712 domain version of the spend permission manager contract.
pub const SPEND_PERMISSION_DOMAIN_VERSION: &str = "1";

/// Chain id of Base mainnet, the default chain for spend permissions.
pub const BASE_MAINNET_CHAIN_ID: u64 = 8453;

/// Address of the spend permission manager contract on Base mainnet, the default verifying contract.
pub const SPEND_PERMISSION_MANAGER: Address = address!("0xf85210B21cC50302F477BA56686d2019dC9b67Ad");

/// A spend permission: `account` lets `spender` move up to `allowance` base units of `token` per `period`
/// seconds, between `start` (inclusive) and `end` (exclusive), both unix seconds.
///
/// Each field has the width of the on-chain type, so every value of this struct can be signed and
/// submitted as is. Build one from the wire form with [`SpendPermissionData::parse`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SpendPermission {
    /// The wallet granting the permission; it must be the signer.
    pub account: Address,
    /// The address allowed to spend (the platform's spender).
    pub spender: Address,
    /// The ERC-20 token contract that may be spent.
    pub token: Address,
    /// Maximum base units spendable in each period (`uint160`).
    pub allowance: U160,
    /// Length of one allowance period in seconds (`uint48`).
    pub period: U48,
    /// Unix seconds from which spending is allowed (`uint48`, inclusive).
    pub start: U48,
    /// Unix seconds from which spending is no longer allowed (`uint48`, exclusive).
    pub end: U48,
    /// Arbitrary value that makes otherwise equal permissions distinct (`uint256`).
    pub salt: U256,
    /// Opaque bytes passed through to the contract.
    pub extra_data: Bytes,
}

impl SpendPermission {
    /// The period length in seconds.
    pub fn period_secs(&self) -> u64 {
        u48_to_u64(self.period)
    }

    /// The start time in unix seconds.
    pub fn start_secs(&self) -> u64 {
        u48_to_u64(self.start)
    }

    /// The end time in unix seconds.
    pub fn end_secs(&self) -> u64 {
        u48_to_u64(self.end)
    }

    /// The [EIP-712](https://eips.ethereum.org/EIPS/eip-712) signing hash of this permission under
    /// `domain`: `keccak256(0x1901 || domainSeparator || hashStruct(permission))`, the digest the
    /// account signs.
    pub fn signing_hash(&self, domain: &SpendPermissionDomain) -> B256 {
        eip712_signing_hash(&eip712::typed(self), &domain.to_eip712())
    }

    /// Checks that `signature` over this permission's [EIP-712](https://eips.ethereum.org/EIPS/eip-712)
    /// signing hash under `domain` was made by [`SpendPermission::account`].
    ///
    /// # Errors
    ///
    /// [`PermissionError::Signature`] when no signer can be recovered from the signature, and
    /// [`PermissionError::SignerMismatch`] when the recovered signer is not the account (for example
    /// because a field was changed after signing).
    pub fn verify(
        &self,
        signature: &RecoverableSignature,
        domain: &SpendPermissionDomain,
    ) -> Result<(), PermissionError> {
        let recovered = signature.recover(&self.signing_hash(domain))?;
        if recovered == self.account {
            Ok(())
        } else {
            Err(PermissionError::SignerMismatch {
                account: self.account,
                recovered,
            })
        }
    }
}

fn u48_to_u64(value: U48) -> u64 {
    let [limb] = value.into_limbs();
    limb
}

/// The EIP-712 domain a spend permission is signed under: name "Spend Permission Manager", version "1",
/// a chain id and the spend permission manager contract as verifying contract.
///
/// The default is Base mainnet ([`BASE_MAINNET_CHAIN_ID`], [`SPEND_PERMISSION_MANAGER`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SpendPermissionDomain {
    /// The chain id the permission is valid on.
    pub chain_id: u64,
    /// The spend permission manager contract on that chain.
    pub verifying_contract: Address,
}

impl SpendPermissionDomain {
    /// The domain on Base mainnet.
    pub const BASE_MAINNET: SpendPermissionDomain = SpendPermissionDomain {
        chain_id: BASE_MAINNET_CHAIN_ID,
        verifying_contract: SPEND_PERMISSION_MANAGER,
    };

    /// The full [EIP-712](https://eips.ethereum.org/EIPS/eip-712) domain, for use with
    /// [`eip712_signing_hash`].
    pub fn to_eip712(&self) -> Eip712Domain {
        Eip712Domain::new(
            Some(Cow::Borrowed(SPEND_PERMISSION_DOMAIN_NAME)),
            Some(Cow::Borrowed(SPEND_PERMISSION_DOMAIN_VERSION)),
            Some(U256::from(self.chain_id)),
            Some(self.verifying_contract),
            None,
        )
    }
}

impl Default for SpendPermissionDomain {
    fn default() -> Self {
        Self::BASE_MAINNET
    }
}

/// Why a spend permission was rejected: a malformed wire field, an unusable signature, or a signature by
/// someone other than the permission's account.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PermissionError {
    /// An address field is not 20 bytes of hex.
    #[error("{field} is not a valid address")]
    InvalidAddress {
        /// The offending field.
        field: PermissionField,
    },
    /// A numeric string field is empty or has characters other than the digits 0-9.
    #[error("{field} is not a decimal integer")]
    NotDecimal {
        /// The offending field.
        field: PermissionField,
    },
    /// A numeric field does not fit its on-chain type.
    #[error("{field} does not fit in uint{bits}")]
    OutOfRange {
        /// The offending field.
        field: PermissionField,
        /// Width of the on-chain type in bits.
        bits: u16,
    },
    /// `extraData` is not `0x`-prefixed hex with an even number of digits.
    #[error("extraData is not 0x-prefixed hex")]
    InvalidExtraData,
    /// No signer could be recovered from the signature.
    #[error("unusable signature")]
    Signature(#[from] SignatureError),
    /// The signature is valid but was made by a different key than the permission's account.
    #[error("permission is signed by {recovered}, not by its account {account}")]
    SignerMismatch {
        /// The permission's account, which should have signed.
        account: Address,
        /// The address that actually signed.
        recovered: Address,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_primitives::b256;

    fn first_vector() -> SpendPermission {
        SpendPermission {
            account: address!("0x4A2Bd4f4A39EC4541baD64e197b26471523B7D41"),
            spender: address!("0x013D66f00e046393cDA5fc85598ED045449DF2ED"),
            token: address!("0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"),
            allowance: U160::from(1_000_000_u64),
            period: U48::from(604_800_u64),
            start: U48::from(1_769_189_627_u64),
            end: U48::from(1_776_447_227_u64),
            salt: U256::from(508_u64),
            extra_data: Bytes::from_static(&[
                0x6d, 0xc6, 0x50, 0x77, 0x95, 0xec, 0x74, 0x5c, 0x4c, 0x3f, 0xcb, 0x2e, 0xb2, 0xc7, 0x3e,
                0x14, 0x93, 0x4c, 0x86, 0x7e, 0xe0, 0x57, 0xba, 0x72, 0x49, 0x9b, 0xfa, 0x12, 0x1e, 0x83,
                0x6b, 0x2a, 0xc1, 0x57, 0x26,
            ]),
        }
    }

    #[test]
    fn the_default_domain_is_base_mainnet_with_the_manager_contract() {
        let domain = SpendPermissionDomain::default();

        assert_eq!(domain.chain_id, 8453);
        assert_eq!(
            domain.verifying_contract,
            address!("0xf85210B21cC50302F477BA56686d2019dC9b67Ad")
        );
    }

    #[test]
    fn a_vector_permission_hashes_to_the_published_digest() {
        let digest = first_vector().signing_hash(&SpendPermissionDomain::BASE_MAINNET);

        assert_eq!(
            digest,
            b256!("0xbbf88da9590bcf6f8ddaf8799d0d5d19b940edc875886f51e30b79c49cb5d4b1")
        );
    }

    #[test]
    fn another_chain_id_changes_the_digest() {
        let sepolia = SpendPermissionDomain {
            chain_id: 84_532,
            ..SpendPermissionDomain::BASE_MAINNET
        };

        let digest = first_vector().signing_hash(&sepolia);

        assert_ne!(
            digest,
            b256!("0xbbf88da9590bcf6f8ddaf8799d0d5d19b940edc875886f51e30b79c49cb5d4b1")
        );
    }

    #[test]
    fn seconds_accessors_read_the_uint48_fields() {
        let permission = first_vector();

        assert_eq!(permission.period_secs(), 604_800);
        assert_eq!(permission.start_secs(), 1_769_189_627);
        assert_eq!(permission.end_secs(), 1_776_447_227);
    }
}
