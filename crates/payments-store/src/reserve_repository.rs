//! Reads behind the reserve and split-transaction routes: a merchant's recent volume, and which receipts its
//! split's inflows came from.

use std::fmt;

use async_trait::async_trait;
use payments_core::{ReserveVolume, Wallet};

use crate::StoreError;
use payments_domain::receipt::ReceiptId;

/// Read-only queries over receipts, refunds and recorded deposit transfers, partitioned by merchant.
#[async_trait]
pub trait ReserveRepository: Send + Sync + fmt::Debug {
    /// The merchant's volume from `since_ms` on: what was paid for receipts that became `paid` then (their
    /// `paid` history entry is at or after `since_ms`), and every refund recorded then (of any receipt).
    async fn volume_since(&self, wallet: Wallet, since_ms: i64) -> Result<ReserveVolume, StoreError>;

    /// Which of `deposits` are deposit addresses of the merchant's receipts, each with its receipt (other
    /// merchants' deposits and unknown addresses are left out).
    async fn receipts_paid_to(
        &self,
        wallet: Wallet,
        deposits: &[Wallet],
    ) -> Result<Vec<(Wallet, ReceiptId)>, StoreError>;

    /// The lowest block of a recorded transfer to one of the merchant's deposit addresses on `chain_id`:
    /// nothing the platform forwarded to the merchant's split can be older.
    async fn first_deposit_block(&self, wallet: Wallet, chain_id: u64) -> Result<Option<u64>, StoreError>;
}
