//! The test-mode chain of a test server, driven from tests: pay a deposit, mine confirmations, reorganise.

use std::sync::Arc;

use alloy_primitives::U256;
use payments_core::{SpendPermission, TokenAmount, Wallet};

use crate::chain::Chain;
use crate::chain::simulated::{SimulatedChain, Snapshot};
use crate::testing::TestApp;

/// A handle on the server's simulated chain (it survives [`TestApp::restart`]).
#[derive(Debug, Clone)]
pub struct TestChain {
    chain: Arc<SimulatedChain>,
    token: Wallet,
    manager: Option<Wallet>,
}

/// A point to return to with [`TestChain::revert`].
#[derive(Debug, Clone, Copy)]
pub struct TestSnapshot(Snapshot);

impl TestApp {
    /// The server's test-mode chain. Panics when the server runs a real one.
    pub fn chain(&self) -> TestChain {
        let chain = self
            .app
            .simulated_chain()
            .unwrap_or_else(|| panic!("this test server does not run the test-mode chain"));
        TestChain {
            chain,
            token: self.app.config().token_address,
            manager: self
                .app
                .config()
                .effective_chain_contracts()
                .and_then(|contracts| contracts.spend_permission_manager),
        }
    }
}

impl TestChain {
    /// A buyer pays `units` (base units) of the payment token to `to`; returns the transaction hash.
    pub async fn pay(&self, to: Wallet, units: u128) -> String {
        self.chain
            .simulate_payment(self.token, to, TokenAmount::from_base_units(units))
            .await
            .unwrap_or_else(|error| panic!("paying {to}: {error}"))
            .to_string()
    }

    /// The payment token balance of `owner`, in base units.
    pub async fn balance(&self, owner: Wallet) -> u128 {
        self.chain
            .token_balance(self.token, owner)
            .await
            .unwrap_or_else(|error| panic!("reading a balance: {error}"))
            .base_units()
    }

    /// Makes the relayer's transactions fail (or work again).
    pub fn fail_relayer_transactions(&self, failing: bool) {
        self.chain.set_writes_failing(failing);
    }

    /// Makes plan changes happen on chain while the server never hears back (as if it crashed after
    /// sending), or answered again.
    pub fn lose_change_answers(&self, lost: bool) {
        self.chain.set_change_answers_lost(lost);
    }

    /// Mines `count` empty blocks.
    pub fn mine(&self, count: u64) {
        self.chain.mine(count);
    }

    /// The chain as it is now.
    pub fn snapshot(&self) -> TestSnapshot {
        TestSnapshot(self.chain.snapshot())
    }

    /// Drops every block since `snapshot` (a reorganisation).
    pub fn revert(&self, snapshot: TestSnapshot) {
        self.chain.revert(snapshot.0);
    }

    /// Mints `units` base units of the payment token to `to` (as the test token's public `mint`).
    pub fn mint(&self, to: Wallet, units: u128) {
        self.chain.mint(self.token, to, units);
    }

    /// The spend permission manager of the test-mode chain. Panics when the configuration has none.
    pub fn manager(&self) -> Wallet {
        self.manager
            .unwrap_or_else(|| panic!("this test server has no spend permission manager"))
    }

    /// `owner` approves `spender` (usually [`manager`](Self::manager)) for `units` of the payment token, as
    /// `token.approve(spender, units)` sent from `owner`'s wallet; `u128::MAX` approves without limit (the
    /// token's `2^256 - 1`).
    pub fn approve(&self, owner: Wallet, spender: Wallet, units: u128) {
        let amount = if units == u128::MAX {
            U256::MAX
        } else {
            U256::from(units)
        };
        self.chain.approve(self.token, owner, spender, amount);
    }

    /// `token.allowance(owner, spender)` of the payment token (saturating at `u128::MAX`).
    pub fn allowance(&self, owner: Wallet, spender: Wallet) -> u128 {
        u128::try_from(self.chain.allowance(self.token, owner, spender)).unwrap_or(u128::MAX)
    }

    /// The permission's account revokes it at the manager, as `manager.revoke(permission)` from its wallet.
    pub fn revoke_permission(&self, permission: &SpendPermission) {
        self.chain
            .revoke_permission(self.manager(), permission)
            .unwrap_or_else(|error| panic!("revoking a permission: {error}"));
    }
}

impl TestChain {
    /// A buyer pays `units` of another `token` (not the payment token) to `to`: recorded, never counted.
    pub async fn pay_in(&self, token: Wallet, to: Wallet, units: u128) -> String {
        self.chain
            .simulate_payment(token, to, TokenAmount::from_base_units(units))
            .await
            .unwrap_or_else(|error| panic!("paying {to} in {token}: {error}"))
            .to_string()
    }
}
