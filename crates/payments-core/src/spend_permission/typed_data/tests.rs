use super::*;
use serde_json::json;

fn vector_data() -> SpendPermissionData {
    SpendPermissionData {
        account: "0x4A2Bd4f4A39EC4541baD64e197b26471523B7D41".to_owned(),
        spender: "0x013D66f00e046393cDA5fc85598ED045449DF2ED".to_owned(),
        token: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913".to_owned(),
        allowance: "1000000".to_owned(),
        period: 604_800,
        start: 1_769_189_627,
        end: 1_776_447_227,
        salt: "508".to_owned(),
        extra_data: "0x".to_owned(),
    }
}

fn document() -> SpendPermissionTypedData {
    SpendPermissionTypedData::new(
        &vector_data().parse().unwrap(),
        &SpendPermissionDomain::BASE_MAINNET,
    )
}

#[test]
fn the_document_is_the_json_that_wallets_sign_with_eth_sign_typed_data_v4() {
    let json = serde_json::to_value(document()).unwrap();

    assert_eq!(
        json,
        json!({
            "domain": {
                "name": "Spend Permission Manager",
                "version": "1",
                "chainId": 8453,
                "verifyingContract": "0xf85210B21cC50302F477BA56686d2019dC9b67Ad"
            },
            "types": {
                "EIP712Domain": [
                    {"name": "name", "type": "string"},
                    {"name": "version", "type": "string"},
                    {"name": "chainId", "type": "uint256"},
                    {"name": "verifyingContract", "type": "address"}
                ],
                "SpendPermission": [
                    {"name": "account", "type": "address"},
                    {"name": "spender", "type": "address"},
                    {"name": "token", "type": "address"},
                    {"name": "allowance", "type": "uint160"},
                    {"name": "period", "type": "uint48"},
                    {"name": "start", "type": "uint48"},
                    {"name": "end", "type": "uint48"},
                    {"name": "salt", "type": "uint256"},
                    {"name": "extraData", "type": "bytes"}
                ]
            },
            "primaryType": "SpendPermission",
            "message": {
                "account": "0x4A2Bd4f4A39EC4541baD64e197b26471523B7D41",
                "spender": "0x013D66f00e046393cDA5fc85598ED045449DF2ED",
                "token": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
                "allowance": "1000000",
                "period": 604800,
                "start": 1769189627,
                "end": 1776447227,
                "salt": "508",
                "extraData": "0x"
            }
        })
    );
}

#[test]
fn a_document_parses_back_to_its_permission_and_domain() {
    let (permission, domain) = document().parse().unwrap();

    assert_eq!(permission, vector_data().parse().unwrap());
    assert_eq!(domain, SpendPermissionDomain::BASE_MAINNET);
}

#[test]
fn a_document_with_another_primary_type_is_refused() {
    let mut other = document();
    other.primary_type = "Permit".to_owned();

    assert_eq!(
        other.parse(),
        Err(TypedDataError::NotSpendPermission("primaryType"))
    );
}

#[test]
fn a_document_with_reordered_fields_is_refused() {
    let mut other = document();
    other.types.get_mut("SpendPermission").unwrap().swap(0, 1);

    assert_eq!(other.parse(), Err(TypedDataError::NotSpendPermission("types")));
}

#[test]
fn a_document_of_another_domain_name_is_refused() {
    let mut other = document();
    other.domain.name = "Permit2".to_owned();

    assert_eq!(
        other.parse(),
        Err(TypedDataError::NotSpendPermission("domain.name"))
    );
}
