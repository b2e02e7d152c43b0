//! The chain as the source of truth for money: one [`Chain`] trait over an EVM node (JSON-RPC through alloy,
//! [`rpc::RpcChain`]) or the in-process test-mode chain ([`simulated::SimulatedChain`]), which the server uses
//! when no RPC URL is configured. Both pass the same chain contract tests (`chain::contract_tests`).
//!
//! Reads (blocks, Transfer logs, balances, code) serve the deposit watcher, `checkout_success` verification and
//! the reserve routes; writes (deploy a split, forward a deposit, distribute a split) are the relayer's, and
//! each returns only once its transaction is mined, so a caller never acts on a transaction that may not exist.

pub(crate) mod bindings;
pub(crate) mod bootstrap;
pub(crate) mod rpc;
pub(crate) mod simulated;
pub(crate) mod spend;

use std::fmt;

use alloy_primitives::B256;
use async_trait::async_trait;
use payments_core::{ReceiptSalt, Split, TokenAmount, Wallet};
use thiserror::Error;

use self::spend::{BatchChargeOutcome, PermissionChange, PermissionPeriod, SpendCharge};

/// A block by number and hash (the hash tells a reorganised block from the one the watcher saw).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BlockRef {
    pub(crate) number: u64,
    pub(crate) hash: B256,
}

/// One ERC-20 `Transfer` log, of any token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TokenTransfer {
    /// The contract that emitted it (the configured token, or another one the buyer used by mistake).
    pub(crate) token: Wallet,
    pub(crate) from: Wallet,
    pub(crate) to: Wallet,
    /// Base units; `None` when the value does not fit in 128 bits (only a fake token sends that).
    pub(crate) amount: Option<TokenAmount>,
    pub(crate) transaction_hash: B256,
    pub(crate) log_index: u64,
    pub(crate) block: BlockRef,
}

/// A mined transaction as far as payments care: did it succeed, in which block, which transfers it made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MinedTransaction {
    pub(crate) succeeded: bool,
    pub(crate) block: BlockRef,
    pub(crate) transfers: Vec<TokenTransfer>,
}

/// A transaction as the node knows it, pending or mined: who signed it, which contract it calls and with what.
/// The payment page verifies a buyer's posted hash against this before recording `checkout_success`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SentTransaction {
    pub(crate) from: Wallet,
    /// `None` for a contract creation.
    pub(crate) to: Option<Wallet>,
    pub(crate) input: Vec<u8>,
    /// Whether it is in a block yet.
    pub(crate) mined: bool,
}

/// Why a chain call failed.
#[derive(Debug, Error)]
pub enum ChainError {
    /// The node could not be reached or answered garbage: retry later.
    #[error("chain unavailable: {0}")]
    Unavailable(String),
    /// A transaction was mined but reverted, or the node refused it: retrying the same call will not help
    /// until something changes on chain.
    #[error("transaction failed: {0}")]
    Reverted(String),
    /// The call needs something this chain does not have (a relayer key, a deployed factory, test mode).
    #[error("{0}")]
    NotConfigured(String),
}

/// Access to the chain the platform takes payments on.
#[async_trait]
pub(crate) trait Chain: Send + Sync + fmt::Debug {
    /// The chain id the node reports.
    async fn chain_id(&self) -> Result<u64, ChainError>;

    /// The latest block number.
    async fn head(&self) -> Result<u64, ChainError>;

    /// The hash of block `number`, `None` past the head.
    async fn block_hash(&self, number: u64) -> Result<Option<B256>, ChainError>;

    /// The number of the node's `finalized` block, `None` when the node has no such tag (the watcher then
    /// counts a fixed depth as final: `payments_core::finality_line`). The test-mode chain has none.
    async fn finalized_block(&self) -> Result<Option<u64>, ChainError> {
        Ok(None)
    }

    /// Every `Transfer` log of any token to one of `recipients` in blocks `from..=to`.
    async fn transfers_to(
        &self,
        from: u64,
        to: u64,
        recipients: &[Wallet],
    ) -> Result<Vec<TokenTransfer>, ChainError>;

    /// Every `Transfer` log of `token` sent from or to `account` in blocks `from..=to`, in chain order (block,
    /// then log index); a transfer from `account` to itself appears once. Callers bound the range: a node
    /// answers a wide range slowly or not at all.
    async fn token_transfers_of(
        &self,
        token: Wallet,
        account: Wallet,
        from: u64,
        to: u64,
    ) -> Result<Vec<TokenTransfer>, ChainError>;

    /// The time of block `number` in Unix seconds, `None` past the head.
    async fn block_timestamp(&self, number: u64) -> Result<Option<u64>, ChainError>;

    /// A transaction by hash, `None` when it is not mined (unknown or still pending).
    async fn mined_transaction(&self, hash: B256) -> Result<Option<MinedTransaction>, ChainError>;

    /// A transaction by hash whether pending or mined, `None` when the node does not know it.
    async fn sent_transaction(&self, hash: B256) -> Result<Option<SentTransaction>, ChainError>;

    /// Whether `address` holds contract code.
    async fn has_code(&self, address: Wallet) -> Result<bool, ChainError>;

    /// `token.balanceOf(owner)`.
    async fn token_balance(&self, token: Wallet, owner: Wallet) -> Result<TokenAmount, ChainError>;

    /// `token.allowance(owner, spender)`: how much `spender` may still pull from `owner` with `transferFrom`.
    async fn token_allowance(
        &self,
        token: Wallet,
        owner: Wallet,
        spender: Wallet,
    ) -> Result<alloy_primitives::U256, ChainError>;

    /// The recipients and shares of the `Split` at `split`, `None` when no genuine split lives there.
    async fn split_recipients(&self, split: Wallet) -> Result<Option<Split>, ChainError>;

    /// The relayer deploys `split` through `factory` (a no-op when it exists); returns the mined transaction.
    async fn deploy_split(&self, factory: Wallet, split: &Split) -> Result<B256, ChainError>;

    /// The relayer deploys the receipt's deposit (when needed) and forwards its whole balance to `split`.
    async fn forward_deposit(
        &self,
        factory: Wallet,
        receipt: ReceiptSalt,
        split: Wallet,
        token: Wallet,
    ) -> Result<B256, ChainError>;

    /// The relayer calls `split.distribute(token)`, paying every recipient its share.
    async fn distribute(&self, split: Wallet, token: Wallet) -> Result<B256, ChainError>;

    /// Test mode only: a buyer pays `amount` of `token` to `to` (a transfer through the same detection path as
    /// a real one). Other chains answer [`ChainError::NotConfigured`].
    async fn simulate_payment(
        &self,
        token: Wallet,
        to: Wallet,
        amount: TokenAmount,
    ) -> Result<B256, ChainError>;

    /// Test mode only: the merchant `from` sends `amount` of `token` to `to` (a refund the test-mode chain sends
    /// for the merchant, who holds no key there: the amount is minted to `from` first, in the same
    /// transaction). Other chains answer [`ChainError::NotConfigured`]: a live merchant sends its own refund.
    async fn simulate_refund(
        &self,
        _token: Wallet,
        _from: Wallet,
        _to: Wallet,
        _amount: TokenAmount,
    ) -> Result<B256, ChainError> {
        Err(ChainError::NotConfigured(
            "only the test-mode chain can send a refund for the merchant (simulate); on a live chain send \
             the refund from the merchant's wallet and give its txHash"
                .to_owned(),
        ))
    }

    /// Test mode only: gives `wallet` `amount` of `token` (the test token's mint) and, as the customer's own
    /// wallet would, approves `manager` to pull the token without limit, so the customer's subscriptions can
    /// be charged. Other chains answer [`ChainError::NotConfigured`]: real money is never made.
    async fn fund_test_wallet(
        &self,
        _token: Wallet,
        _wallet: Wallet,
        _amount: TokenAmount,
        _manager: Wallet,
    ) -> Result<B256, ChainError> {
        Err(ChainError::NotConfigured(
            "only the test-mode chain can fund a wallet".to_owned(),
        ))
    }

    /// The address the relayer sends from: the platform's spender of subscription permissions. `None` when
    /// no relayer key is configured.
    fn relayer(&self) -> Option<Wallet>;

    /// ERC-1271: whether the contract `account` accepts `signature` over `hash` (`isValidSignature` answers
    /// the magic value). An ERC-6492-wrapped signature is verified for an account that has no code yet (its
    /// factory call, then ERC-1271, simulated without changing anything) and unwrapped for a deployed one.
    /// `false` for an account without code (and no wrapper) or a contract that refuses or reverts.
    /// [`ChainError::NotConfigured`] when this chain cannot run contract code to tell (the test-mode chain).
    async fn is_valid_contract_signature(
        &self,
        account: Wallet,
        hash: B256,
        signature: &[u8],
    ) -> Result<bool, ChainError>;

    /// The relayer charges a subscription period in one transaction (see [`SpendCharge`]); returns the mined
    /// transaction. [`ChainError::Reverted`] when the manager refuses (allowance or balance short, revoked or
    /// expired permission, bad signature): nothing moved.
    async fn charge_subscription(&self, charge: &SpendCharge) -> Result<B256, ChainError>;

    /// The relayer charges many subscription periods (all of one manager and fee recipient, one run's), one
    /// outcome per charge in order: one customer's refusal never undoes another's charge. A node sends them
    /// as one `chargeBatch` transaction; this default (the test-mode chain) charges them one by one.
    ///
    /// # Errors
    /// [`ChainError::Reverted`] when the batch as a whole was refused before anything moved (the caller may
    /// split it); [`ChainError::Unavailable`] is reported per charge as [`BatchChargeOutcome::Unknown`].
    async fn charge_batch(&self, charges: &[SpendCharge]) -> Result<Vec<BatchChargeOutcome>, ChainError> {
        let mut outcomes = Vec::with_capacity(charges.len());
        for charge in charges {
            outcomes.push(match self.charge_subscription(charge).await {
                Ok(tx_hash) => BatchChargeOutcome::Charged { tx_hash },
                Err(ChainError::Reverted(reason) | ChainError::NotConfigured(reason)) => {
                    BatchChargeOutcome::Failed { reason }
                }
                Err(ChainError::Unavailable(reason)) => BatchChargeOutcome::Unknown { reason },
            });
        }
        Ok(outcomes)
    }

    /// The relayer replaces a subscription's permission in one transaction (see [`PermissionChange`]);
    /// returns the mined transaction. [`ChainError::Reverted`] when the manager refuses (a bad signature,
    /// the customer's balance or token allowance short of the prorated charge): nothing changed.
    async fn change_permission(&self, change: &PermissionChange) -> Result<B256, ChainError>;

    /// The manager's current period of `permission` (see [`PermissionPeriod`]).
    async fn permission_period(
        &self,
        manager: Wallet,
        permission: &payments_core::SpendPermission,
    ) -> Result<PermissionPeriod, ChainError>;

    /// Whether the relayer has transactions the node accepted but has not mined (its `pending` nonce is
    /// ahead of its `latest` one): a charge a crashed run sent may still be among them, so its outcome cannot
    /// be read from the chain yet. Always `false` on a chain without a mempool (the test-mode one).
    async fn relayer_has_unmined(&self) -> Result<bool, ChainError> {
        Ok(false)
    }

    /// Whether this is the in-process test-mode chain (keys read `sk_test_`, the payment page says so).
    fn is_test_mode(&self) -> bool;
}
