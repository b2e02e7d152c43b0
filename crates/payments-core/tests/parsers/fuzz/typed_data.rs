//! The EIP-712 typed-data document of a spend permission (`SpendPermissionTypedData`), as a client that
//! fetched it from the permission route would check it before signing.

use super::{config, json_value};
use alloy_primitives::Address;
use payments_core::{SpendPermissionData, SpendPermissionDomain, SpendPermissionTypedData, TypedDataError};
use proptest::prelude::*;
use serde_json::Value;

const DOCUMENT_KEYS: &[&str] = &[
    "domain",
    "types",
    "primaryType",
    "message",
    "name",
    "version",
    "chainId",
    "verifyingContract",
    "type",
    "EIP712Domain",
    "SpendPermission",
    "account",
    "allowance",
    "extraData",
];

fn document() -> impl Strategy<Value = SpendPermissionTypedData> {
    (
        (
            "0x[0-9a-f]{40}",
            "[1-9][0-9]{0,20}",
            1..(1_u64 << 48),
            "[0-9]{1,30}",
        ),
        (any::<u64>(), any::<[u8; 20]>()),
    )
        .prop_map(|((account, allowance, period, salt), (chain_id, manager))| {
            let data = SpendPermissionData {
                account: account.clone(),
                spender: account.clone(),
                token: account,
                allowance,
                period,
                start: 0,
                end: period,
                salt,
                extra_data: "0x".to_owned(),
            };
            let domain = SpendPermissionDomain {
                chain_id,
                verifying_contract: Address::from(manager),
            };
            SpendPermissionTypedData::new(&data.parse().expect("a well-formed permission"), &domain)
        })
}

/// The document as JSON with the value at `path` (object keys) replaced by `replacement`.
fn replaced(document: &SpendPermissionTypedData, path: &[&str], replacement: Value) -> Value {
    let mut json = serde_json::to_value(document).expect("a document serialises");
    let mut slot = &mut json;
    for key in path {
        slot = &mut slot[*key];
    }
    *slot = replacement;
    json
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn a_document_the_server_writes_reads_back_as_the_same_permission_and_domain(document in document()) {
        let json = serde_json::to_string(&document).unwrap();
        let read: SpendPermissionTypedData = serde_json::from_str(&json).unwrap();
        let (permission, domain) = read.parse().unwrap();
        prop_assert_eq!(SpendPermissionTypedData::new(&permission, &domain), document);
    }

    #[test]
    fn arbitrary_json_never_panics_the_document_parse(value in json_value(DOCUMENT_KEYS)) {
        if let Ok(document) = serde_json::from_value::<SpendPermissionTypedData>(value) {
            let _ = document.parse();
        }
    }

    #[test]
    fn a_document_with_any_other_name_version_primary_type_or_types_is_not_a_spend_permission(
        document in document(),
        which in 0..4_usize,
        text in ".{0,24}",
        types in json_value(DOCUMENT_KEYS),
    ) {
        let (path, replacement, differs): (&[&str], Value, &str) = match which {
            0 => (&["domain", "name"], Value::String(text), "domain.name"),
            1 => (&["domain", "version"], Value::String(text), "domain.version"),
            2 => (&["primaryType"], Value::String(text), "primaryType"),
            _ => (&["types"], types, "types"),
        };
        let json = replaced(&document, path, replacement);
        let Ok(read) = serde_json::from_value::<SpendPermissionTypedData>(json) else {
            return Ok(());
        };
        if read == document {
            prop_assert!(read.parse().is_ok());
        } else {
            prop_assert_eq!(read.parse(), Err(TypedDataError::NotSpendPermission(differs)));
        }
    }
}
