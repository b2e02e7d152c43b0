//! The JSON typed-data document of a spend permission: what `eth_signTypedData_v4`, viem's
//! `signTypedData`, ethers' `signTypedData` and `cast wallet sign --data` take, so any wallet library can
//! sign the exact permission `POST /api/subscriptions/create` verifies.
//!
//! The `types` are read from the same `sol!` struct and domain that hash the permission
//! ([`SpendPermission::signing_hash`]), so the document and the digest cannot drift apart.

use std::collections::BTreeMap;

use alloy_sol_types::SolStruct;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::{
    PermissionError, SPEND_PERMISSION_DOMAIN_NAME, SPEND_PERMISSION_DOMAIN_VERSION, SpendPermission,
    SpendPermissionData, SpendPermissionDomain, eip712,
};

/// The EIP-712 primary type of a spend permission.
pub const SPEND_PERMISSION_PRIMARY_TYPE: &str = "SpendPermission";

/// A spend permission as an [EIP-712](https://eips.ethereum.org/EIPS/eip-712) typed-data document.
///
/// `message` is the permission in its wire form, so it is also the `permissionData` of the create request.
///
/// ```
/// # use payments_core::{SpendPermissionData, SpendPermissionDomain, SpendPermissionTypedData};
/// let data = SpendPermissionData {
///     account: "0x4A2Bd4f4A39EC4541baD64e197b26471523B7D41".into(),
///     spender: "0x013D66f00e046393cDA5fc85598ED045449DF2ED".into(),
///     token: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913".into(),
///     allowance: "1000000".into(), period: 604_800, start: 1_769_189_627, end: 1_776_447_227,
///     salt: "508".into(), extra_data: "0x".into(),
/// };
/// let document = SpendPermissionTypedData::new(&data.parse()?, &SpendPermissionDomain::BASE_MAINNET);
/// assert_eq!(document.primary_type, "SpendPermission");
/// assert_eq!(document.parse()?.1, SpendPermissionDomain::BASE_MAINNET);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SpendPermissionTypedData {
    /// The signing domain: the spend permission manager on its chain.
    pub domain: TypedDataDomain,
    /// `EIP712Domain` and `SpendPermission`, each as its ordered list of fields.
    pub types: BTreeMap<String, Vec<TypedDataField>>,
    /// Always `SpendPermission`.
    pub primary_type: String,
    /// The permission to sign (also the create request's `permissionData`).
    pub message: SpendPermissionData,
}

/// The `domain` of a spend permission document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TypedDataDomain {
    /// `Spend Permission Manager`.
    pub name: String,
    /// `1`.
    pub version: String,
    /// The chain the permission is valid on.
    pub chain_id: u64,
    /// The spend permission manager contract (checksummed).
    pub verifying_contract: String,
}

/// One field of an EIP-712 struct type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TypedDataField {
    /// The field's name.
    pub name: String,
    /// Its Solidity type (`address`, `uint48`, ...).
    #[serde(rename = "type")]
    pub kind: String,
}

/// Why a document is not a spend permission this crate would have produced.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum TypedDataError {
    /// The domain, types or primary type differ from the spend permission manager's.
    #[error("the document is not a spend permission of the spend permission manager: {0} differs")]
    NotSpendPermission(&'static str),
    /// The domain's verifying contract is not an address.
    #[error("the domain's verifyingContract is not an address")]
    InvalidVerifyingContract,
    /// A field of the message is malformed.
    #[error(transparent)]
    Message(#[from] PermissionError),
}

impl SpendPermissionTypedData {
    /// The document of `permission` under `domain`.
    pub fn new(permission: &SpendPermission, domain: &SpendPermissionDomain) -> Self {
        Self {
            domain: TypedDataDomain {
                name: SPEND_PERMISSION_DOMAIN_NAME.to_owned(),
                version: SPEND_PERMISSION_DOMAIN_VERSION.to_owned(),
                chain_id: domain.chain_id,
                verifying_contract: domain.verifying_contract.to_checksum(None),
            },
            types: spend_permission_types(),
            primary_type: SPEND_PERMISSION_PRIMARY_TYPE.to_owned(),
            message: SpendPermissionData::from(permission),
        }
    }

    /// The permission and domain of a document, after checking that its name, version, types and
    /// primary type are exactly those [`SpendPermissionTypedData::new`] writes (a signer that trusts a
    /// fetched document should sign only what it has checked).
    ///
    /// # Errors
    /// [`TypedDataError::NotSpendPermission`] naming what differs,
    /// [`TypedDataError::InvalidVerifyingContract`], or [`TypedDataError::Message`] for a malformed field.
    pub fn parse(&self) -> Result<(SpendPermission, SpendPermissionDomain), TypedDataError> {
        if self.domain.name != SPEND_PERMISSION_DOMAIN_NAME {
            return Err(TypedDataError::NotSpendPermission("domain.name"));
        }
        if self.domain.version != SPEND_PERMISSION_DOMAIN_VERSION {
            return Err(TypedDataError::NotSpendPermission("domain.version"));
        }
        if self.primary_type != SPEND_PERMISSION_PRIMARY_TYPE {
            return Err(TypedDataError::NotSpendPermission("primaryType"));
        }
        if self.types != spend_permission_types() {
            return Err(TypedDataError::NotSpendPermission("types"));
        }
        let verifying_contract = self
            .domain
            .verifying_contract
            .parse()
            .map_err(|_| TypedDataError::InvalidVerifyingContract)?;
        let domain = SpendPermissionDomain {
            chain_id: self.domain.chain_id,
            verifying_contract,
        };
        Ok((self.message.parse()?, domain))
    }
}

/// The two struct types of the document, read from their EIP-712 `encodeType` strings.
fn spend_permission_types() -> BTreeMap<String, Vec<TypedDataField>> {
    let domain_type = SpendPermissionDomain::BASE_MAINNET.to_eip712().encode_type();
    let permission_type = eip712::SpendPermissionType::eip712_root_type();
    [domain_type.as_str(), permission_type.as_ref()]
        .into_iter()
        .map(struct_fields)
        .collect()
}

/// `Name(type a,type b)` as the name and its fields.
fn struct_fields(encode_type: &str) -> (String, Vec<TypedDataField>) {
    let (name, rest) = encode_type.split_once('(').unwrap_or((encode_type, ""));
    let fields = rest
        .trim_end_matches(')')
        .split(',')
        .filter_map(|field| field.split_once(' '))
        .map(|(kind, name)| TypedDataField {
            name: name.to_owned(),
            kind: kind.to_owned(),
        })
        .collect();
    (name.to_owned(), fields)
}

#[cfg(test)]
mod tests;
