//! The test-mode chain's ledger: blocks of one transaction each, token balances moved and undone, and the
//! lookup of a mined transaction (what the `Chain` methods in the parent module read and write).

use alloy_primitives::{Address, B256, keccak256};
use payments_core::{TokenAmount, Wallet};

use super::spend::Undo;
use super::{Block, State};
use crate::chain::{BlockRef, ChainError, MinedTransaction, TokenTransfer};

impl State {
    pub(super) fn next_hash(&mut self, kind: &[u8]) -> B256 {
        self.sequence += 1;
        let mut input = kind.to_vec();
        input.extend_from_slice(&self.epoch.to_be_bytes());
        input.extend_from_slice(&self.sequence.to_be_bytes());
        keccak256(input)
    }

    /// Now in Unix seconds, or the last block's time when the clock went back (block times never decrease).
    pub(super) fn next_timestamp(&self) -> u64 {
        let now = u64::try_from(self.clock.now_ms().div_euclid(1000)).unwrap_or(0);
        self.blocks.last().map_or(now, |last| now.max(last.timestamp))
    }

    pub(super) fn head(&self) -> u64 {
        (self.blocks.len() as u64).saturating_sub(1)
    }

    pub(super) fn balance(&self, token: Wallet, owner: Wallet) -> u128 {
        self.balances.get(&(token, owner)).copied().unwrap_or(0)
    }

    /// One transaction in a block of its own: applies the moves, records their logs.
    /// One transaction in which `from`, holding no key here, is given `amount` and sends it to `to`.
    pub(super) fn minted_and_sent(
        &mut self,
        token: Wallet,
        from: Wallet,
        to: Wallet,
        amount: TokenAmount,
    ) -> Result<B256, ChainError> {
        let units = amount.base_units();
        let mint = Wallet::from_address(Address::ZERO);
        self.transact(&[(token, mint, from, units), (token, from, to, units)])
    }

    pub(super) fn transact(&mut self, moves: &[(Wallet, Wallet, Wallet, u128)]) -> Result<B256, ChainError> {
        self.transact_at(self.next_timestamp(), moves)
    }

    /// [`transact`](Self::transact) in a block dated `timestamp` (what a contract read as `block.timestamp`).
    pub(super) fn transact_at(
        &mut self,
        timestamp: u64,
        moves: &[(Wallet, Wallet, Wallet, u128)],
    ) -> Result<B256, ChainError> {
        let hash = self.next_hash(b"transaction");
        let number = self.blocks.len() as u64;
        let block_hash = self.next_hash(b"block");
        let mut transfers = Vec::with_capacity(moves.len());
        for (index, (token, from, to, amount)) in moves.iter().copied().enumerate() {
            let transfer = TokenTransfer {
                token,
                from,
                to,
                amount: Some(TokenAmount::from_base_units(amount)),
                transaction_hash: hash,
                log_index: index as u64,
                block: BlockRef {
                    number,
                    hash: block_hash,
                },
            };
            if let Err(error) = self.apply(&transfer) {
                for done in transfers.iter().rev() {
                    self.undo(done);
                }
                return Err(error);
            }
            transfers.push(transfer);
        }
        self.blocks.push(Block {
            hash: block_hash,
            timestamp,
            transactions: vec![(hash, transfers)],
            journal: Vec::new(),
        });
        Ok(hash)
    }

    /// Records in the last block what its transaction changed besides balances.
    pub(super) fn journal_last_block(&mut self, journal: Vec<Undo>) {
        if let Some(block) = self.blocks.last_mut() {
            block.journal.extend(journal);
        }
    }

    #[cfg(any(test, feature = "testing"))]
    pub(super) fn push_block(&mut self, transactions: Vec<(B256, Vec<TokenTransfer>)>) {
        let hash = self.next_hash(b"block");
        let timestamp = self.next_timestamp();
        self.blocks.push(Block {
            hash,
            timestamp,
            transactions,
            journal: Vec::new(),
        });
    }

    pub(super) fn apply(&mut self, transfer: &TokenTransfer) -> Result<(), ChainError> {
        let amount = transfer.amount.map_or(0, TokenAmount::base_units);
        // Minting comes from the zero address, which has no balance to check.
        if transfer.from != Wallet::from_address(Address::ZERO) {
            let held = self.balance(transfer.token, transfer.from);
            let left = held.checked_sub(amount).ok_or_else(|| {
                ChainError::Reverted(format!("{} holds {held}, cannot send {amount}", transfer.from))
            })?;
            self.balances.insert((transfer.token, transfer.from), left);
        }
        let received = self.balance(transfer.token, transfer.to).saturating_add(amount);
        self.balances.insert((transfer.token, transfer.to), received);
        Ok(())
    }

    pub(super) fn undo(&mut self, transfer: &TokenTransfer) {
        let amount = transfer.amount.map_or(0, TokenAmount::base_units);
        let received = self.balance(transfer.token, transfer.to).saturating_sub(amount);
        self.balances.insert((transfer.token, transfer.to), received);
        if transfer.from != Wallet::from_address(Address::ZERO) {
            let held = self.balance(transfer.token, transfer.from).saturating_add(amount);
            self.balances.insert((transfer.token, transfer.from), held);
        }
    }

    pub(super) fn transaction(&self, hash: B256) -> Option<MinedTransaction> {
        self.blocks.iter().enumerate().find_map(|(number, block)| {
            block
                .transactions
                .iter()
                .find(|(tx, _)| *tx == hash)
                .map(|(_, transfers)| MinedTransaction {
                    succeeded: true,
                    block: BlockRef {
                        number: number as u64,
                        hash: block.hash,
                    },
                    transfers: transfers.clone(),
                })
        })
    }
}
