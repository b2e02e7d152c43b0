//! The chain workers' tables on PostgreSQL (the statements mirror `store/sqlite/chain.rs`).

use std::collections::BTreeMap;

use crate::postgres::connection::{PgClient, PgTransaction, Queries};
use async_trait::async_trait;
use payments_core::{Cents, PaymentBlock, TokenAmount, Wallet};
use tokio_postgres::Row;

use crate::postgres::error::PgError;
use crate::postgres::{PgStore, finality, rows};
use crate::rows::ChainTransferRow;
use crate::{
    ChainCursor, ChainRepository, FundedDeposit, Recheck, RecordedTransfer, SettlementDue, SettlementFailure,
    SettlementState, StoreError, UnfinalizedTransfer,
};
use payments_domain::receipt::ReceiptId;

const FETCH_CURSOR: &str = "SELECT next_block, last_block_hash FROM chain_cursors WHERE chain_id = $1";
const SAVE_CURSOR: &str = "INSERT INTO chain_cursors (chain_id, next_block, last_block_hash, updated_at)
    VALUES ($1, $2, $3, $4)
    ON CONFLICT (chain_id) DO UPDATE SET next_block = excluded.next_block,
        last_block_hash = excluded.last_block_hash, updated_at = excluded.updated_at";
/// A log seen again (a rescan after a crash or a reorg, the watcher's re-check) is the same log: nothing is
/// counted twice; it is recorded where it is now (a reorganisation may have moved it to another block or
/// brought it back after removing it).
const INSERT_TRANSFER: &str = "INSERT INTO chain_transfers (chain_id, transaction_hash, log_index,
        block_number, block_hash, token, from_wallet, to_wallet, amount, recorded_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
    ON CONFLICT (chain_id, transaction_hash, log_index) DO UPDATE SET block_number = excluded.block_number,
        block_hash = excluded.block_hash, removed = FALSE";
/// Paid receipts too: a second payment after paid is recorded and listed, never left unseen
/// (docs/money.md).
const OPEN_DEPOSITS: &str = "SELECT DISTINCT pay_to FROM receipts
    WHERE pay_to IS NOT NULL AND COALESCE(expires_at, created_at) >= $1";
const FUNDED: &str = "SELECT r.wallet, r.public_id, r.total_cents, r.paid_cents, r.received_units,
        t.transaction_hash, t.log_index,
        t.block_number, t.block_hash, t.token, t.from_wallet, t.to_wallet, t.amount, t.removed
    FROM receipts r JOIN chain_transfers t ON t.to_wallet = r.pay_to AND t.chain_id = $1
    WHERE r.pay_to IS NOT NULL AND (r.paid_cents = 0 OR COALESCE(r.expires_at, r.created_at) >= $2)
    ORDER BY r.id, t.block_number, t.log_index";
const DEPOSIT_TRANSFERS: &str = "SELECT transaction_hash, log_index, block_number, block_hash, token,
        from_wallet, to_wallet, amount
    FROM chain_transfers WHERE to_wallet = $1 AND chain_id = $2 AND NOT removed
    ORDER BY block_number, log_index";
const SETTLEMENTS_DUE: &str = "SELECT r.wallet, r.public_id, r.pay_split, COALESCE(s.attempts, 0) AS attempts
    FROM receipts r LEFT JOIN settlements s ON s.receipt_id = r.id
    WHERE r.status = 'paid' AND r.status_authority = 'chain' AND r.pay_to IS NOT NULL
        AND (s.receipt_id IS NULL OR s.next_attempt_at <= $1)
        AND (NOT $3 OR NOT EXISTS (SELECT 1 FROM chain_transfers t
            LEFT JOIN chain_cursors c ON c.chain_id = t.chain_id
            WHERE t.to_wallet = r.pay_to AND NOT t.removed
                AND (c.finalized_block IS NULL OR t.block_number > c.finalized_block)))
    ORDER BY r.id LIMIT $2";
const RECORD_FAILURE: &str =
    "INSERT INTO settlements (receipt_id, attempts, next_attempt_at, last_error, updated_at)
    SELECT id, $3, $4, $5, $6 FROM receipts WHERE wallet = $1 AND public_id = $2
    ON CONFLICT (receipt_id) DO UPDATE SET attempts = excluded.attempts,
        next_attempt_at = excluded.next_attempt_at, last_error = excluded.last_error,
        updated_at = excluded.updated_at";

const FETCH_SETTLEMENT: &str = "SELECT s.attempts, s.last_error, s.next_attempt_at
    FROM settlements s JOIN receipts r ON r.id = s.receipt_id WHERE r.wallet = $1 AND r.public_id = $2";

/// Block numbers and log indexes come from the node as u64 but BIGINT is i64: a value past it is not a real
/// block and is refused rather than wrapped.
pub(super) fn as_i64(value: u64) -> Result<i64, PgError> {
    i64::try_from(value).map_err(|error| PgError::corrupt("a block number", error))
}

pub(super) fn as_u64(row: &Row, name: &str) -> Result<u64, PgError> {
    u64::try_from(rows::get::<i64>(row, name)?)
        .map_err(|error| PgError::corrupt(format_args!("column {name}"), error))
}

pub(super) fn transfer_from_row(row: &Row) -> Result<RecordedTransfer, PgError> {
    ChainTransferRow {
        transaction_hash: rows::get(row, "transaction_hash")?,
        log_index: rows::get(row, "log_index")?,
        block_number: rows::get(row, "block_number")?,
        block_hash: rows::get(row, "block_hash")?,
        token: rows::get(row, "token")?,
        from_wallet: rows::get(row, "from_wallet")?,
        to_wallet: rows::get(row, "to_wallet")?,
        amount: rows::get(row, "amount")?,
    }
    .into_record()
    .map_err(|error| PgError::corrupt("a chain transfer", error))
}

async fn fetch_cursor(client: PgClient, chain_id: u64) -> Result<Option<ChainCursor>, PgError> {
    let statement = client.prepare_cached(FETCH_CURSOR).await?;
    let row = client.query_opt(&statement, &[&as_i64(chain_id)?]).await?;
    row.map(|row| {
        Ok(ChainCursor {
            next_block: as_u64(&row, "next_block")?,
            last_block_hash: rows::get(&row, "last_block_hash")?,
        })
    })
    .transpose()
}

async fn record_scan(
    mut client: PgClient,
    chain_id: u64,
    transfers: &[RecordedTransfer],
    cursor: &ChainCursor,
    now_ms: i64,
) -> Result<(), PgError> {
    let tx = client.transaction().await?;
    insert_transfers(&tx, chain_id, transfers, now_ms).await?;
    let save = tx.prepare_cached(SAVE_CURSOR).await?;
    tx.execute(
        &save,
        &[
            &as_i64(chain_id)?,
            &as_i64(cursor.next_block)?,
            &cursor.last_block_hash,
            &now_ms,
        ],
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Records `transfers` where they are now (see [`INSERT_TRANSFER`]).
pub(super) async fn insert_transfers(
    tx: &PgTransaction<'_>,
    chain_id: u64,
    transfers: &[RecordedTransfer],
    now_ms: i64,
) -> Result<(), PgError> {
    let chain = as_i64(chain_id)?;
    let insert = tx.prepare_cached(INSERT_TRANSFER).await?;
    for transfer in transfers {
        let amount = transfer.amount.map(|amount| amount.to_string());
        tx.execute(
            &insert,
            &[
                &chain,
                &transfer.transaction_hash,
                &as_i64(transfer.log_index)?,
                &as_i64(transfer.block_number)?,
                &transfer.block_hash,
                &transfer.token.to_string(),
                &transfer.from.to_string(),
                &transfer.to.to_string(),
                &amount,
                &now_ms,
            ],
        )
        .await?;
    }
    Ok(())
}

async fn open_deposits(client: PgClient, since_ms: i64) -> Result<Vec<Wallet>, PgError> {
    let statement = client.prepare_cached(OPEN_DEPOSITS).await?;
    client
        .query(&statement, &[&since_ms])
        .await?
        .iter()
        .map(|row| rows::parsed(row, "pay_to", Wallet::parse))
        .collect()
}

async fn funded_deposits(
    client: PgClient,
    chain_id: u64,
    since_ms: i64,
) -> Result<Vec<FundedDeposit>, PgError> {
    let statement = client.prepare_cached(FUNDED).await?;
    let mut grouped: BTreeMap<(String, String), FundedDeposit> = BTreeMap::new();
    for row in client.query(&statement, &[&as_i64(chain_id)?, &since_ms]).await? {
        let merchant: String = rows::get(&row, "wallet")?;
        let id: String = rows::get(&row, "public_id")?;
        let removed: bool = rows::get(&row, "removed")?;
        let transfer = (!removed).then_some(transfer_from_row(&row)?);
        let key = (merchant.clone(), id.clone());
        if let Some(deposit) = grouped.get_mut(&key) {
            deposit.transfers.extend(transfer);
            continue;
        }
        grouped.insert(
            key,
            FundedDeposit {
                merchant: Wallet::parse(&merchant)
                    .map_err(|error| PgError::corrupt("column wallet", error))?,
                receipt_id: ReceiptId::from_stored(id),
                total: Cents::new(rows::get(&row, "total_cents")?),
                paid: rows::get::<i64>(&row, "paid_cents")? > 0,
                received: rows::parsed(&row, "received_units", TokenAmount::parse_base_units)?,
                transfers: transfer.into_iter().collect(),
            },
        );
    }
    Ok(grouped.into_values().collect())
}

async fn settlements_due(
    client: PgClient,
    now_ms: i64,
    limit: u32,
    finalized_only: bool,
) -> Result<Vec<SettlementDue>, PgError> {
    let statement = client.prepare_cached(SETTLEMENTS_DUE).await?;
    client
        .query(&statement, &[&now_ms, &i64::from(limit), &finalized_only])
        .await?
        .iter()
        .map(|row| {
            Ok(SettlementDue {
                merchant: rows::parsed(row, "wallet", Wallet::parse)?,
                receipt_id: ReceiptId::from_stored(rows::get(row, "public_id")?),
                split: rows::parsed(row, "pay_split", Wallet::parse)?,
                attempts: u32::try_from(rows::get::<i32>(row, "attempts")?)
                    .map_err(|error| PgError::corrupt("column attempts", error))?,
            })
        })
        .collect()
}

async fn deposit_transfers(
    client: PgClient,
    chain_id: u64,
    to: Wallet,
) -> Result<Vec<RecordedTransfer>, PgError> {
    let statement = client.prepare_cached(DEPOSIT_TRANSFERS).await?;
    let rows = client
        .query(&statement, &[&to.to_string(), &as_i64(chain_id)?])
        .await?;
    rows.iter().map(transfer_from_row).collect()
}

async fn record_settlement_failure(client: PgClient, failure: &SettlementFailure) -> Result<(), PgError> {
    let statement = client.prepare_cached(RECORD_FAILURE).await?;
    let attempts = i32::try_from(failure.attempts).unwrap_or(i32::MAX);
    client
        .execute(
            &statement,
            &[
                &failure.merchant.to_string(),
                &failure.receipt_id.as_str(),
                &attempts,
                &failure.next_attempt_at,
                &failure.error,
                &failure.now_ms,
            ],
        )
        .await?;
    Ok(())
}

async fn fetch_settlement(
    client: PgClient,
    merchant: Wallet,
    id: &ReceiptId,
) -> Result<Option<SettlementState>, PgError> {
    let statement = client.prepare_cached(FETCH_SETTLEMENT).await?;
    let row = client
        .query_opt(&statement, &[&merchant.to_string(), &id.as_str()])
        .await?;
    row.map(|row| {
        Ok(SettlementState {
            attempts: u32::try_from(rows::get::<i32>(&row, "attempts")?)
                .map_err(|error| PgError::corrupt("column attempts", error))?,
            last_error: rows::get(&row, "last_error")?,
            next_attempt_at: rows::get(&row, "next_attempt_at")?,
        })
    })
    .transpose()
}

#[async_trait]
impl ChainRepository for PgStore {
    async fn fetch_cursor(&self, chain_id: u64) -> Result<Option<ChainCursor>, StoreError> {
        self.run(|client| Box::pin(fetch_cursor(client, chain_id))).await
    }

    async fn record_scan(
        &self,
        chain_id: u64,
        transfers: &[RecordedTransfer],
        cursor: &ChainCursor,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        self.run(|client| Box::pin(record_scan(client, chain_id, transfers, cursor, now_ms)))
            .await
    }

    async fn open_deposits(&self, since_ms: i64) -> Result<Vec<Wallet>, StoreError> {
        self.run(|client| Box::pin(open_deposits(client, since_ms))).await
    }

    async fn deposit_transfers(
        &self,
        chain_id: u64,
        to: Wallet,
    ) -> Result<Vec<RecordedTransfer>, StoreError> {
        self.run(|client| Box::pin(deposit_transfers(client, chain_id, to)))
            .await
    }

    async fn funded_deposits(&self, chain_id: u64, since_ms: i64) -> Result<Vec<FundedDeposit>, StoreError> {
        self.run(|client| Box::pin(funded_deposits(client, chain_id, since_ms)))
            .await
    }

    async fn settlements_due(
        &self,
        now_ms: i64,
        limit: u32,
        finalized_only: bool,
    ) -> Result<Vec<SettlementDue>, StoreError> {
        self.run(|client| Box::pin(settlements_due(client, now_ms, limit, finalized_only)))
            .await
    }

    async fn unfinalized_transfers(
        &self,
        chain_id: u64,
        finalized_block: u64,
        limit: u32,
    ) -> Result<Vec<UnfinalizedTransfer>, StoreError> {
        self.run(|client| {
            Box::pin(finality::unfinalized_transfers(
                client,
                chain_id,
                finalized_block,
                limit,
            ))
        })
        .await
    }

    async fn record_recheck(&self, chain_id: u64, recheck: &Recheck, now_ms: i64) -> Result<(), StoreError> {
        self.run(|client| Box::pin(finality::record_recheck(client, chain_id, recheck, now_ms)))
            .await
    }

    async fn payment_block(
        &self,
        to: Wallet,
        transaction_hash: &str,
    ) -> Result<Option<PaymentBlock>, StoreError> {
        self.run(|client| Box::pin(finality::payment_block(client, to, transaction_hash)))
            .await
    }

    async fn record_settlement_failure(&self, failure: &SettlementFailure) -> Result<(), StoreError> {
        self.run(|client| Box::pin(record_settlement_failure(client, failure)))
            .await
    }

    async fn fetch_settlement(
        &self,
        merchant: Wallet,
        id: &ReceiptId,
    ) -> Result<Option<SettlementState>, StoreError> {
        self.run(|client| Box::pin(fetch_settlement(client, merchant, id)))
            .await
    }
}
