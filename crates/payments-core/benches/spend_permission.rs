//! Criterion benchmarks: the EIP-712 signing hash of a spend permission and its full verification.

use criterion::{Criterion, criterion_group, criterion_main};
use payments_core::{RecoverableSignature, SpendPermission, SpendPermissionData, SpendPermissionDomain};
use std::hint::black_box;

/// The first vector of `tests/vectors/spend-permission-eip712.json`.
fn vector_permission() -> SpendPermission {
    let data = SpendPermissionData {
        account: "0x4A2Bd4f4A39EC4541baD64e197b26471523B7D41".to_owned(),
        spender: "0x013D66f00e046393cDA5fc85598ED045449DF2ED".to_owned(),
        token: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913".to_owned(),
        allowance: "1000000".to_owned(),
        period: 604_800,
        start: 1_769_189_627,
        end: 1_776_447_227,
        salt: "508".to_owned(),
        extra_data: "0x6dc6507795ec745c4c3fcb2eb2c73e14934c867ee057ba72499bfa121e836b2ac15726".to_owned(),
    };
    match data.parse() {
        Ok(permission) => permission,
        Err(error) => panic!("the vector permission parses: {error}"),
    }
}

fn vector_signature() -> RecoverableSignature {
    let hex = "0xd039939e6f89d5741bf1f47148b59aaeebe94167082bd1e68ed55d2884614fac\
               1aaf6963bde66d41d949f1df5c9cddd42f116e3f9de6a3843f32aebd7e9442221c";
    match hex.parse() {
        Ok(signature) => signature,
        Err(error) => panic!("the vector signature parses: {error}"),
    }
}

fn signing_hash(c: &mut Criterion) {
    let permission = vector_permission();
    let domain = SpendPermissionDomain::BASE_MAINNET;
    c.bench_function("spend permission signing hash", |b| {
        b.iter(|| black_box(&permission).signing_hash(black_box(&domain)))
    });
}

fn verify(c: &mut Criterion) {
    let permission = vector_permission();
    let signature = vector_signature();
    let domain = SpendPermissionDomain::BASE_MAINNET;
    if let Err(error) = permission.verify(&signature, &domain) {
        panic!("the vector verifies: {error}");
    }
    c.bench_function("spend permission verify (hash + recover + compare)", |b| {
        b.iter(|| black_box(&permission).verify(black_box(&signature), black_box(&domain)))
    });
}

criterion_group!(benches, signing_hash, verify);
criterion_main!(benches);
