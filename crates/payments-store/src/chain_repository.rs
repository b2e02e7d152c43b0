//! What the chain workers keep: the deposit watcher's cursor, the transfers it saw, and settlement attempts.

use std::fmt;

use async_trait::async_trait;
use payments_core::{Cents, PaymentBlock, TokenAmount, Wallet};

use crate::StoreError;
use payments_domain::receipt::ReceiptId;

/// The deposit watcher's and the settlement worker's records.
#[async_trait]
pub trait ChainRepository: Send + Sync + fmt::Debug {
    /// Where the watcher of `chain_id` resumes; `None` before its first scan.
    async fn fetch_cursor(&self, chain_id: u64) -> Result<Option<ChainCursor>, StoreError>;
    /// In one transaction: records `transfers` (each at most once, by chain, transaction and log index) and
    /// moves the cursor, so a crash leaves either both or neither.
    async fn record_scan(
        &self,
        chain_id: u64,
        transfers: &[RecordedTransfer],
        cursor: &ChainCursor,
        now_ms: i64,
    ) -> Result<(), StoreError>;
    /// Deposit addresses of receipts, paid or not, whose payment window ends at or after `since_ms` (still
    /// open, or closed recently enough for a late or repeated payment); receipts without a window count from
    /// their creation.
    async fn open_deposits(&self, since_ms: i64) -> Result<Vec<Wallet>, StoreError>;
    /// Every recorded transfer (of any token) to the deposit address `to` on `chain_id`, in chain order: what
    /// a merchant is shown of a receipt's payments, counted or not.
    async fn deposit_transfers(&self, chain_id: u64, to: Wallet)
    -> Result<Vec<RecordedTransfer>, StoreError>;
    /// Receipts whose deposit received at least one recorded transfer, with those transfers: every unpaid
    /// one, and the paid ones still watched (`COALESCE(expires_at, created_at) >= since_ms`, the window
    /// [`ChainRepository::open_deposits`] scans), whose later transfers are overpayments.
    async fn funded_deposits(&self, chain_id: u64, since_ms: i64) -> Result<Vec<FundedDeposit>, StoreError>;
    /// Paid receipts with a deposit that are due for a settlement attempt at `now_ms`, oldest first. With
    /// `finalized_only`, only those whose deposit has no counted transfer above the final block the watcher
    /// last recorded (settlement then never forwards money a reorganisation could still take back).
    async fn settlements_due(
        &self,
        now_ms: i64,
        limit: u32,
        finalized_only: bool,
    ) -> Result<Vec<SettlementDue>, StoreError>;
    /// Records a failed settlement attempt.
    async fn record_settlement_failure(&self, failure: &SettlementFailure) -> Result<(), StoreError>;
    /// Recorded transfers on `chain_id` in blocks above `finalized_block`, removed ones included (they may come
    /// back), lowest block first, at most `limit`: what a reorganisation could still remove or move.
    async fn unfinalized_transfers(
        &self,
        chain_id: u64,
        finalized_block: u64,
        limit: u32,
    ) -> Result<Vec<UnfinalizedTransfer>, StoreError>;
    /// In one transaction: records the chain's tip, marks the transfers a reorganisation removed (kept, no
    /// longer counted) and records the ones still or again on chain where they are now (counted again).
    async fn record_recheck(&self, chain_id: u64, recheck: &Recheck, now_ms: i64) -> Result<(), StoreError>;
    /// Where the counted transfer `transaction_hash` to the deposit `to` stands, seen from the tip the watcher
    /// last recorded; `None` when it is not recorded, was removed, or no tip is known yet.
    async fn payment_block(
        &self,
        to: Wallet,
        transaction_hash: &str,
    ) -> Result<Option<PaymentBlock>, StoreError>;
    /// The failed settlement attempts of `merchant`'s receipt `id`, if any.
    async fn fetch_settlement(
        &self,
        merchant: Wallet,
        id: &ReceiptId,
    ) -> Result<Option<SettlementState>, StoreError>;
}

/// Where the deposit watcher resumes: the next block to scan, and the hash it saw for the block before it
/// (a different hash there now means the chain reorganised below the confirmation depth).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainCursor {
    pub next_block: u64,
    pub last_block_hash: Option<String>,
}

/// A confirmed `Transfer` to a deposit address, as recorded (any token; amounts as decimal base units, `None`
/// when they do not fit in 128 bits).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedTransfer {
    pub transaction_hash: String,
    pub log_index: u64,
    pub block_number: u64,
    pub block_hash: String,
    pub token: Wallet,
    pub from: Wallet,
    pub to: Wallet,
    pub amount: Option<u128>,
}

/// The head and the final block as the watcher last read them (the final block is the node's `finalized`
/// tag, or a fixed depth below the head: `payments_core::finality_line`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChainTip {
    pub head: u64,
    pub finalized: u64,
}

/// A recorded transfer above the final block, and whether a reorganisation removed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnfinalizedTransfer {
    pub transfer: RecordedTransfer,
    pub removed: bool,
}

/// A recorded transfer's identity on its chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransferKey {
    pub transaction_hash: String,
    pub log_index: u64,
}

/// What one re-check of the unfinalized transfers found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recheck {
    pub tip: ChainTip,
    /// Gone from the chain: kept, never counted again unless they come back.
    pub removed: Vec<TransferKey>,
    /// On chain, possibly in another block than recorded: recorded where they are now, counted.
    pub present: Vec<RecordedTransfer>,
}

/// A receipt whose deposit address received something.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FundedDeposit {
    pub merchant: Wallet,
    pub receipt_id: ReceiptId,
    pub total: Cents,
    /// Whether it is paid (`paid_cents > 0`): more money is then an overpayment.
    pub paid: bool,
    /// What its last status change recorded as received (`received_units`); transfers beyond it are new.
    pub received: TokenAmount,
    /// Those still on chain (a receipt whose transfers a reorganisation all removed is listed with none).
    pub transfers: Vec<RecordedTransfer>,
}

/// A paid receipt whose deposit still has to be forwarded to its split and distributed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettlementDue {
    pub merchant: Wallet,
    pub receipt_id: ReceiptId,
    pub split: Wallet,
    /// Failed attempts so far.
    pub attempts: u32,
}

/// A failed settlement attempt, with when to try again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettlementFailure {
    pub merchant: Wallet,
    pub receipt_id: ReceiptId,
    pub attempts: u32,
    pub next_attempt_at: i64,
    /// Bounded and free of secrets (a chain error message).
    pub error: String,
    pub now_ms: i64,
}

/// Where a receipt's settlement stands after failed attempts (shown on the receipt while it is `paid`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettlementState {
    pub attempts: u32,
    pub last_error: Option<String>,
    pub next_attempt_at: i64,
}
