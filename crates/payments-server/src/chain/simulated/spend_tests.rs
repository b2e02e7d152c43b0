//! The test-mode spend permission manager through the `Chain` trait: the same rules the contract enforces.

use std::sync::Arc;
use std::time::Duration;

use alloy_primitives::aliases::{U48, U160};
use alloy_primitives::{Address, B256, Bytes, U256, keccak256};
use k256::ecdsa::SigningKey;
use payments_core::{SpendPermission, SpendPermissionDomain, TokenAmount, Wallet};

use crate::chain::Chain;
use crate::chain::simulated::{SIMULATED_RELAYER, SimulatedChain};
use crate::chain::spend::SpendCharge;
use crate::runtime::clock::ManualClock;

const CHAIN_ID: u64 = 31_337;
const T0_MS: i64 = 1_700_000_000_000;
const T0: u64 = 1_700_000_000;
const DAY: u64 = 86_400;
const CUSTOMER_KEY: [u8; 32] = [0x42; 32];

fn wallet(byte: u8) -> Wallet {
    Wallet::from_address(Address::repeat_byte(byte))
}

fn token() -> Wallet {
    wallet(0x70)
}

fn manager() -> Wallet {
    wallet(0x3a)
}

fn customer() -> Wallet {
    let key = SigningKey::from_slice(&CUSTOMER_KEY).unwrap();
    let point = key.verifying_key().to_encoded_point(false);
    Wallet::from_address(Address::from_word(keccak256(&point.as_bytes()[1..])))
}

struct Fixture {
    chain: SimulatedChain,
    clock: Arc<ManualClock>,
}

fn fixture() -> Fixture {
    let clock = Arc::new(ManualClock::new(T0_MS));
    let chain = SimulatedChain::with_clock(CHAIN_ID, &[token(), manager()], clock.clone());
    chain.mint(token(), customer(), 100_000_000);
    chain.approve(token(), customer(), manager(), U256::MAX);
    Fixture { chain, clock }
}

/// 10 USD a month for a year, from a little before now.
fn permission() -> SpendPermission {
    SpendPermission {
        account: customer().address(),
        spender: SIMULATED_RELAYER.address(),
        token: token().address(),
        allowance: U160::from(10_000_000_u64),
        period: U48::from(30 * DAY),
        start: U48::from(T0 - 60),
        end: U48::from(T0 + 365 * DAY),
        salt: U256::from(7_u8),
        extra_data: Bytes::new(),
    }
}

fn sign(permission: &SpendPermission) -> Vec<u8> {
    let domain = SpendPermissionDomain {
        chain_id: CHAIN_ID,
        verifying_contract: manager().address(),
    };
    let key = SigningKey::from_slice(&CUSTOMER_KEY).unwrap();
    let (signature, recovery) = key
        .sign_prehash_recoverable(permission.signing_hash(&domain).as_slice())
        .unwrap();
    let mut bytes = signature.to_bytes().to_vec();
    bytes.push(27 + recovery.to_byte());
    bytes
}

/// 9.95 to the merchant (0x11…), 0.05 to the platform (0x50…).
fn charge(permission: SpendPermission) -> SpendCharge {
    SpendCharge {
        manager: manager(),
        signature: sign(&permission),
        permission,
        merchant: wallet(0x11),
        net: TokenAmount::from_base_units(9_950_000),
        fee_recipient: wallet(0x50),
        fee: TokenAmount::from_base_units(50_000),
    }
}

async fn balance(chain: &SimulatedChain, owner: Wallet) -> u128 {
    chain.token_balance(token(), owner).await.unwrap().base_units()
}

#[tokio::test]
async fn a_charge_pays_the_fee_and_the_merchant_in_one_transaction() {
    let Fixture { chain, .. } = fixture();

    let hash = chain.charge_subscription(&charge(permission())).await.unwrap();

    let mined = chain.mined_transaction(hash).await.unwrap().unwrap();
    let moves: Vec<_> = mined
        .transfers
        .iter()
        .map(|t| (t.from, t.to, t.amount.unwrap().base_units()))
        .collect();
    assert_eq!(
        moves,
        vec![
            (customer(), wallet(0x50), 50_000),
            (customer(), wallet(0x11), 9_950_000)
        ]
    );
    assert_eq!(balance(&chain, customer()).await, 90_000_000);
    let period = chain.permission_period(manager(), &permission()).await.unwrap();
    assert_eq!(period.start, T0 - 60);
    assert_eq!(period.end, T0 - 60 + 30 * DAY);
    assert_eq!(period.spent.base_units(), 10_000_000);
    assert!(!period.revoked);
}

#[tokio::test]
async fn a_second_charge_in_the_same_period_over_the_allowance_is_refused_and_moves_nothing() {
    let Fixture { chain, .. } = fixture();
    chain.charge_subscription(&charge(permission())).await.unwrap();
    let head = chain.head().await.unwrap();

    let refused = chain.charge_subscription(&charge(permission())).await;

    assert!(refused.is_err(), "{refused:?}");
    assert_eq!(chain.head().await.unwrap(), head, "no block for a refused charge");
    assert_eq!(balance(&chain, customer()).await, 90_000_000);
}

#[tokio::test]
async fn the_next_period_has_the_whole_allowance_again() {
    let Fixture { chain, clock } = fixture();
    chain.charge_subscription(&charge(permission())).await.unwrap();

    clock.advance(Duration::from_secs(30 * DAY));
    chain.charge_subscription(&charge(permission())).await.unwrap();

    assert_eq!(balance(&chain, wallet(0x11)).await, 2 * 9_950_000);
    let period = chain.permission_period(manager(), &permission()).await.unwrap();
    assert_eq!(period.start, T0 - 60 + 30 * DAY);
    assert_eq!(period.spent.base_units(), 10_000_000);
}

#[tokio::test]
async fn the_last_period_ends_with_the_permission() {
    let Fixture { chain, clock } = fixture();
    let mut short = permission();
    short.end = U48::from(T0 + 40 * DAY);
    clock.advance(Duration::from_secs(35 * DAY));

    let period = chain.permission_period(manager(), &short).await.unwrap();

    assert_eq!((period.start, period.end), (T0 - 60 + 30 * DAY, T0 + 40 * DAY));
    clock.advance(Duration::from_secs(5 * DAY));
    assert!(chain.charge_subscription(&charge(short.clone())).await.is_err());
    assert!(chain.permission_period(manager(), &short).await.is_err());
}

#[tokio::test]
async fn a_revoked_permission_charges_nothing() {
    let Fixture { chain, .. } = fixture();
    chain.charge_subscription(&charge(permission())).await.unwrap();
    chain.revoke_permission(manager(), &permission()).unwrap();

    let period = chain.permission_period(manager(), &permission()).await.unwrap();
    assert!(period.revoked);
    let mut smaller = charge(permission());
    smaller.net = TokenAmount::from_base_units(0);
    smaller.fee = TokenAmount::from_base_units(1);
    assert!(chain.charge_subscription(&smaller).await.is_err());
    assert_eq!(balance(&chain, customer()).await, 90_000_000);
}

#[tokio::test]
async fn a_permission_revoked_before_its_first_charge_is_never_approved() {
    let Fixture { chain, .. } = fixture();
    chain.revoke_permission(manager(), &permission()).unwrap();

    assert!(chain.charge_subscription(&charge(permission())).await.is_err());
    assert_eq!(balance(&chain, customer()).await, 100_000_000);
}

#[tokio::test]
async fn a_forged_or_tampered_signature_is_refused() {
    let Fixture { chain, .. } = fixture();
    let mut forged = charge(permission());
    forged.signature[10] ^= 1;
    assert!(chain.charge_subscription(&forged).await.is_err());

    let mut tampered = charge(permission());
    tampered.permission.allowance = U160::from(20_000_000_u64);
    assert!(chain.charge_subscription(&tampered).await.is_err());

    let mut other_manager = charge(permission());
    other_manager.manager = token();
    assert!(chain.charge_subscription(&other_manager).await.is_err());
    assert_eq!(balance(&chain, customer()).await, 100_000_000);
}

#[tokio::test]
async fn only_the_permissions_spender_may_charge_it() {
    let Fixture { chain, .. } = fixture();
    let mut permission = permission();
    permission.spender = wallet(0x99).address();

    assert!(chain.charge_subscription(&charge(permission)).await.is_err());
    assert_eq!(balance(&chain, customer()).await, 100_000_000);
}

#[tokio::test]
async fn a_short_token_allowance_or_balance_moves_nothing_and_spends_nothing() {
    let Fixture { chain, .. } = fixture();
    chain.approve(token(), customer(), manager(), U256::from(9_999_999_u64));
    assert!(chain.charge_subscription(&charge(permission())).await.is_err());

    chain.approve(token(), customer(), manager(), U256::from(10_000_000_u64));
    // The customer spends all but 1 unit elsewhere.
    {
        let mut state = chain.lock();
        let now = state.next_timestamp();
        state
            .transact_at(now, &[(token(), customer(), wallet(0x46), 99_999_999)])
            .unwrap();
    }
    let head = chain.head().await.unwrap();
    assert!(chain.charge_subscription(&charge(permission())).await.is_err());

    assert_eq!(chain.head().await.unwrap(), head);
    assert_eq!(balance(&chain, customer()).await, 1);
    assert_eq!(
        chain.allowance(token(), customer(), manager()),
        U256::from(10_000_000_u64)
    );
    let period = chain.permission_period(manager(), &permission()).await.unwrap();
    assert_eq!(period.spent.base_units(), 0);
}

#[tokio::test]
async fn a_limited_token_allowance_is_used_up_by_charges() {
    let Fixture { chain, .. } = fixture();
    chain.approve(token(), customer(), manager(), U256::from(15_000_000_u64));

    chain.charge_subscription(&charge(permission())).await.unwrap();

    assert_eq!(
        chain.allowance(token(), customer(), manager()),
        U256::from(5_000_000_u64)
    );
}

#[tokio::test]
async fn a_reorganisation_undoes_a_charge_and_its_spend() {
    let Fixture { chain, .. } = fixture();
    chain.approve(token(), customer(), manager(), U256::from(15_000_000_u64));
    let before = chain.snapshot();

    chain.charge_subscription(&charge(permission())).await.unwrap();
    chain.revert(before);

    assert_eq!(balance(&chain, customer()).await, 100_000_000);
    assert_eq!(
        chain.allowance(token(), customer(), manager()),
        U256::from(15_000_000_u64)
    );
    let period = chain.permission_period(manager(), &permission()).await.unwrap();
    assert_eq!(period.spent.base_units(), 0);
    chain.charge_subscription(&charge(permission())).await.unwrap();
}

#[tokio::test]
async fn nothing_is_charged_before_the_permission_starts_or_without_a_manager() {
    let Fixture { chain, .. } = fixture();
    let mut later = permission();
    later.start = U48::from(T0 + DAY);

    assert!(chain.charge_subscription(&charge(later.clone())).await.is_err());
    assert!(chain.permission_period(manager(), &later).await.is_err());
    assert!(
        chain
            .permission_period(wallet(0x3b), &permission())
            .await
            .is_err()
    );
    assert!(
        !chain
            .is_valid_contract_signature(customer(), B256::ZERO, &[])
            .await
            .unwrap()
    );
}
