//! Test-mode funding (`POST /api/test/fund`): the test-mode chain mints a customer's tokens and approves the
//! spend permission manager for them, so a test-mode subscription can be charged end to end. Nothing here
//! exists on a real chain.

use payments_core::{Cents, TokenAmount, Wallet};

use crate::services::recurring::{RecurringError, RecurringService};

/// The most one call may fund: test money, but a typo of many zeros should not make a wallet absurd.
pub(crate) const MAX_TEST_FUNDING: Cents = Cents::new(100_000_000);

/// What a funding did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TestFunding {
    pub(crate) wallet: Wallet,
    /// The amount minted.
    pub(crate) funded: TokenAmount,
    /// The wallet's token balance after it.
    pub(crate) balance: TokenAmount,
    /// The test-mode chain's transaction.
    pub(crate) transaction_hash: alloy_primitives::B256,
}

impl RecurringService {
    /// Whether this server runs the test-mode chain (the only one that can fund a wallet).
    pub(crate) fn is_test_mode(&self) -> bool {
        self.chain.is_test_mode()
    }

    /// Mints `usd` of the payment token to `wallet` on the test-mode chain and approves the manager to pull
    /// it without limit (what a customer's wallet does once before subscribing).
    ///
    /// # Errors
    /// [`RecurringError::InvalidFunding`] for an amount not above zero or above [`MAX_TEST_FUNDING`];
    /// [`RecurringError::NotConfigured`] without a spend permission manager; a chain error on a real chain.
    pub(crate) async fn fund_test_wallet(
        &self,
        wallet: Wallet,
        usd: Cents,
    ) -> Result<TestFunding, RecurringError> {
        let manager = self.terms.manager.ok_or(RecurringError::NotConfigured)?;
        if usd <= Cents::ZERO || usd > MAX_TEST_FUNDING {
            return Err(RecurringError::InvalidFunding(usd));
        }
        let funded = usd
            .to_token_amount()
            .map_err(|_| RecurringError::InvalidFunding(usd))?;
        let transaction_hash = self
            .chain
            .fund_test_wallet(self.terms.token, wallet, funded, manager)
            .await?;
        let balance = self.chain.token_balance(self.terms.token, wallet).await?;
        Ok(TestFunding {
            wallet,
            funded,
            balance,
            transaction_hash,
        })
    }
}
