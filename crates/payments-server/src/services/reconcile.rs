//! Reconciliation (issue 26): re-derive from the chain every payment into the deposits of a window's receipts,
//! every settlement, refund and subscription charge, and compare with what the database records. The rules
//! of what differs are `payments_core::reconcile`; this reads both sides a page at a time.
//!
//! Only blocks at least `--confirmations` deep are compared, as the watcher records only those: a payment in
//! the newest blocks is not a difference yet.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use alloy_primitives::B256;
use payments_core::{
    Difference, Expected, LoggedTransfer, MinedMovement, TokenAmount, Wallet, deposit_differences,
    movement_differences, settlement_differences,
};

use crate::chain::{Chain, ChainError, TokenTransfer};
use crate::services::chain::watcher::MAX_BLOCKS_PER_SCAN;
use crate::store::{
    ChargeRecord, DepositRecord, RECONCILE_PAGE_ROWS, ReconcileRepository, ReconcileWindow, StoreError,
};

/// Addresses per `eth_getLogs` filter (as the watcher asks).
const ADDRESSES_PER_QUERY: usize = 200;

/// Why a reconciliation could not finish.
#[derive(Debug, thiserror::Error)]
pub enum ReconcileError {
    #[error(transparent)]
    Chain(#[from] ChainError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// What was compared, and every difference found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReconcileReport {
    pub receipts: usize,
    pub refunds: usize,
    pub charges: usize,
    /// The newest block compared (the head less `--confirmations`).
    pub confirmed_head: u64,
    pub differences: Vec<Difference>,
}

/// Reads the records and the chain they claim.
#[derive(Debug, Clone)]
pub(crate) struct ReconcileService {
    pub(crate) records: Arc<dyn ReconcileRepository>,
    pub(crate) chain: Arc<dyn Chain>,
    pub(crate) chain_id: u64,
    pub(crate) token: Wallet,
    pub(crate) confirmations: u64,
}

impl ReconcileService {
    /// Compares every record created in `[from_ms, to_ms)` with the chain.
    pub(crate) async fn run(&self, from_ms: i64, to_ms: i64) -> Result<ReconcileReport, ReconcileError> {
        let window = ReconcileWindow {
            chain_id: self.chain_id,
            token: self.token,
            from_ms,
            to_ms,
        };
        let head = self.chain.head().await?;
        let mut report = ReconcileReport {
            confirmed_head: head.saturating_sub(self.confirmations),
            ..ReconcileReport::default()
        };
        let from_block = self.first_block_at(from_ms, report.confirmed_head).await?;
        let mut after = 0;
        let read = |after| self.records.deposits_page(&window, after, RECONCILE_PAGE_ROWS);
        while let Some(page) = next_page(&mut after, read, |deposit| deposit.row_id).await? {
            report.receipts += page.len();
            self.compare_deposits(&page, from_block, report.confirmed_head, &mut report.differences)
                .await?;
        }
        self.compare_refunds(&window, &mut report).await?;
        self.compare_charges(&window, &mut report).await?;
        Ok(report)
    }

    async fn compare_deposits(
        &self,
        page: &[DepositRecord],
        from_block: u64,
        confirmed_head: u64,
        differences: &mut Vec<Difference>,
    ) -> Result<(), ReconcileError> {
        let deposits: Vec<Wallet> = page.iter().map(|record| record.deposit).collect();
        let mut paid_in: HashMap<Wallet, Vec<LoggedTransfer>> = HashMap::new();
        for transfer in self
            .token_transfers_to(&deposits, from_block, confirmed_head)
            .await?
        {
            if let Some(seen) = seen(&transfer) {
                paid_in.entry(transfer.to).or_default().push(seen);
            }
        }
        let mut splits: Vec<Wallet> = page.iter().filter_map(|record| record.split).collect();
        splits.sort();
        splits.dedup();
        let mut forwarded: HashMap<(Wallet, Wallet), u128> = HashMap::new();
        for transfer in self
            .token_transfers_to(&splits, from_block, confirmed_head)
            .await?
        {
            let amount = transfer.amount.map_or(0, TokenAmount::base_units);
            let sum = forwarded.entry((transfer.from, transfer.to)).or_default();
            *sum = sum.saturating_add(amount);
        }
        for record in page {
            let subject = format!("receipt:{}", record.receipt_id);
            let on_chain = paid_in.remove(&record.deposit).unwrap_or_default();
            differences.extend(deposit_differences(
                &subject,
                &record.transfers,
                &on_chain,
                record.received,
            ));
            let moved = record
                .split
                .and_then(|split| forwarded.get(&(record.deposit, split)).copied())
                .unwrap_or(0);
            differences.extend(settlement_differences(
                &subject,
                record.completed,
                TokenAmount::from_base_units(moved),
            ));
        }
        Ok(())
    }

    async fn compare_refunds(
        &self,
        window: &ReconcileWindow,
        report: &mut ReconcileReport,
    ) -> Result<(), ReconcileError> {
        let mut after = 0;
        let read = |after| self.records.refunds_page(window, after, RECONCILE_PAGE_ROWS);
        while let Some(page) = next_page(&mut after, read, |refund| refund.row_id).await? {
            report.refunds += page.len();
            for refund in page {
                let expected = refund
                    .amount
                    .to_token_amount()
                    .unwrap_or(TokenAmount::from_base_units(u128::MAX));
                let mined = self
                    .movement(&refund.transaction_hash, |transfer| transfer.to == refund.buyer)
                    .await?;
                report.differences.extend(movement_differences(
                    &format!("receipt:{}", refund.receipt_id),
                    "refund",
                    &refund.transaction_hash,
                    Expected::AtLeast(expected),
                    mined,
                ));
            }
        }
        Ok(())
    }

    /// A batch transaction charges many customers, and one customer may have several subscriptions charged
    /// in it: what left each customer in a transaction is compared with the sum of that customer's charges.
    async fn compare_charges(
        &self,
        window: &ReconcileWindow,
        report: &mut ReconcileReport,
    ) -> Result<(), ReconcileError> {
        let mut after = 0;
        let read = |after| self.records.charges_page(window, after, RECONCILE_PAGE_ROWS);
        while let Some(page) = next_page(&mut after, read, |charge| charge.row_id).await? {
            report.charges += page.len();
            let mut by_payer: BTreeMap<(String, Wallet), Vec<&ChargeRecord>> = BTreeMap::new();
            for charge in &page {
                by_payer
                    .entry((charge.transaction_hash.to_ascii_lowercase(), charge.customer))
                    .or_default()
                    .push(charge);
            }
            for ((hash, customer), charges) in by_payer {
                let gross = charges.iter().fold(0_u128, |sum, charge| {
                    sum.saturating_add(charge.gross.base_units())
                });
                let mined = self.movement(&hash, |transfer| transfer.from == customer).await?;
                let subject = charges
                    .iter()
                    .map(|charge| format!("subscription:{}", charge.subscription_id))
                    .collect::<Vec<_>>()
                    .join(",");
                let periods = charges
                    .iter()
                    .map(|charge| charge.period_index.to_string())
                    .collect::<Vec<_>>()
                    .join(",");
                report.differences.extend(movement_differences(
                    &subject,
                    &format!("charge of period {periods}"),
                    &hash,
                    Expected::Exactly(TokenAmount::from_base_units(gross)),
                    mined,
                ));
            }
        }
        Ok(())
    }

    /// How a recorded transaction looks on chain: what it moved of the token among the transfers `counts`
    /// selects. A hash that does not parse is a transaction the chain cannot have.
    async fn movement(
        &self,
        hash: &str,
        counts: impl Fn(&TokenTransfer) -> bool,
    ) -> Result<MinedMovement, ReconcileError> {
        let Ok(parsed) = hash.parse::<B256>() else {
            return Ok(MinedMovement::Missing);
        };
        Ok(match self.chain.mined_transaction(parsed).await? {
            None => MinedMovement::Missing,
            Some(mined) if !mined.succeeded => MinedMovement::Reverted,
            Some(mined) => MinedMovement::Moved(TokenAmount::from_base_units(
                mined
                    .transfers
                    .iter()
                    .filter(|transfer| transfer.token == self.token && counts(transfer))
                    .fold(0_u128, |sum, transfer| {
                        sum.saturating_add(transfer.amount.map_or(0, TokenAmount::base_units))
                    }),
            )),
        })
    }

    /// Every transfer of the payment token to one of `recipients` in `from..=to`, in ranges and address
    /// lists a public node answers.
    async fn token_transfers_to(
        &self,
        recipients: &[Wallet],
        from: u64,
        to: u64,
    ) -> Result<Vec<TokenTransfer>, ReconcileError> {
        let mut found = Vec::new();
        for addresses in recipients.chunks(ADDRESSES_PER_QUERY) {
            let mut start = from;
            while start <= to {
                let end = start.saturating_add(MAX_BLOCKS_PER_SCAN - 1).min(to);
                let transfers = self.chain.transfers_to(start, end, addresses).await?;
                found.extend(
                    transfers
                        .into_iter()
                        .filter(|transfer| transfer.token == self.token),
                );
                start = end.saturating_add(1);
            }
        }
        Ok(found)
    }

    /// The first block at or after `at_ms` (binary search over block times); 0 for the start of time.
    async fn first_block_at(&self, at_ms: i64, head: u64) -> Result<u64, ReconcileError> {
        let Ok(at_secs) = u64::try_from(at_ms / 1_000) else {
            return Ok(0);
        };
        let (mut low, mut high) = (0, head);
        while low < high {
            let middle = low + (high - low) / 2;
            match self.chain.block_timestamp(middle).await? {
                Some(time) if time < at_secs => low = middle + 1,
                _ => high = middle,
            }
        }
        Ok(low)
    }
}

/// The page after `after` (keyset on row id), moving `after` to its last row; `None` when none is left.
async fn next_page<T, Fut>(
    after: &mut i64,
    read: impl Fn(i64) -> Fut,
    row_id: impl Fn(&T) -> i64,
) -> Result<Option<Vec<T>>, ReconcileError>
where
    Fut: Future<Output = Result<Vec<T>, StoreError>>,
{
    let page = read(*after).await?;
    let Some(last) = page.last() else {
        return Ok(None);
    };
    *after = row_id(last);
    Ok(Some(page))
}

fn seen(transfer: &TokenTransfer) -> Option<LoggedTransfer> {
    Some(LoggedTransfer {
        transaction_hash: format!("{:#x}", transfer.transaction_hash),
        log_index: transfer.log_index,
        amount: transfer.amount?,
    })
}
