//! The watcher's re-check of recorded transfers until the chain finalizes them (docs/money.md, "Finality
//! and reorganisations"). A transfer counts once it is `--confirmations` deep; a reorganisation deeper than
//! that can still remove or move it until its block is final, so every pass:
//!
//! 1. reads the head and the final block (the node's `finalized` tag, else [`FINALITY_FALLBACK_DEPTH`]
//!    below the head);
//! 2. reads the hash of each block holding a recorded, not yet final transfer (one read per block, lowest
//!    first, at most [`RECHECKS_PER_PASS`] transfers) and compares it with the recorded one;
//! 3. for a transfer whose block changed (or that was removed earlier), reads its transaction by hash:
//!    mined at least `--confirmations` deep with the same transfer in it, the transfer is recorded where it
//!    is now (counted, or counted again); mined without it, or not mined and not pending at the node once
//!    the head is again `--confirmations` past its old block, the transfer is marked removed (never
//!    counted, kept for the record); otherwise (back but not yet deep enough, pending, or the new branch
//!    still shorter) it is decided on a later pass;
//! 4. records the tip, the removals and the moves in one transaction.
//!
//! The credit step that follows recounts every funded deposit without the removed transfers: a paid receipt
//! whose payment no longer covers its total fails with `PORTAL_PAYMENT_REORGED`.
//!
//! [`FINALITY_FALLBACK_DEPTH`]: payments_core::FINALITY_FALLBACK_DEPTH

use std::collections::{BTreeMap, HashMap};

use alloy_primitives::B256;
use payments_core::{TokenAmount, finality_line};

use crate::chain::{MinedTransaction, TokenTransfer};
use crate::services::chain::watcher::{DepositWatcher, WatchError, recorded};
use crate::store::{ChainTip, Recheck, RecordedTransfer, TransferKey, UnfinalizedTransfer};

/// Transfers re-checked per pass at most (the lowest blocks first: they become final soonest).
pub(crate) const RECHECKS_PER_PASS: u32 = 200;

/// What a re-check found.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rechecked {
    pub(crate) tip: ChainTip,
    /// Transfers found removed by a reorganisation in this pass.
    pub(crate) removed: usize,
}

impl DepositWatcher {
    /// Re-checks the recorded transfers above the final block and records what changed with the tip.
    pub(super) async fn recheck(&self) -> Result<Rechecked, WatchError> {
        let head = self.chain.head().await?;
        let tip = ChainTip {
            head,
            finalized: finality_line(head, self.chain.finalized_block().await?),
        };
        let watched = self
            .records
            .unfinalized_transfers(self.chain_id, tip.finalized, RECHECKS_PER_PASS)
            .await?;
        let mut recheck = Recheck {
            tip,
            removed: Vec::new(),
            present: Vec::new(),
        };
        let confirmed = head.saturating_sub(self.confirmations);
        let mut transactions: HashMap<String, Option<MinedTransaction>> = HashMap::new();
        for candidate in self.doubtful(&watched).await? {
            let recorded_transfer = &candidate.transfer;
            let Ok(hash) = recorded_transfer.transaction_hash.parse::<B256>() else {
                continue;
            };
            let mined = match transactions.get(&recorded_transfer.transaction_hash) {
                Some(mined) => mined.clone(),
                None => {
                    let mined = self.chain.mined_transaction(hash).await?;
                    transactions.insert(recorded_transfer.transaction_hash.clone(), mined.clone());
                    mined
                }
            };
            let now = match &mined {
                // Back, but not deep enough to count yet: a later pass decides.
                Some(mined) if mined.block.number > confirmed => continue,
                Some(mined) => same_transfer(mined, recorded_transfer),
                // The new branch is not yet as deep as the old block was confirmed: too early to tell.
                None if head < recorded_transfer.block_number.saturating_add(self.confirmations) => continue,
                // A reorganisation puts its transactions back in the node's pool and most come back in the
                // next blocks: one still pending is not counted as gone yet.
                None if self.pending(hash).await? => continue,
                None => None,
            };
            let moved_log = now.is_some_and(|now| now.log_index != recorded_transfer.log_index);
            if !candidate.removed && (now.is_none() || moved_log) {
                tracing::warn!(
                    chain_id = self.chain_id,
                    transaction = %recorded_transfer.transaction_hash,
                    block = recorded_transfer.block_number,
                    to = %recorded_transfer.to,
                    "a reorganisation removed a confirmed transfer to a deposit address; it no longer counts"
                );
                recheck.removed.push(TransferKey {
                    transaction_hash: recorded_transfer.transaction_hash.clone(),
                    log_index: recorded_transfer.log_index,
                });
            }
            recheck.present.extend(now.map(recorded));
        }
        let removed = recheck.removed.len();
        self.records
            .record_recheck(self.chain_id, &recheck, self.clock.now_ms())
            .await?;
        Ok(Rechecked { tip, removed })
    }

    /// The watched transfers that may have moved: those removed earlier (they may be back) and those whose
    /// block's hash is no longer the recorded one (one block read per distinct block).
    async fn doubtful<'a>(
        &self,
        watched: &'a [UnfinalizedTransfer],
    ) -> Result<Vec<&'a UnfinalizedTransfer>, WatchError> {
        let mut hashes: BTreeMap<u64, Option<String>> = BTreeMap::new();
        let mut doubtful = Vec::new();
        for transfer in watched {
            let number = transfer.transfer.block_number;
            if !transfer.removed && !hashes.contains_key(&number) {
                let hash = self.chain.block_hash(number).await?;
                hashes.insert(number, hash.map(|hash| hash.to_string()));
            }
            let unchanged =
                hashes.get(&number).and_then(Option::as_ref) == Some(&transfer.transfer.block_hash);
            if transfer.removed || !unchanged {
                doubtful.push(transfer);
            }
        }
        Ok(doubtful)
    }

    /// Whether the node holds transaction `hash` in its pool, not mined.
    async fn pending(&self, hash: B256) -> Result<bool, WatchError> {
        let sent = self.chain.sent_transaction(hash).await?;
        Ok(sent.is_some_and(|sent| !sent.mined))
    }
}

/// The transfer of `mined` that `recorded` is: the same log index if it still matches, else the first
/// transfer of the same token, sender, recipient and amount (a reorganisation may change log indexes).
fn same_transfer<'a>(mined: &'a MinedTransaction, recorded: &RecordedTransfer) -> Option<&'a TokenTransfer> {
    let same = |transfer: &&TokenTransfer| {
        transfer.token == recorded.token
            && transfer.from == recorded.from
            && transfer.to == recorded.to
            && transfer.amount.map(TokenAmount::base_units) == recorded.amount
    };
    if !mined.succeeded {
        return None;
    }
    let transfers = || mined.transfers.iter().filter(same);
    transfers()
        .find(|transfer| transfer.log_index == recorded.log_index)
        .or_else(|| transfers().next())
}
