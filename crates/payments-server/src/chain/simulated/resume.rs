//! A development server's restart: the test-mode chain is in memory, so each start makes a new one while the
//! database keeps the deposit watcher's cursor from the previous one. The new chain continues at that height.

use alloy_primitives::B256;

use crate::chain::simulated::{Block, SimulatedChain};

impl SimulatedChain {
    /// Continues the numbering of a previous instance of this chain whose blocks the deposit watcher scanned up
    /// to `next_block - 1` (block hash `last_block_hash`): a fresh chain is extended with empty blocks to that
    /// height, the last one carrying the hash the watcher saw. A restarted development server thus neither
    /// looks reorganised to the watcher nor hides its next payments below the watcher's cursor. A chain
    /// already at that height (a test server restarted on the same chain) is left as it is.
    pub(crate) fn resume_after(&self, next_block: u64, last_block_hash: Option<B256>) {
        let mut state = self.lock();
        let Some(last) = next_block.checked_sub(1) else {
            return;
        };
        // Past that height, or at it with transactions of its own: the chain the watcher saw, not a new one.
        let fresh_at_last = state.head() == last
            && state
                .blocks
                .last()
                .is_some_and(|block| block.transactions.is_empty());
        if state.head() > last || (state.head() == last && !fresh_at_last) {
            return;
        }
        while state.head() < last {
            let hash = state.next_hash(b"block");
            let timestamp = state.next_timestamp();
            state.blocks.push(Block {
                hash,
                timestamp,
                transactions: Vec::new(),
                journal: Vec::new(),
            });
        }
        if let (Some(hash), Some(block)) = (last_block_hash, state.blocks.last_mut()) {
            block.hash = hash;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::chain::Chain;
    use crate::runtime::clock::ManualClock;

    fn fresh_chain() -> SimulatedChain {
        SimulatedChain::with_clock(31337, &[], Arc::new(ManualClock::new(1_700_000_000_000)))
    }

    #[tokio::test]
    async fn a_fresh_chain_continues_at_the_watchers_cursor_with_the_hash_it_saw() {
        let chain = fresh_chain();
        let seen = B256::repeat_byte(7);

        chain.resume_after(10, Some(seen));

        assert_eq!(chain.head().await.unwrap(), 9);
        assert_eq!(chain.block_hash(9).await.unwrap(), Some(seen));
    }

    #[tokio::test]
    async fn a_cursor_at_the_genesis_takes_the_hash_the_watcher_saw() {
        let chain = fresh_chain();
        let seen = B256::repeat_byte(9);

        chain.resume_after(1, Some(seen));

        assert_eq!(chain.head().await.unwrap(), 0);
        assert_eq!(chain.block_hash(0).await.unwrap(), Some(seen));
    }

    #[tokio::test]
    async fn a_chain_already_past_the_cursor_is_left_as_it_is() {
        let chain = fresh_chain();
        chain.mine(5);
        let before = chain.block_hash(3).await.unwrap();

        chain.resume_after(4, Some(B256::repeat_byte(1)));

        assert_eq!(chain.head().await.unwrap(), 5);
        assert_eq!(chain.block_hash(3).await.unwrap(), before);
    }

    #[tokio::test]
    async fn two_fresh_chains_never_share_a_transaction_hash() {
        let token = payments_core::Wallet::from_address(alloy_primitives::Address::repeat_byte(1));
        let to = payments_core::Wallet::from_address(alloy_primitives::Address::repeat_byte(2));
        let amount = payments_core::TokenAmount::from_base_units(5);

        let first = fresh_chain().simulate_payment(token, to, amount).await.unwrap();
        let second = fresh_chain().simulate_payment(token, to, amount).await.unwrap();

        assert_ne!(first, second);
    }
}
