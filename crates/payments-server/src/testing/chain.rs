//! The test-mode chain of a test server, driven from tests: pay a deposit, mine confirmations, reorganise.

use std::sync::Arc;

use payments_core::{TokenAmount, Wallet};

use crate::chain::Chain;
use crate::chain::simulated::{SimulatedChain, Snapshot};
use crate::testing::TestApp;

/// A handle on the server's simulated chain (it survives [`TestApp::restart`]).
#[derive(Debug, Clone)]
pub struct TestChain {
    chain: Arc<SimulatedChain>,
    token: Wallet,
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
