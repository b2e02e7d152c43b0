//! [`ReserveRepository`] on PostgreSQL (the statements mirror `store/sqlite/reserve.rs`).

use crate::postgres::connection::{PgClient, Queries};
use async_trait::async_trait;
use payments_core::{Cents, ReserveVolume, Wallet};

use crate::postgres::error::PgError;
use crate::postgres::{PgStore, rows};
use crate::{ReserveRepository, StoreError};
use payments_domain::receipt::ReceiptId;

/// Receipts whose `paid` history entry falls in the window (a receipt becomes paid once).
const PAID_SINCE: &str = "SELECT COALESCE(SUM(r.paid_cents), 0)::BIGINT AS paid FROM receipts r
    WHERE r.wallet = $1 AND EXISTS (SELECT 1 FROM receipt_history h
        WHERE h.receipt_id = r.id AND h.to_status = 'paid' AND h.at >= $2)";
const REFUNDED_SINCE: &str = "SELECT COALESCE(SUM(f.usd_cents), 0)::BIGINT AS refunded
    FROM receipt_refunds f JOIN receipts r ON r.id = f.receipt_id
    WHERE r.wallet = $1 AND f.created_at >= $2";
const RECEIPTS_PAID_TO: &str = "SELECT r.pay_to, r.public_id FROM receipts r
    WHERE r.wallet = $1 AND r.pay_to = ANY($2)";
const FIRST_DEPOSIT_BLOCK: &str = "SELECT MIN(t.block_number) AS first_block
    FROM chain_transfers t JOIN receipts r ON t.to_wallet = r.pay_to
    WHERE r.wallet = $1 AND t.chain_id = $2";

async fn volume_since(client: PgClient, wallet: Wallet, since_ms: i64) -> Result<ReserveVolume, PgError> {
    let merchant = wallet.to_string();
    let paid = client.prepare_cached(PAID_SINCE).await?;
    let paid = client.query_one(&paid, &[&merchant, &since_ms]).await?;
    let refunded = client.prepare_cached(REFUNDED_SINCE).await?;
    let refunded = client.query_one(&refunded, &[&merchant, &since_ms]).await?;
    Ok(ReserveVolume {
        paid: Cents::new(rows::get(&paid, "paid")?),
        refunded: Cents::new(rows::get(&refunded, "refunded")?),
    })
}

async fn receipts_paid_to(
    client: PgClient,
    wallet: Wallet,
    deposits: &[Wallet],
) -> Result<Vec<(Wallet, ReceiptId)>, PgError> {
    let addresses: Vec<String> = deposits.iter().map(Wallet::to_string).collect();
    let statement = client.prepare_cached(RECEIPTS_PAID_TO).await?;
    client
        .query(&statement, &[&wallet.to_string(), &addresses])
        .await?
        .iter()
        .map(|row| {
            Ok((
                rows::parsed(row, "pay_to", Wallet::parse)?,
                ReceiptId::from_stored(rows::get(row, "public_id")?),
            ))
        })
        .collect()
}

async fn first_deposit_block(
    client: PgClient,
    wallet: Wallet,
    chain_id: u64,
) -> Result<Option<u64>, PgError> {
    let chain = i64::try_from(chain_id).map_err(|error| PgError::corrupt("a chain id", error))?;
    let statement = client.prepare_cached(FIRST_DEPOSIT_BLOCK).await?;
    let row = client
        .query_one(&statement, &[&wallet.to_string(), &chain])
        .await?;
    rows::get::<Option<i64>>(&row, "first_block")?
        .map(|block| u64::try_from(block).map_err(|error| PgError::corrupt("column first_block", error)))
        .transpose()
}

#[async_trait]
impl ReserveRepository for PgStore {
    async fn volume_since(&self, wallet: Wallet, since_ms: i64) -> Result<ReserveVolume, StoreError> {
        self.run(|client| Box::pin(volume_since(client, wallet, since_ms)))
            .await
    }

    async fn receipts_paid_to(
        &self,
        wallet: Wallet,
        deposits: &[Wallet],
    ) -> Result<Vec<(Wallet, ReceiptId)>, StoreError> {
        if deposits.is_empty() {
            return Ok(Vec::new());
        }
        self.run(|client| Box::pin(receipts_paid_to(client, wallet, deposits)))
            .await
    }

    async fn first_deposit_block(&self, wallet: Wallet, chain_id: u64) -> Result<Option<u64>, StoreError> {
        self.run(|client| Box::pin(first_deposit_block(client, wallet, chain_id)))
            .await
    }
}
