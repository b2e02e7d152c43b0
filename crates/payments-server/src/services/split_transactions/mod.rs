//! `GET /api/split/transactions`: a merchant's split's inflows and payouts read from the chain, newest first,
//! a page at a time (docs/reserve.md).
//!
//! Every page is bounded: at most [`MAX_SCAN_BLOCKS`] blocks read, in log queries of [`CHUNK_BLOCKS`], and
//! at most `limit` records. The scan walks back from the newest confirmed block (the cursor's block on later
//! pages) and stops at the scan floor: the merchant's first recorded deposit (nothing the platform forwarded
//! is older), or the last [`RECENT_BLOCKS`] blocks when that is further back. A page that ran out of blocks
//! before filling up still returns a cursor; the end of the listing is a page without one.

mod records;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use payments_core::{Split, Wallet};
use thiserror::Error;

use crate::chain::{Chain, ChainError};
use crate::domain::receipt::ReceiptId;
use crate::domain::split_transactions::{LogPosition, SplitTransactionsQuery};
use crate::store::{ReserveRepository, ShopRepository, StoreError};
use records::{FlowRecord, View, flow_records};

/// Blocks per log query (many hosted nodes refuse wider `eth_getLogs` ranges).
pub(crate) const CHUNK_BLOCKS: u64 = 2_000;
/// Blocks one page reads at most (10 log queries of each direction).
pub(crate) const MAX_SCAN_BLOCKS: u64 = 20_000;
/// The scan always reaches this far back from the newest confirmed block, deposits or not.
pub(crate) const RECENT_BLOCKS: u64 = 20_000;

#[derive(Debug, Error)]
pub(crate) enum SplitTransactionsError {
    #[error("address {0} is neither the merchant's split nor a recipient of it")]
    NotMerchantsAddress(Wallet),
    #[error(transparent)]
    Chain(#[from] ChainError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// One record as listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SplitTransaction {
    pub(crate) record: FlowRecord,
    /// The receipt whose deposit this inflow forwarded, when it is one.
    pub(crate) receipt_id: Option<ReceiptId>,
    /// The block's time, Unix seconds.
    pub(crate) timestamp_secs: u64,
}

/// One page: records newest first, and where the next page starts (`None`: nothing older to read).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SplitTransactionsPage {
    pub(crate) transactions: Vec<SplitTransaction>,
    pub(crate) next: Option<LogPosition>,
}

/// Reads splits' histories from the chain.
#[derive(Debug, Clone)]
pub(crate) struct SplitTransactionsService {
    pub(crate) chain: Arc<dyn Chain>,
    pub(crate) shops: Arc<dyn ShopRepository>,
    pub(crate) reserve: Arc<dyn ReserveRepository>,
    pub(crate) chain_id: u64,
    pub(crate) token: Wallet,
    pub(crate) confirmations: u64,
    pub(crate) platform_recipient: Option<Wallet>,
}

impl SplitTransactionsService {
    pub(crate) async fn list(
        &self,
        merchant: Wallet,
        query: SplitTransactionsQuery,
    ) -> Result<SplitTransactionsPage, SplitTransactionsError> {
        let Some((split, recipients, view)) = self.resolve(merchant, query.address).await? else {
            return Ok(SplitTransactionsPage {
                transactions: Vec::new(),
                next: None,
            });
        };
        let Some(confirmed) = self.chain.head().await?.checked_sub(self.confirmations) else {
            return Ok(SplitTransactionsPage {
                transactions: Vec::new(),
                next: None,
            });
        };
        let top = LogPosition::block_start(confirmed.saturating_add(1));
        let before = query.before.map_or(top, |cursor| cursor.min(top));
        let first_deposit = self.reserve.first_deposit_block(merchant, self.chain_id).await?;
        let floor = first_deposit
            .unwrap_or(u64::MAX)
            .min(confirmed.saturating_sub(RECENT_BLOCKS - 1));
        let scan = Scan {
            split,
            recipients: &recipients,
            view,
            floor,
            limit: query.limit,
        };
        let (records, next) = self.scan(&scan, before).await?;
        let transactions = self.complete(merchant, records).await?;
        Ok(SplitTransactionsPage { transactions, next })
    }

    /// The split (and view) an `address` names for this merchant; `None` when it has no split at all.
    async fn resolve(
        &self,
        merchant: Wallet,
        address: Option<Wallet>,
    ) -> Result<Option<(Wallet, Split, View)>, SplitTransactionsError> {
        let current = self.shops.fetch_split(merchant).await?;
        let Some(address) = address else {
            return Ok(current.map(|stored| (stored.address, stored.split, View::Split)));
        };
        if let Some(stored) = current {
            if stored.address == address {
                return Ok(Some((stored.address, stored.split, View::Split)));
            }
            if stored.split.share_of(address).is_some() {
                return Ok(Some((stored.address, stored.split, View::Recipient(address))));
            }
        }
        let archived = self.shops.list_split_history(merchant).await?;
        archived
            .into_iter()
            .find(|archived| archived.split.address == address)
            .map(|archived| Some((archived.split.address, archived.split.split, View::Split)))
            .ok_or(SplitTransactionsError::NotMerchantsAddress(address))
    }

    /// Walks back from `before` chunk by chunk; stops at the floor, the block budget or a full page.
    async fn scan(
        &self,
        scan: &Scan<'_>,
        mut before: LogPosition,
    ) -> Result<(Vec<FlowRecord>, Option<LogPosition>), ChainError> {
        let mut page: Vec<FlowRecord> = Vec::new();
        let mut scanned = 0;
        loop {
            let highest = if before.log_index == 0 {
                match before.block.checked_sub(1) {
                    Some(block) => block,
                    None => return Ok((page, None)),
                }
            } else {
                before.block
            };
            if highest < scan.floor {
                return Ok((page, None));
            }
            if scanned >= MAX_SCAN_BLOCKS {
                return Ok((page, Some(before)));
            }
            let lowest = scan.floor.max(highest.saturating_sub(CHUNK_BLOCKS - 1));
            let mut transfers = self
                .chain
                .token_transfers_of(self.token, scan.split, lowest, highest)
                .await?;
            transfers.retain(|t| (t.block.number, t.log_index) < (before.block, before.log_index));
            let records = flow_records(
                &transfers,
                scan.split,
                scan.recipients,
                self.platform_recipient,
                scan.view,
            );
            // Newest transaction first; a transaction's records stay together on one page.
            for transaction in records.chunk_by(|a, b| a.position == b.position).rev() {
                let full = page.len() + transaction.len() > scan.limit as usize;
                if full && !page.is_empty() {
                    let resume = page.last().map(|record| record.position);
                    return Ok((page, resume));
                }
                page.extend(transaction.iter().rev().cloned());
            }
            scanned += highest - lowest + 1;
            before = LogPosition::block_start(lowest);
            if page.len() >= scan.limit as usize {
                return Ok((page, Some(before)));
            }
        }
    }

    /// Adds block times and the receipts of forwarded deposits.
    async fn complete(
        &self,
        merchant: Wallet,
        records: Vec<FlowRecord>,
    ) -> Result<Vec<SplitTransaction>, SplitTransactionsError> {
        let senders: Vec<Wallet> = records.iter().filter_map(|record| record.sender).collect();
        let receipts: HashMap<Wallet, ReceiptId> = self
            .reserve
            .receipts_paid_to(merchant, &senders)
            .await?
            .into_iter()
            .collect();
        let blocks: BTreeSet<u64> = records.iter().map(|record| record.position.block).collect();
        let mut times = BTreeMap::new();
        for block in blocks {
            // A block below the confirmed head that is gone (a deep reorg mid-page) has no time: 0.
            times.insert(block, self.chain.block_timestamp(block).await?.unwrap_or(0));
        }
        Ok(records
            .into_iter()
            .map(|record| SplitTransaction {
                receipt_id: record.sender.and_then(|sender| receipts.get(&sender).cloned()),
                timestamp_secs: times.get(&record.position.block).copied().unwrap_or(0),
                record,
            })
            .collect())
    }
}

/// What one listing scans.
struct Scan<'a> {
    split: Wallet,
    recipients: &'a Split,
    view: View,
    floor: u64,
    limit: u32,
}

#[cfg(test)]
#[path = "scan_tests.rs"]
mod scan_tests;
