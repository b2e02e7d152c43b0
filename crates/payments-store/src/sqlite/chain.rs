//! The chain workers' tables: the watcher's cursor, recorded deposit transfers, settlement attempts.

use std::collections::BTreeMap;

use payments_core::{Cents, PaymentBlock, TokenAmount, Wallet};
use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::rows::ChainTransferRow;
use crate::sqlite::{finality, rows};
use crate::{
    ChainCursor, FundedDeposit, Recheck, RecordedTransfer, SettlementDue, SettlementFailure, SettlementState,
    StoreError, UnfinalizedTransfer,
};
use payments_domain::receipt::ReceiptId;

const FETCH_CURSOR: &str = "SELECT next_block, last_block_hash FROM chain_cursors WHERE chain_id = ?1";
const SAVE_CURSOR: &str = "INSERT INTO chain_cursors (chain_id, next_block, last_block_hash, updated_at)
    VALUES (?1, ?2, ?3, ?4)
    ON CONFLICT (chain_id) DO UPDATE SET next_block = excluded.next_block,
        last_block_hash = excluded.last_block_hash, updated_at = excluded.updated_at";
/// A log seen again (a rescan after a crash or a reorg, the watcher's re-check) is the same log: nothing is
/// counted twice; it is recorded where it is now (a reorganisation may have moved it to another block or
/// brought it back after removing it).
const INSERT_TRANSFER: &str = "INSERT INTO chain_transfers (chain_id, transaction_hash, log_index,
        block_number, block_hash, token, from_wallet, to_wallet, amount, recorded_at)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
    ON CONFLICT (chain_id, transaction_hash, log_index) DO UPDATE SET block_number = excluded.block_number,
        block_hash = excluded.block_hash, removed = 0";
/// Paid receipts too: a second payment after paid is recorded and listed, never left unseen
/// (docs/money.md).
const OPEN_DEPOSITS: &str = "SELECT DISTINCT pay_to FROM receipts
    WHERE pay_to IS NOT NULL AND COALESCE(expires_at, created_at) >= ?1";
const TRANSFER_COLUMNS: &str = "t.transaction_hash, t.log_index, t.block_number, t.block_hash, t.token,
    t.from_wallet, t.to_wallet, t.amount";
const DEPOSIT_TRANSFERS: &str = "SELECT transaction_hash, log_index, block_number, block_hash, token,
        from_wallet, to_wallet, amount
    FROM chain_transfers WHERE to_wallet = ?1 AND chain_id = ?2 AND removed = 0
    ORDER BY block_number, log_index";
const SETTLEMENTS_DUE: &str = "SELECT r.wallet, r.public_id, r.pay_split, COALESCE(s.attempts, 0)
    FROM receipts r LEFT JOIN settlements s ON s.receipt_id = r.id
    WHERE r.status = 'paid' AND r.status_authority = 'chain' AND r.pay_to IS NOT NULL
        AND (s.receipt_id IS NULL OR s.next_attempt_at <= ?1)
        AND (?3 = 0 OR NOT EXISTS (SELECT 1 FROM chain_transfers t
            LEFT JOIN chain_cursors c ON c.chain_id = t.chain_id
            WHERE t.to_wallet = r.pay_to AND t.removed = 0
                AND (c.finalized_block IS NULL OR t.block_number > c.finalized_block)))
    ORDER BY r.id LIMIT ?2";
const RECORD_FAILURE: &str =
    "INSERT INTO settlements (receipt_id, attempts, next_attempt_at, last_error, updated_at)
    SELECT id, ?3, ?4, ?5, ?6 FROM receipts WHERE wallet = ?1 AND public_id = ?2
    ON CONFLICT (receipt_id) DO UPDATE SET attempts = excluded.attempts,
        next_attempt_at = excluded.next_attempt_at, last_error = excluded.last_error,
        updated_at = excluded.updated_at";

const FETCH_SETTLEMENT: &str = "SELECT s.attempts, s.last_error, s.next_attempt_at
    FROM settlements s JOIN receipts r ON r.id = s.receipt_id WHERE r.wallet = ?1 AND r.public_id = ?2";

fn funded_query() -> String {
    format!(
        "SELECT r.wallet, r.public_id, r.total_cents, r.paid_cents, r.received_units, {TRANSFER_COLUMNS},
            t.removed
        FROM receipts r JOIN chain_transfers t ON t.to_wallet = r.pay_to AND t.chain_id = ?1
        WHERE r.pay_to IS NOT NULL AND (r.paid_cents = 0 OR COALESCE(r.expires_at, r.created_at) >= ?2)
        ORDER BY r.id, t.block_number, t.log_index"
    )
}

pub(super) fn transfer_from_row(row: &Row<'_>, first: usize) -> rusqlite::Result<RecordedTransfer> {
    ChainTransferRow {
        transaction_hash: row.get(first)?,
        log_index: row.get(first + 1)?,
        block_number: row.get(first + 2)?,
        block_hash: row.get(first + 3)?,
        token: row.get(first + 4)?,
        from_wallet: row.get(first + 5)?,
        to_wallet: row.get(first + 6)?,
        amount: row.get(first + 7)?,
    }
    .into_record()
    .map_err(|error| rows::corrupt(first, error))
}

/// Block numbers and log indexes come from the node as u64 but SQLite integers are i64: a value past i64 is
/// not a real block and is refused rather than wrapped.
pub(super) fn as_i64(value: u64) -> rusqlite::Result<i64> {
    i64::try_from(value).map_err(|error| rusqlite::Error::ToSqlConversionFailure(Box::new(error)))
}

pub(super) fn fetch_cursor(conn: &Connection, chain_id: u64) -> rusqlite::Result<Option<ChainCursor>> {
    conn.prepare_cached(FETCH_CURSOR)?
        .query_row([as_i64(chain_id)?], |row| {
            Ok(ChainCursor {
                next_block: u64::try_from(row.get::<_, i64>(0)?).map_err(|e| rows::corrupt(0, e))?,
                last_block_hash: row.get(1)?,
            })
        })
        .optional()
}

pub(super) fn record_scan(
    tx: &Connection,
    chain_id: u64,
    transfers: &[RecordedTransfer],
    cursor: &ChainCursor,
    now_ms: i64,
) -> rusqlite::Result<()> {
    insert_transfers(tx, chain_id, transfers, now_ms)?;
    tx.prepare_cached(SAVE_CURSOR)?.execute(params![
        as_i64(chain_id)?,
        as_i64(cursor.next_block)?,
        cursor.last_block_hash,
        now_ms
    ])?;
    Ok(())
}

/// Records `transfers` where they are now (see [`INSERT_TRANSFER`]).
pub(super) fn insert_transfers(
    tx: &Connection,
    chain_id: u64,
    transfers: &[RecordedTransfer],
    now_ms: i64,
) -> rusqlite::Result<()> {
    let chain = as_i64(chain_id)?;
    let mut insert = tx.prepare_cached(INSERT_TRANSFER)?;
    for transfer in transfers {
        insert.execute(params![
            chain,
            transfer.transaction_hash,
            as_i64(transfer.log_index)?,
            as_i64(transfer.block_number)?,
            transfer.block_hash,
            transfer.token.to_string(),
            transfer.from.to_string(),
            transfer.to.to_string(),
            transfer.amount.map(|amount| amount.to_string()),
            now_ms,
        ])?;
    }
    Ok(())
}

pub(super) fn open_deposits(conn: &Connection, since_ms: i64) -> rusqlite::Result<Vec<Wallet>> {
    conn.prepare_cached(OPEN_DEPOSITS)?
        .query_map([since_ms], |row| rows::parsed(row, 0, Wallet::parse))?
        .collect()
}

pub(super) fn funded_deposits(
    conn: &Connection,
    chain_id: u64,
    since_ms: i64,
) -> rusqlite::Result<Vec<FundedDeposit>> {
    let mut statement = conn.prepare_cached(&funded_query())?;
    let mut grouped: BTreeMap<(String, String), FundedDeposit> = BTreeMap::new();
    let rows = statement.query_map(params![as_i64(chain_id)?, since_ms], |row| {
        let merchant: String = row.get(0)?;
        let id: String = row.get(1)?;
        let balance = (
            row.get::<_, i64>(2)?,
            row.get::<_, i64>(3)? > 0,
            rows::parsed(row, 4, TokenAmount::parse_base_units)?,
        );
        let removed = row.get::<_, bool>(13)?;
        Ok((
            merchant,
            id,
            balance,
            (!removed).then_some(transfer_from_row(row, 5)?),
        ))
    })?;
    for row in rows {
        let (merchant, id, (total, paid, received), transfer) = row?;
        let key = (merchant.clone(), id.clone());
        if let Some(deposit) = grouped.get_mut(&key) {
            deposit.transfers.extend(transfer);
            continue;
        }
        let merchant = Wallet::parse(&merchant).map_err(|e| rows::corrupt(0, e))?;
        grouped.insert(
            key,
            FundedDeposit {
                merchant,
                receipt_id: ReceiptId::from_stored(id),
                total: Cents::new(total),
                paid,
                received,
                transfers: transfer.into_iter().collect(),
            },
        );
    }
    Ok(grouped.into_values().collect())
}

pub(super) fn deposit_transfers(
    conn: &Connection,
    chain_id: u64,
    to: Wallet,
) -> rusqlite::Result<Vec<RecordedTransfer>> {
    conn.prepare_cached(DEPOSIT_TRANSFERS)?
        .query_map(params![to.to_string(), as_i64(chain_id)?], |row| {
            transfer_from_row(row, 0)
        })?
        .collect()
}

pub(super) fn settlements_due(
    conn: &Connection,
    now_ms: i64,
    limit: u32,
    finalized_only: bool,
) -> rusqlite::Result<Vec<SettlementDue>> {
    conn.prepare_cached(SETTLEMENTS_DUE)?
        .query_map(params![now_ms, limit, finalized_only], |row| {
            Ok(SettlementDue {
                merchant: rows::parsed(row, 0, Wallet::parse)?,
                receipt_id: ReceiptId::from_stored(row.get(1)?),
                split: rows::parsed(row, 2, Wallet::parse)?,
                attempts: row.get(3)?,
            })
        })?
        .collect()
}

pub(super) fn record_settlement_failure(
    tx: &Connection,
    failure: &SettlementFailure,
) -> rusqlite::Result<()> {
    tx.prepare_cached(RECORD_FAILURE)?.execute(params![
        failure.merchant.to_string(),
        failure.receipt_id.as_str(),
        failure.attempts,
        failure.next_attempt_at,
        failure.error,
        failure.now_ms,
    ])?;
    Ok(())
}

pub(super) fn fetch_settlement(
    conn: &Connection,
    merchant: Wallet,
    id: &ReceiptId,
) -> rusqlite::Result<Option<SettlementState>> {
    conn.prepare_cached(FETCH_SETTLEMENT)?
        .query_row(params![merchant.to_string(), id.as_str()], |row| {
            Ok(SettlementState {
                attempts: row.get(0)?,
                last_error: row.get(1)?,
                next_attempt_at: row.get(2)?,
            })
        })
        .optional()
}

#[async_trait::async_trait]
impl crate::ChainRepository for super::SqliteStore {
    async fn fetch_cursor(&self, chain_id: u64) -> Result<Option<ChainCursor>, StoreError> {
        self.read(move |conn| fetch_cursor(conn, chain_id)).await
    }

    async fn record_scan(
        &self,
        chain_id: u64,
        transfers: &[RecordedTransfer],
        cursor: &ChainCursor,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        let (transfers, cursor) = (transfers.to_vec(), cursor.clone());
        self.write(move |conn| record_scan(conn, chain_id, &transfers, &cursor, now_ms))
            .await
    }

    async fn open_deposits(&self, since_ms: i64) -> Result<Vec<Wallet>, StoreError> {
        self.read(move |conn| open_deposits(conn, since_ms)).await
    }

    async fn deposit_transfers(
        &self,
        chain_id: u64,
        to: Wallet,
    ) -> Result<Vec<RecordedTransfer>, StoreError> {
        self.read_point(move |conn| deposit_transfers(conn, chain_id, to))
            .await
    }

    async fn funded_deposits(&self, chain_id: u64, since_ms: i64) -> Result<Vec<FundedDeposit>, StoreError> {
        self.read(move |conn| funded_deposits(conn, chain_id, since_ms))
            .await
    }

    async fn settlements_due(
        &self,
        now_ms: i64,
        limit: u32,
        finalized_only: bool,
    ) -> Result<Vec<SettlementDue>, StoreError> {
        self.read(move |conn| settlements_due(conn, now_ms, limit, finalized_only))
            .await
    }

    async fn unfinalized_transfers(
        &self,
        chain_id: u64,
        finalized_block: u64,
        limit: u32,
    ) -> Result<Vec<UnfinalizedTransfer>, StoreError> {
        self.read(move |conn| finality::unfinalized_transfers(conn, chain_id, finalized_block, limit))
            .await
    }

    async fn record_recheck(&self, chain_id: u64, recheck: &Recheck, now_ms: i64) -> Result<(), StoreError> {
        let recheck = recheck.clone();
        self.write(move |conn| finality::record_recheck(conn, chain_id, &recheck, now_ms))
            .await
    }

    async fn payment_block(
        &self,
        to: Wallet,
        transaction_hash: &str,
    ) -> Result<Option<PaymentBlock>, StoreError> {
        let transaction_hash = transaction_hash.to_owned();
        self.read_point(move |conn| finality::payment_block(conn, to, &transaction_hash))
            .await
    }

    async fn record_settlement_failure(&self, failure: &SettlementFailure) -> Result<(), StoreError> {
        let failure = failure.clone();
        self.write(move |conn| record_settlement_failure(conn, &failure))
            .await
    }

    async fn fetch_settlement(
        &self,
        merchant: Wallet,
        id: &ReceiptId,
    ) -> Result<Option<SettlementState>, StoreError> {
        let id = id.clone();
        self.read_point(move |conn| fetch_settlement(conn, merchant, &id))
            .await
    }
}
