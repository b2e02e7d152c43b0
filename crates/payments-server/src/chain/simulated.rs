//! The in-process test-mode chain: used when no RPC URL is configured, so the server runs with no setup and the
//! whole payment path (deposit address, detection, confirmation, settlement) works without a node. It models
//! exactly what the platform's contracts do to token balances (a deposit forwards its whole balance, a split
//! pays each recipient its share with the remainder to the first, as `Split.sol` does) and emits the same
//! `Transfer` logs, one block per transaction. Money here is not real: keys read `sk_test_` and the payment
//! page says so.

mod history;
mod ledger;
mod resume;
mod sent;
mod spend;

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};

use alloy_primitives::{Address, B256, U256};
use async_trait::async_trait;
use payments_core::{ReceiptSalt, Split, TokenAmount, Wallet, deposit_address, split_address};

use self::sent::sent_as_transfer;
use self::spend::{SpendState, Undo};
use crate::chain::spend::{PermissionChange, PermissionPeriod, SpendCharge};
use crate::chain::{Chain, ChainError, MinedTransaction, SentTransaction, TokenTransfer};
use crate::runtime::clock::Clock;

/// The wallet simulated payments come from (test mode has no buyer keys).
pub(crate) const SIMULATED_BUYER: Wallet = Wallet::from_address(alloy_primitives::address!(
    "b0b0000000000000000000000000000000000b0b"
));

/// The test-mode chain's relayer: the platform's spender of subscription permissions in test mode (no one
/// holds its key; the simulated chain takes its transactions without signatures).
pub(crate) const SIMULATED_RELAYER: Wallet = Wallet::from_address(alloy_primitives::address!(
    "5e1f000000000000000000000000000000005e1f"
));

/// A chain in memory.
#[derive(Debug)]
pub(crate) struct SimulatedChain {
    chain_id: u64,
    state: Mutex<State>,
    /// Tests lose the answer to a plan change: mined, but reported as never answered (a crash or a node
    /// gone between sending and recording).
    change_answers_lost: std::sync::atomic::AtomicBool,
}

#[derive(Debug)]
struct State {
    /// Block `n` is `blocks[n]`; block 0 is the genesis and holds nothing.
    blocks: Vec<Block>,
    balances: HashMap<(Wallet, Wallet), u128>,
    splits: HashMap<Wallet, Split>,
    contracts: HashSet<Wallet>,
    /// Token allowances and the spend permission manager's records.
    spend: SpendState,
    /// Makes hashes unique across reverts: a block mined again after a revert gets a new hash.
    sequence: u64,
    /// Random per chain instance, mixed into every hash: a development server's next start (a fresh chain in
    /// memory) must not repeat the transaction hashes its database recorded from the previous one.
    epoch: u64,
    /// Tests make the relayer's transactions fail (a node refusing them, say for gas).
    writes_fail: bool,
    /// Stamps blocks as they are mined (the app's clock, so a test's settable clock dates its blocks).
    clock: Arc<dyn Clock>,
}

#[derive(Debug, Clone)]
struct Block {
    hash: B256,
    /// Unix seconds, never before the previous block's.
    timestamp: u64,
    transactions: Vec<(B256, Vec<TokenTransfer>)>,
    /// What the block changed besides balances, to undo on a reorganisation.
    journal: Vec<Undo>,
}

/// A point to return to with [`SimulatedChain::revert`] (the number of blocks then).
#[cfg(any(test, feature = "testing"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Snapshot(usize);

impl SimulatedChain {
    /// A fresh chain with only its genesis block; `contracts` are addresses that count as deployed code
    /// (the factories and the token of the configuration); blocks are dated by `clock`.
    pub(crate) fn with_clock(chain_id: u64, contracts: &[Wallet], clock: Arc<dyn Clock>) -> SimulatedChain {
        let mut state = State {
            blocks: Vec::new(),
            balances: HashMap::new(),
            splits: HashMap::new(),
            contracts: HashSet::new(),
            spend: SpendState::default(),
            sequence: 0,
            epoch: rand::random(),
            writes_fail: false,
            clock,
        };
        let genesis = state.next_hash(b"genesis");
        let timestamp = state.next_timestamp();
        state.blocks.push(Block {
            hash: genesis,
            timestamp,
            transactions: Vec::new(),
            journal: Vec::new(),
        });
        state.contracts.extend(contracts.iter().copied());
        SimulatedChain {
            chain_id,
            state: Mutex::new(state),
            change_answers_lost: std::sync::atomic::AtomicBool::new(false),
        }
    }

    #[cfg(any(test, feature = "testing"))]
    /// Mines `count` empty blocks (confirmations for what came before).
    pub(crate) fn mine(&self, count: u64) {
        let mut state = self.lock();
        for _ in 0..count {
            state.push_block(Vec::new());
        }
    }

    #[cfg(any(test, feature = "testing"))]
    /// The current height, to [`revert`](Self::revert) to later (as anvil's `evm_snapshot`).
    pub(crate) fn snapshot(&self) -> Snapshot {
        Snapshot(self.lock().blocks.len())
    }

    #[cfg(any(test, feature = "testing"))]
    /// Drops every block mined after `snapshot` and what they did (a reorganisation, as `evm_revert`).
    pub(crate) fn revert(&self, snapshot: Snapshot) {
        let mut state = self.lock();
        while state.blocks.len() > snapshot.0.max(1) {
            if let Some(block) = state.blocks.pop() {
                for undo in block.journal.iter().rev() {
                    state.spend.undo(undo);
                }
                for (_, transfers) in block.transactions.iter().rev() {
                    for transfer in transfers.iter().rev() {
                        state.undo(transfer);
                    }
                }
            }
        }
    }

    /// Makes the relayer's writes fail (or work again), as a node refusing them would.
    #[cfg(any(test, feature = "testing"))]
    pub(crate) fn set_writes_failing(&self, failing: bool) {
        self.lock().writes_fail = failing;
    }

    /// Makes plan changes go through on chain while their answer is lost (or answered again).
    #[cfg(any(test, feature = "testing"))]
    pub(crate) fn set_change_answers_lost(&self, lost: bool) {
        self.change_answers_lost
            .store(lost, std::sync::atomic::Ordering::SeqCst);
    }

    /// The state, for one of the relayer's writes.
    fn writer(&self) -> Result<MutexGuard<'_, State>, ChainError> {
        let state = self.lock();
        if state.writes_fail {
            return Err(ChainError::Reverted(
                "the node refused the transaction (simulated)".to_owned(),
            ));
        }
        Ok(state)
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock cannot leave the model half-written (every mutation completes before
        // the guard drops), so a poisoned lock is still consistent.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[async_trait]
impl Chain for SimulatedChain {
    async fn chain_id(&self) -> Result<u64, ChainError> {
        Ok(self.chain_id)
    }

    async fn head(&self) -> Result<u64, ChainError> {
        Ok(self.lock().head())
    }

    async fn block_hash(&self, number: u64) -> Result<Option<B256>, ChainError> {
        let state = self.lock();
        Ok(usize::try_from(number)
            .ok()
            .and_then(|index| state.blocks.get(index))
            .map(|block| block.hash))
    }

    async fn transfers_to(
        &self,
        from: u64,
        to: u64,
        recipients: &[Wallet],
    ) -> Result<Vec<TokenTransfer>, ChainError> {
        let state = self.lock();
        let wanted: HashSet<&Wallet> = recipients.iter().collect();
        let end = usize::try_from(to)
            .unwrap_or(usize::MAX)
            .min(state.blocks.len().saturating_sub(1));
        let start = usize::try_from(from).unwrap_or(usize::MAX);
        if start > end {
            return Ok(Vec::new());
        }
        Ok(state.blocks[start..=end]
            .iter()
            .flat_map(|block| {
                block
                    .transactions
                    .iter()
                    .flat_map(|(_, transfers)| transfers.iter())
            })
            .filter(|transfer| wanted.contains(&transfer.to))
            .cloned()
            .collect())
    }

    async fn mined_transaction(&self, hash: B256) -> Result<Option<MinedTransaction>, ChainError> {
        Ok(self.lock().transaction(hash))
    }

    /// The simulated chain keeps no calldata: every transaction it records that moved one token is shown as
    /// the `transfer` that did it (what a buyer's payment is), others as calls without input.
    async fn sent_transaction(&self, hash: B256) -> Result<Option<SentTransaction>, ChainError> {
        Ok(self
            .lock()
            .transaction(hash)
            .map(|mined| sent_as_transfer(&mined)))
    }

    async fn token_transfers_of(
        &self,
        token: Wallet,
        account: Wallet,
        from: u64,
        to: u64,
    ) -> Result<Vec<TokenTransfer>, ChainError> {
        Ok(self.lock().transfers_of(token, account, from, to))
    }

    async fn block_timestamp(&self, number: u64) -> Result<Option<u64>, ChainError> {
        Ok(self.lock().timestamp_of(number))
    }

    async fn has_code(&self, address: Wallet) -> Result<bool, ChainError> {
        let state = self.lock();
        Ok(state.contracts.contains(&address) || state.splits.contains_key(&address))
    }

    async fn token_balance(&self, token: Wallet, owner: Wallet) -> Result<TokenAmount, ChainError> {
        Ok(TokenAmount::from_base_units(self.lock().balance(token, owner)))
    }

    async fn token_allowance(
        &self,
        token: Wallet,
        owner: Wallet,
        spender: Wallet,
    ) -> Result<U256, ChainError> {
        Ok(self.lock().allowance(token, owner, spender))
    }

    async fn split_recipients(&self, split: Wallet) -> Result<Option<Split>, ChainError> {
        Ok(self.lock().splits.get(&split).cloned())
    }

    async fn deploy_split(&self, factory: Wallet, split: &Split) -> Result<B256, ChainError> {
        let mut state = self.writer()?;
        let address = split_address(factory, split);
        state.splits.entry(address).or_insert_with(|| split.clone());
        state.transact(&[])
    }

    async fn forward_deposit(
        &self,
        factory: Wallet,
        receipt: ReceiptSalt,
        split: Wallet,
        token: Wallet,
    ) -> Result<B256, ChainError> {
        let mut state = self.writer()?;
        let deposit = deposit_address(factory, receipt, split, token);
        state.contracts.insert(deposit);
        let amount = state.balance(token, deposit);
        let moves: Vec<_> = (amount > 0)
            .then_some((token, deposit, split, amount))
            .into_iter()
            .collect();
        state.transact(&moves)
    }

    async fn distribute(&self, split: Wallet, token: Wallet) -> Result<B256, ChainError> {
        let mut state = self.writer()?;
        let Some(config) = state.splits.get(&split).cloned() else {
            return Err(ChainError::Reverted(format!("no split is deployed at {split}")));
        };
        let moves: Vec<_> = config
            .allocate(state.balance(token, split))
            .into_iter()
            .filter(|(_, part)| *part > 0)
            .map(|(recipient, part)| (token, split, recipient, part))
            .collect();
        state.transact(&moves)
    }

    async fn simulate_payment(
        &self,
        token: Wallet,
        to: Wallet,
        amount: TokenAmount,
    ) -> Result<B256, ChainError> {
        self.lock().minted_and_sent(token, SIMULATED_BUYER, to, amount)
    }

    async fn simulate_refund(
        &self,
        token: Wallet,
        from: Wallet,
        to: Wallet,
        amount: TokenAmount,
    ) -> Result<B256, ChainError> {
        self.lock().minted_and_sent(token, from, to, amount)
    }

    async fn fund_test_wallet(
        &self,
        token: Wallet,
        wallet: Wallet,
        amount: TokenAmount,
        manager: Wallet,
    ) -> Result<B256, ChainError> {
        let mut state = self.lock();
        let now = state.next_timestamp();
        let mint = Wallet::from_address(Address::ZERO);
        // Minting from the zero address checks no balance, so only a zero amount has nothing to move.
        let moves: Vec<_> = (amount.base_units() > 0)
            .then_some((token, mint, wallet, amount.base_units()))
            .into_iter()
            .collect();
        let minted = state.transact_at(now, &moves)?;
        state.approve_for_funding(token, wallet, manager);
        Ok(minted)
    }

    fn relayer(&self) -> Option<Wallet> {
        Some(SIMULATED_RELAYER)
    }

    async fn is_valid_contract_signature(
        &self,
        _account: Wallet,
        _hash: B256,
        signature: &[u8],
    ) -> Result<bool, ChainError> {
        // The test-mode chain runs no contract code: a wallet that does not exist yet cannot be deployed in
        // a simulation to ask it, so an ERC-6492 signature is refused with that reason rather than a bare no.
        if matches!(
            payments_core::CounterfactualSignature::parse(signature),
            Ok(Some(_))
        ) {
            return Err(ChainError::NotConfigured(
                "the test-mode chain runs no contract code, so an ERC-6492 signature (a smart wallet not \
                 deployed yet) cannot be verified on it; use a node (e.g. anvil) to test one"
                    .to_owned(),
            ));
        }
        // No contract accounts either, so no contract accepts anything.
        Ok(false)
    }

    async fn charge_subscription(&self, charge: &SpendCharge) -> Result<B256, ChainError> {
        self.writer()?.charge(self.chain_id, charge)
    }

    async fn change_permission(&self, change: &PermissionChange) -> Result<B256, ChainError> {
        let hash = self.writer()?.change_permission(self.chain_id, change)?;
        if self.change_answers_lost.load(std::sync::atomic::Ordering::SeqCst) {
            return Err(ChainError::Unavailable(format!(
                "the answer to {hash} was lost (simulated)"
            )));
        }
        Ok(hash)
    }

    async fn permission_period(
        &self,
        manager: Wallet,
        permission: &payments_core::SpendPermission,
    ) -> Result<PermissionPeriod, ChainError> {
        self.lock().permission_period(self.chain_id, manager, permission)
    }

    fn is_test_mode(&self) -> bool {
        true
    }
}
