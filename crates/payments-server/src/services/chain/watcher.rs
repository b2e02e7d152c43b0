//! The deposit watcher: follows `Transfer` logs to open deposit addresses, block range by block range, and
//! turns a confirmed payment into `paid`.
//!
//! Why it cannot miss or double count (docs/chain.md, "The watcher"):
//! - Only blocks at least `confirmations` deep are scanned, so a transfer that a reorganisation removes
//!   before it is confirmed is never seen, let alone counted.
//! - The transfers of a range and the cursor past it are committed in one transaction; a crash before that
//!   rescans the range, and a transfer seen twice is the same row (unique by chain, transaction, log index).
//! - Crediting reads what is recorded, not what was just scanned, so a crash between recording and crediting
//!   is made good on the next pass; `paid` twice is acknowledged and ignored by the state machine.
//! - The head is read before the open deposits: a receipt created after that read can only be paid in a later
//!   block than the range scanned now.
//! - A block hash under the cursor that changed means a reorganisation deeper than `confirmations`: the
//!   watcher logs it loudly and rescans the last [`REORG_RESCAN_BLOCKS`] blocks.
//! - Until their blocks are final, recorded transfers are re-checked every pass (`finality.rs`): one a
//!   reorganisation removed stops counting, and a paid receipt it leaves uncovered fails
//!   (`PORTAL_PAYMENT_REORGED`); one it moved is recorded in its new block.

use std::sync::Arc;

use payments_core::{
    DepositAssessment, PaymentBlock, ReceiptBalance, ReceiptStatus, TokenAmount, Wallet, assess_deposit,
};

use crate::chain::{Chain, ChainError, TokenTransfer};
use crate::domain::receipt::ReceiptError;
use crate::runtime::clock::Clock;
use crate::services::receipts::StatusOutcome;
use crate::services::receipts::{ConfirmedPayment, FundsReceived, ReceiptService};
use crate::store::{ChainCursor, ChainRepository, ChainTip, FundedDeposit, RecordedTransfer, StoreError};

/// Blocks scanned per pass at most (public nodes cap `eth_getLogs` ranges).
pub(crate) const MAX_BLOCKS_PER_SCAN: u64 = 500;
/// Deposit addresses per `eth_getLogs` call (the topic list of one filter).
const DEPOSITS_PER_QUERY: usize = 200;
/// How far back the first scan of a chain starts below the confirmed head.
pub(crate) const FIRST_SCAN_LOOKBACK: u64 = 1_000;
/// How far the watcher rewinds after finding a reorganisation below its cursor.
pub(crate) const REORG_RESCAN_BLOCKS: u64 = 64;

/// Why a pass stopped early; the next pass retries.
#[derive(Debug, thiserror::Error)]
pub(crate) enum WatchError {
    #[error(transparent)]
    Chain(#[from] ChainError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// What one pass did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct WatchPass {
    /// Blocks scanned.
    pub(crate) blocks: u64,
    /// Transfers recorded (new or seen again).
    pub(crate) transfers: usize,
    /// Receipts that became paid.
    pub(crate) paid: usize,
    /// Recorded transfers a reorganisation removed.
    pub(crate) removed: usize,
    /// The confirmed head has been reached: no need to hurry the next pass.
    pub(crate) caught_up: bool,
}

/// What a deposit's new transfers mean for its receipt.
#[derive(Debug)]
enum DepositNews {
    /// They cover an unpaid receipt.
    Paid(ConfirmedPayment),
    /// They changed its balance without paying it now (short of the total, or beyond it once paid).
    Funds(FundsReceived),
    /// A reorganisation removed some of them and what is left no longer covers the paid receipt.
    Reorged(FundsReceived),
}

/// Follows one chain's deposits.
#[derive(Debug, Clone)]
pub(crate) struct DepositWatcher {
    pub(crate) chain: Arc<dyn Chain>,
    pub(crate) records: Arc<dyn ChainRepository>,
    pub(crate) receipts: ReceiptService,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) chain_id: u64,
    /// The payment token: only its transfers pay a receipt.
    pub(crate) token: Wallet,
    /// Blocks on top of a transfer's block before it counts.
    pub(crate) confirmations: u64,
    /// How long after its payment window ended an unpaid receipt's deposit is still watched
    /// (`--late-payment-watch-days`; docs/money.md).
    pub(crate) late_payment_watch_ms: i64,
}

impl DepositWatcher {
    /// Scans the next confirmed range (if any) and credits every funded deposit.
    pub(crate) async fn pass(&self) -> Result<WatchPass, WatchError> {
        let mut pass = self.scan().await?;
        let rechecked = self.recheck().await?;
        pass.removed = rechecked.removed;
        pass.paid = self.credit(rechecked.tip).await?;
        Ok(pass)
    }

    async fn scan(&self) -> Result<WatchPass, WatchError> {
        let head = self.chain.head().await?;
        let Some(confirmed) = head.checked_sub(self.confirmations) else {
            return Ok(WatchPass {
                caught_up: true,
                ..WatchPass::default()
            });
        };
        let cursor = self.cursor(confirmed).await?;
        if cursor.next_block > confirmed {
            return Ok(WatchPass {
                caught_up: true,
                ..WatchPass::default()
            });
        }
        let from = cursor.next_block;
        let to = confirmed.min(from.saturating_add(MAX_BLOCKS_PER_SCAN - 1));
        let since = self.clock.now_ms().saturating_sub(self.late_payment_watch_ms);
        let deposits = self.records.open_deposits(since).await?;
        let mut transfers = Vec::new();
        for chunk in deposits.chunks(DEPOSITS_PER_QUERY) {
            transfers.extend(self.chain.transfers_to(from, to, chunk).await?);
        }
        let recorded: Vec<RecordedTransfer> = transfers.iter().map(recorded).collect();
        let last_block_hash = self.chain.block_hash(to).await?.map(|hash| hash.to_string());
        let next = ChainCursor {
            next_block: to + 1,
            last_block_hash,
        };
        self.records
            .record_scan(self.chain_id, &recorded, &next, self.clock.now_ms())
            .await?;
        Ok(WatchPass {
            blocks: to - from + 1,
            transfers: recorded.len(),
            caught_up: to == confirmed,
            ..WatchPass::default()
        })
    }

    /// The stored cursor, checked against the chain; a first scan starts [`FIRST_SCAN_LOOKBACK`] blocks below
    /// the confirmed head.
    async fn cursor(&self, confirmed: u64) -> Result<ChainCursor, WatchError> {
        let Some(cursor) = self.records.fetch_cursor(self.chain_id).await? else {
            return Ok(ChainCursor {
                next_block: confirmed.saturating_sub(FIRST_SCAN_LOOKBACK),
                last_block_hash: None,
            });
        };
        let (Some(seen), Some(below)) = (&cursor.last_block_hash, cursor.next_block.checked_sub(1)) else {
            return Ok(cursor);
        };
        let now = self.chain.block_hash(below).await?.map(|hash| hash.to_string());
        if now.as_ref() == Some(seen) {
            return Ok(cursor);
        }
        tracing::error!(
            chain_id = self.chain_id,
            block = below,
            confirmations = self.confirmations,
            "the chain reorganised below the confirmation depth; rescanning (raise --confirmations)"
        );
        Ok(ChainCursor {
            next_block: cursor.next_block.saturating_sub(REORG_RESCAN_BLOCKS),
            last_block_hash: None,
        })
    }

    /// Records what changed in every funded deposit: a payment, a new balance (underpaid before payment,
    /// overpaid after it), or a payment a reorganisation took away. A deposit whose balance is what its
    /// receipt last recorded is left alone.
    async fn credit(&self, tip: ChainTip) -> Result<usize, WatchError> {
        let mut paid = 0;
        let since = self.clock.now_ms().saturating_sub(self.late_payment_watch_ms);
        for deposit in self.records.funded_deposits(self.chain_id, since).await? {
            let outcome = match self.news_of(&deposit, tip) {
                None => continue,
                Some(DepositNews::Paid(payment)) => {
                    let overpaid = ReceiptBalance::of(deposit.total, payment.received_units).overpaid;
                    if overpaid.base_units() > 0 {
                        // Settlement forwards the deposit's whole balance: the surplus goes with the rest.
                        tracing::info!(
                            receipt = deposit.receipt_id.as_str(),
                            overpaid = %overpaid,
                            "paid with money beyond the total (overpaid); settlement forwards it with the rest"
                        );
                    }
                    let outcome = self.receipts.confirm_payment(payment).await;
                    paid += usize::from(outcome.is_ok());
                    outcome
                }
                Some(DepositNews::Funds(funds)) => {
                    if deposit.paid {
                        tracing::info!(
                            receipt = deposit.receipt_id.as_str(),
                            received = %funds.received,
                            "money reached a paid receipt's deposit (overpaid): forwarded with the rest if \
                             settlement has not run yet, else kept on the deposit address (docs/money.md)"
                        );
                    }
                    self.receipts.record_funds_received(funds).await
                }
                Some(DepositNews::Reorged(funds)) => {
                    let outcome = self.receipts.record_payment_reorged(funds).await;
                    report_reorged(&deposit, &outcome);
                    outcome
                }
            };
            if let Err(error) = outcome {
                tracing::warn!(
                    receipt = deposit.receipt_id.as_str(),
                    error = %error,
                    "a confirmed transfer could not be recorded; retrying on the next pass"
                );
            }
        }
        Ok(paid)
    }

    /// What a deposit's transfers of the payment token tell that its receipt does not know yet: a payment
    /// when they cover an unpaid receipt, else a new balance; `None` when the balance is the recorded one.
    fn news_of(&self, deposit: &FundedDeposit, tip: ChainTip) -> Option<DepositNews> {
        let counted: Vec<&RecordedTransfer> = self.counted(deposit);
        let amounts = counted
            .iter()
            .map(|transfer| TokenAmount::from_base_units(transfer.amount.unwrap_or(0)));
        let received = match assess_deposit(deposit.total, amounts) {
            DepositAssessment::Covered { received, .. } | DepositAssessment::Short { received, .. } => {
                received
            }
        };
        if received == deposit.received {
            return None;
        }
        let funds = FundsReceived {
            merchant: deposit.merchant,
            receipt_id: deposit.receipt_id.clone(),
            received,
        };
        // Less than recorded can only mean removed transfers: a paid receipt they leave uncovered is no
        // longer paid (an admin-attested one, which recorded nothing, only ever sees more).
        match (deposit.paid, self.payment_of(deposit, tip)) {
            (false, Some(payment)) => Some(DepositNews::Paid(payment)),
            (true, None) if received < deposit.received => Some(DepositNews::Reorged(funds)),
            _ => Some(DepositNews::Funds(funds)),
        }
    }

    fn counted<'a>(&self, deposit: &'a FundedDeposit) -> Vec<&'a RecordedTransfer> {
        deposit
            .transfers
            .iter()
            .filter(|transfer| transfer.token == self.token)
            .collect()
    }

    /// The payment a deposit's transfers of the payment token make, when they cover the receipt.
    fn payment_of(&self, deposit: &FundedDeposit, tip: ChainTip) -> Option<ConfirmedPayment> {
        let counted = self.counted(deposit);
        let amounts = counted
            .iter()
            .map(|transfer| TokenAmount::from_base_units(transfer.amount.unwrap_or(0)));
        match assess_deposit(deposit.total, amounts) {
            DepositAssessment::Covered {
                received,
                received_cents,
                completed_by,
                ..
            } => {
                let completing = counted.get(completed_by)?;
                Some(ConfirmedPayment {
                    merchant: deposit.merchant,
                    receipt_id: deposit.receipt_id.clone(),
                    transaction_hash: completing.transaction_hash.clone(),
                    buyer: completing.from,
                    received: received_cents,
                    received_units: received,
                    block: Some(PaymentBlock::at(
                        completing.block_number,
                        completing.block_hash.clone(),
                        tip.head,
                        tip.finalized,
                    )),
                })
            }
            DepositAssessment::Short { .. } => None,
        }
    }
}

/// Says loudly what a reorganised payment means, above all for a receipt whose money was already forwarded.
fn report_reorged(deposit: &FundedDeposit, outcome: &Result<StatusOutcome, ReceiptError>) {
    let Ok(StatusOutcome::Moved { from, .. }) = outcome else {
        return;
    };
    if *from == ReceiptStatus::Paid {
        tracing::warn!(
            receipt = deposit.receipt_id.as_str(),
            "a reorganisation removed a paid receipt's payment: failed (PORTAL_PAYMENT_REORGED), not settled"
        );
    } else {
        tracing::error!(
            receipt = deposit.receipt_id.as_str(),
            status = %from,
            "a reorganisation removed the payment of a receipt already settled: failed \
             (PORTAL_PAYMENT_REORGED); the split may have paid out money the chain no longer shows, \
             reconcile it (settle only finalized money: the default on a node)"
        );
    }
}

pub(super) fn recorded(transfer: &TokenTransfer) -> RecordedTransfer {
    RecordedTransfer {
        transaction_hash: transfer.transaction_hash.to_string(),
        log_index: transfer.log_index,
        block_number: transfer.block.number,
        block_hash: transfer.block.hash.to_string(),
        token: transfer.token,
        from: transfer.from,
        to: transfer.to,
        amount: transfer.amount.map(TokenAmount::base_units),
    }
}
