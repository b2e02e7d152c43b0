//! Subscription charges through the spend permission manager, one scenario run on every chain: the
//! test-mode chain here, anvil with the real contract in `spend_anvil.rs`. A customer signs a 10-a-month
//! permission and approves the manager on the token; the relayer charges 9.95 to the merchant and 0.05 to
//! the platform in one transaction; a second charge in the period, a forged signature and a revoked
//! permission move nothing; a period later the whole allowance is there again.

use std::time::Duration;

use alloy_primitives::aliases::{U48, U160};
use alloy_primitives::{Bytes, U256};
use payments_core::{SpendPermission, Wallet};
use payments_server::Clock;
use payments_server::testing::{TestApp, TestCharge, TestSpend, sign_permission, spawn_app, wallet_of_key};

pub(crate) const DAY: u64 = 86_400;
pub(crate) const MONTH: u64 = 30 * DAY;
/// 10 (6 decimals) per period.
pub(crate) const ALLOWANCE: u128 = 10_000_000;
pub(crate) const FEE: u128 = 50_000;
pub(crate) const NET: u128 = 9_950_000;
pub(crate) const MERCHANT: &str = "0x00000000000000000000000000000000000a11ce";
pub(crate) const PLATFORM: &str = "0x0000000000000000000000000000000000fee000";

/// What a test does as the customer and as time, on one chain.
pub(crate) trait SpendWorld {
    /// The server's chain as the relayer.
    fn spend(&self) -> TestSpend;
    /// The customer's private key (an EOA).
    fn customer_key(&self) -> [u8; 32];
    /// The chain's time now (Unix seconds).
    async fn now(&self) -> u64;
    /// Gives `owner` `units` of the payment token.
    async fn fund(&self, owner: Wallet, units: u128);
    /// `owner` approves the manager on the token for `units`.
    async fn approve_manager(&self, owner: Wallet, units: u128);
    /// Moves chain time forward.
    async fn advance(&self, secs: u64);
    /// The permission's account revokes it.
    async fn revoke(&self, permission: &SpendPermission);
}

/// A permission of `account` for the relayer: [`ALLOWANCE`] a month for a year, from a minute ago.
pub(crate) fn monthly(spend: &TestSpend, account: Wallet, now: u64, salt: u64) -> SpendPermission {
    SpendPermission {
        account: account.address(),
        spender: spend.relayer().address(),
        token: spend.token().address(),
        allowance: U160::from(ALLOWANCE),
        period: U48::from(MONTH),
        start: U48::from(now - 60),
        end: U48::from(now + 365 * DAY),
        salt: U256::from(salt),
        extra_data: Bytes::new(),
    }
}

/// The plan price split as the server would: `net` to [`MERCHANT`], `fee` to [`PLATFORM`].
pub(crate) fn charge_of(
    permission: &SpendPermission,
    signature: Vec<u8>,
    fee: u128,
    net: u128,
) -> TestCharge {
    TestCharge {
        permission: permission.clone(),
        signature,
        merchant: MERCHANT.parse().unwrap(),
        net,
        fee_recipient: PLATFORM.parse().unwrap(),
        fee,
    }
}

/// The whole scenario; returns every refusal's text (callers check what it must not contain).
pub(crate) async fn charges_stay_within_the_signed_allowance(world: &impl SpendWorld) -> Vec<String> {
    let spend = world.spend();
    let key = world.customer_key();
    let customer = wallet_of_key(key);
    let (merchant, platform) = (MERCHANT.parse().unwrap(), PLATFORM.parse().unwrap());
    world.fund(customer, 100_000_000).await;
    world.approve_manager(customer, 1_000_000_000).await;
    let permission = monthly(&spend, customer, world.now().await, 1);
    let signature = sign_permission(key, &permission, &spend.domain());
    let mut refusals = Vec::new();

    // The first charge approves the permission with the signature and pays both parts.
    spend
        .charge(&charge_of(&permission, signature.clone(), FEE, NET))
        .await
        .unwrap();
    assert_eq!(spend.balance(merchant).await, NET);
    assert_eq!(spend.balance(platform).await, FEE);
    assert_eq!(spend.balance(customer).await, 90_000_000);
    let period = spend.period(&permission).await.unwrap();
    assert_eq!(period.start, permission.start_secs());
    assert_eq!(period.end, permission.start_secs() + MONTH);
    assert_eq!(period.spent, ALLOWANCE);
    assert!(!period.revoked);

    // One unit more in the same period is over the allowance.
    refusals.push(
        spend
            .charge(&charge_of(&permission, signature.clone(), 1, 0))
            .await
            .unwrap_err(),
    );
    // A permission signed by someone else (here: the merchant's key, for the customer's account).
    let other = monthly(&spend, customer, world.now().await, 2);
    let forged = sign_permission([0x77; 32], &other, &spend.domain());
    refusals.push(
        spend
            .charge(&charge_of(&other, forged, FEE, NET))
            .await
            .unwrap_err(),
    );
    assert_eq!(spend.balance(customer).await, 90_000_000);
    assert_eq!(spend.balance(merchant).await, NET);
    assert_eq!(spend.period(&permission).await.unwrap().spent, ALLOWANCE);

    // A period later the whole allowance is available again.
    world.advance(MONTH).await;
    spend
        .charge(&charge_of(&permission, signature.clone(), FEE, NET))
        .await
        .unwrap();
    assert_eq!(spend.balance(merchant).await, 2 * NET);
    assert_eq!(spend.balance(platform).await, 2 * FEE);
    let period = spend.period(&permission).await.unwrap();
    assert_eq!(period.start, permission.start_secs() + MONTH);
    assert_eq!(period.spent, ALLOWANCE);

    // Revoked: nothing more, in this period or the next.
    world.revoke(&permission).await;
    assert!(spend.period(&permission).await.unwrap().revoked);
    world.advance(MONTH).await;
    refusals.push(
        spend
            .charge(&charge_of(&permission, signature, FEE, NET))
            .await
            .unwrap_err(),
    );
    assert_eq!(spend.balance(customer).await, 80_000_000);
    assert_eq!(spend.balance(merchant).await, 2 * NET);
    refusals
}

/// The test-mode chain of a test server.
pub(crate) struct TestModeWorld {
    pub(crate) app: TestApp,
}

impl SpendWorld for TestModeWorld {
    fn spend(&self) -> TestSpend {
        self.app.spend()
    }

    fn customer_key(&self) -> [u8; 32] {
        [0x42; 32]
    }

    async fn now(&self) -> u64 {
        u64::try_from(self.app.clock.now_ms() / 1000).unwrap()
    }

    async fn fund(&self, owner: Wallet, units: u128) {
        self.app.chain().mint(owner, units);
    }

    async fn approve_manager(&self, owner: Wallet, units: u128) {
        let chain = self.app.chain();
        chain.approve(owner, chain.manager(), units);
        assert_eq!(chain.allowance(owner, chain.manager()), units);
    }

    async fn advance(&self, secs: u64) {
        self.app.clock.advance(Duration::from_secs(secs));
    }

    async fn revoke(&self, permission: &SpendPermission) {
        self.app.chain().revoke_permission(permission);
    }
}

#[tokio::test]
async fn the_test_mode_manager_charges_within_the_signed_allowance_per_period() {
    let world = TestModeWorld {
        app: spawn_app().await,
    };

    let refusals = charges_stay_within_the_signed_allowance(&world).await;

    assert_eq!(refusals.len(), 3);
}

#[tokio::test]
async fn the_test_mode_chain_has_no_contract_accounts() {
    let app = spawn_app().await;
    let spend = app.spend();
    let customer = wallet_of_key([0x42; 32]);

    let valid = spend
        .is_valid_contract_signature(customer, alloy_primitives::B256::ZERO, &[0; 65])
        .await;

    assert_eq!(valid, Ok(false));
}
