//! Addresses of the platform's contracts, derived exactly as the chain derives them, so the server knows a
//! split's or a receipt's deposit address before anything is deployed (docs/contracts.md, "The CREATE2
//! derivations").
//!
//! CREATE2 (EIP-1014): `keccak256(0xff ‖ factory ‖ salt ‖ keccak256(initCode))[12..]`, where `initCode` is the
//! contract's creation code (embedded at build time from `contracts/artifacts`) followed by its ABI-encoded
//! constructor arguments.

use std::sync::LazyLock;

use alloy_primitives::{Address, B256, Keccak256, keccak256};
use alloy_sol_types::SolValue;

use crate::split::Split;
use crate::wallet::Wallet;

mod code {
    include!(concat!(env!("OUT_DIR"), "/contract_code.rs"));
}

/// The runtime code every genuine `Split` has (it has no immutables): an address whose code hash equals
/// `keccak256` of this holds a `Split`, whoever deployed it.
pub const SPLIT_RUNTIME_CODE: &[u8] = code::SPLIT_RUNTIME_CODE;
/// Creation code of `SplitFactory` (deployed once per chain by `chain bootstrap`).
pub const SPLIT_FACTORY_CREATION_CODE: &[u8] = code::SPLIT_FACTORY_CREATION_CODE;
/// Creation code of `DepositFactory` (deployed once per chain by `chain bootstrap`).
pub const DEPOSIT_FACTORY_CREATION_CODE: &[u8] = code::DEPOSIT_FACTORY_CREATION_CODE;
/// Creation code of `TestToken`, the 6-decimal token with a public `mint` (development and tests only).
pub const TEST_TOKEN_CREATION_CODE: &[u8] = code::TEST_TOKEN_CREATION_CODE;
/// Creation code of `SpendPermissionManager`, the contract that charges subscriptions within the allowance
/// each customer signed (deployed once per chain by `chain bootstrap`, after the token).
pub const SPEND_PERMISSION_MANAGER_CREATION_CODE: &[u8] = code::SPEND_PERMISSION_MANAGER_CREATION_CODE;
/// Creation code of `SignatureValidator6492` (see [`crate::SIGNATURE_VALIDATOR_6492_CREATION_CODE`]).
pub(crate) const SIGNATURE_VALIDATOR_6492_CREATION_CODE: &[u8] = code::SIGNATURE_VALIDATOR_6492_CREATION_CODE;

/// The 32 bytes that name one receipt's deposit on chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ReceiptSalt([u8; 32]);

impl ReceiptSalt {
    /// `keccak256(merchant ‖ utf8(receipt id))`: receipt ids are chosen per merchant, so the merchant's 20
    /// bytes come first (fixed length, so no two (merchant, id) pairs hash the same input).
    ///
    /// ```
    /// use payments_core::{ReceiptSalt, Wallet};
    /// let merchant: Wallet = "0x00000000000000000000000000000000000000aa".parse().unwrap();
    /// assert_ne!(ReceiptSalt::of(merchant, "order-1"), ReceiptSalt::of(merchant, "order-2"));
    /// ```
    pub fn of(merchant: Wallet, receipt_id: &str) -> ReceiptSalt {
        let mut input = Vec::with_capacity(20 + receipt_id.len());
        input.extend_from_slice(merchant.address().as_slice());
        input.extend_from_slice(receipt_id.as_bytes());
        ReceiptSalt(keccak256(input).0)
    }

    /// The salt as it is passed to `DepositFactory` (`bytes32 receipt`).
    pub const fn to_bytes(self) -> [u8; 32] {
        self.0
    }
}

/// The constructor arguments of a `Split`: `abi.encode(address[] recipients, uint16[] bps)`, in the split's
/// order (the first recipient receives the rounding remainder on chain).
pub fn split_constructor_args(split: &Split) -> Vec<u8> {
    let recipients: Vec<Address> = split
        .recipients()
        .iter()
        .map(|recipient| recipient.address.address())
        .collect();
    // Shares are validated to 1..=10000, so they fit the contract's uint16.
    let bps: Vec<u16> = split
        .recipients()
        .iter()
        .map(|recipient| u16::try_from(recipient.shares_bps).unwrap_or(u16::MAX))
        .collect();
    (recipients, bps).abi_encode_params()
}

/// Where `SplitFactory` at `factory` deploys (or deployed) the contract of `split`.
pub fn split_address(factory: Wallet, split: &Split) -> Wallet {
    static SPLIT_CODE_ABSORBED: LazyLock<Keccak256> = LazyLock::new(|| absorbed(code::SPLIT_CREATION_CODE));
    let args = split_constructor_args(split);
    let salt = keccak256(&args);
    create2(factory, salt, &SPLIT_CODE_ABSORBED, &args)
}

/// The deposit address of one receipt: where `DepositFactory` at `factory` deploys the forwarder that can
/// only move `token` to `split`. Buyers pay the receipt's exact amount here.
pub fn deposit_address(factory: Wallet, receipt: ReceiptSalt, split: Wallet, token: Wallet) -> Wallet {
    let salt = keccak256((B256::from(receipt.0), split.address(), token.address()).abi_encode_params());
    static DEPOSIT_CODE_ABSORBED: LazyLock<Keccak256> =
        LazyLock::new(|| absorbed(code::DEPOSIT_CREATION_CODE));
    let args = (split.address(), token.address()).abi_encode_params();
    create2(factory, salt, &DEPOSIT_CODE_ABSORBED, &args)
}

/// A hasher that has absorbed a creation code: every address derivation continues from a copy of it, so the
/// kilobyte of code is hashed once per process, not once per receipt.
fn absorbed(creation_code: &[u8]) -> Keccak256 {
    let mut hasher = Keccak256::new();
    hasher.update(creation_code);
    hasher
}

fn create2(factory: Wallet, salt: B256, creation_code: &Keccak256, args: &[u8]) -> Wallet {
    let mut init_code_hash = creation_code.clone();
    init_code_hash.update(args);
    Wallet::from_address(factory.address().create2(salt, init_code_hash.finalize()))
}

#[cfg(test)]
#[path = "onchain_tests.rs"]
mod tests;
