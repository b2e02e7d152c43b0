//! Reads of the test-mode chain's past for the split transactions listing: transfers of one account and
//! block times.

use payments_core::Wallet;

use crate::chain::TokenTransfer;
use crate::chain::simulated::State;

impl State {
    /// Transfers of `token` from or to `account` in blocks `from..=to`, in chain order.
    pub(super) fn transfers_of(
        &self,
        token: Wallet,
        account: Wallet,
        from: u64,
        to: u64,
    ) -> Vec<TokenTransfer> {
        let last = self.blocks.len().saturating_sub(1);
        let end = usize::try_from(to).unwrap_or(usize::MAX).min(last);
        let Ok(start) = usize::try_from(from) else {
            return Vec::new();
        };
        if start > end {
            return Vec::new();
        }
        self.blocks[start..=end]
            .iter()
            .flat_map(|block| {
                block
                    .transactions
                    .iter()
                    .flat_map(|(_, transfers)| transfers.iter())
            })
            .filter(|transfer| {
                transfer.token == token && (transfer.from == account || transfer.to == account)
            })
            .cloned()
            .collect()
    }

    /// The time of block `number` in Unix seconds.
    pub(super) fn timestamp_of(&self, number: u64) -> Option<u64> {
        usize::try_from(number)
            .ok()
            .and_then(|index| self.blocks.get(index))
            .map(|block| block.timestamp)
    }
}
