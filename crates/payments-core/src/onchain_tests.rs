use serde_json::Value;

use super::*;
use crate::split::SplitRecipient;

/// Addresses computed by foundry's `cast` from the same artifacts (`contracts/vectors.sh`).
const VECTORS: &str = include_str!("../../../contracts/vectors/create2.json");

fn vectors(kind: &str) -> Vec<Value> {
    let all: Value = serde_json::from_str(VECTORS).unwrap();
    all[kind].as_array().unwrap().clone()
}

fn wallet(value: &Value) -> Wallet {
    value.as_str().unwrap().parse().unwrap()
}

/// `[0xaa..,0xbb..]` and `[9000,700]` as cast takes them.
fn split_of(recipients: &Value, bps: &Value) -> Split {
    let list = |value: &Value| -> Vec<String> {
        let text = value.as_str().unwrap();
        text.trim_matches(['[', ']'])
            .split(',')
            .map(str::to_owned)
            .collect()
    };
    let recipients = list(recipients)
        .iter()
        .zip(list(bps))
        .map(|(address, bps)| SplitRecipient {
            address: address.parse().unwrap(),
            shares_bps: bps.parse().unwrap(),
        })
        .collect();
    Split::new(recipients).unwrap()
}

#[test]
fn split_addresses_match_cast_for_the_committed_artifacts() {
    for vector in vectors("splits") {
        let split = split_of(&vector["recipients"], &vector["bps"]);

        let address = split_address(wallet(&vector["factory"]), &split);

        assert_eq!(address, wallet(&vector["address"]), "{vector}");
    }
}

#[test]
fn deposit_addresses_match_cast_for_the_committed_artifacts() {
    for vector in vectors("deposits") {
        let merchant = wallet(&vector["merchant"]);
        let salt = ReceiptSalt::of(merchant, vector["receiptId"].as_str().unwrap());

        let address = deposit_address(
            wallet(&vector["factory"]),
            salt,
            wallet(&vector["split"]),
            wallet(&vector["token"]),
        );

        assert_eq!(
            format!("0x{}", hex::encode(salt.to_bytes())),
            vector["receiptSalt"].as_str().unwrap()
        );
        assert_eq!(address, wallet(&vector["address"]), "{vector}");
    }
}

#[test]
fn the_same_receipt_id_of_two_merchants_has_two_deposit_addresses() {
    let (factory, split, token) = (
        "0x00000000000000000000000000000000000000f1".parse().unwrap(),
        "0x00000000000000000000000000000000000000f2".parse().unwrap(),
        "0x00000000000000000000000000000000000000f3".parse().unwrap(),
    );
    let a: Wallet = "0x00000000000000000000000000000000000000aa".parse().unwrap();
    let b: Wallet = "0x00000000000000000000000000000000000000bb".parse().unwrap();

    let of_a = deposit_address(factory, ReceiptSalt::of(a, "order-1"), split, token);
    let of_b = deposit_address(factory, ReceiptSalt::of(b, "order-1"), split, token);

    assert_ne!(of_a, of_b);
}

#[test]
fn the_embedded_split_runtime_code_is_the_artifacts() {
    assert!(SPLIT_RUNTIME_CODE.len() > 100);
    assert!(!SPLIT_FACTORY_CREATION_CODE.is_empty() && !DEPOSIT_FACTORY_CREATION_CODE.is_empty());
}
