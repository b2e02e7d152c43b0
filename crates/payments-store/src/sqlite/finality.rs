//! The watcher's re-check of recorded transfers above the final block (docs/money.md, "Finality and
//! reorganisations"): which to re-check, what it found, and where a paid receipt's payment stands.

use payments_core::{PaymentBlock, Wallet};
use rusqlite::{Connection, OptionalExtension, params};

use crate::sqlite::chain::{as_i64, insert_transfers, transfer_from_row};
use crate::sqlite::rows;
use crate::{Recheck, UnfinalizedTransfer};

const UNFINALIZED: &str = "SELECT transaction_hash, log_index, block_number, block_hash, token, from_wallet,
        to_wallet, amount, removed
    FROM chain_transfers WHERE chain_id = ?1 AND block_number > ?2
    ORDER BY block_number, log_index LIMIT ?3";
/// Only once the watcher has a cursor: before its first scan nothing is recorded to re-check.
const SAVE_TIP: &str = "UPDATE chain_cursors SET head_block = ?2, finalized_block = ?3, updated_at = ?4
    WHERE chain_id = ?1";
const MARK_REMOVED: &str = "UPDATE chain_transfers SET removed = 1
    WHERE chain_id = ?1 AND transaction_hash = ?2 AND log_index = ?3";
const PAYMENT_BLOCK: &str = "SELECT t.block_number, t.block_hash, c.head_block, c.finalized_block
    FROM chain_transfers t JOIN chain_cursors c ON c.chain_id = t.chain_id
    WHERE t.to_wallet = ?1 AND t.transaction_hash = ?2 AND t.removed = 0
        AND c.head_block IS NOT NULL AND c.finalized_block IS NOT NULL
    ORDER BY t.log_index LIMIT 1";

fn block(row: &rusqlite::Row<'_>, index: usize) -> rusqlite::Result<u64> {
    u64::try_from(row.get::<_, i64>(index)?).map_err(|e| rows::corrupt(index, e))
}

pub(super) fn unfinalized_transfers(
    conn: &Connection,
    chain_id: u64,
    finalized_block: u64,
    limit: u32,
) -> rusqlite::Result<Vec<UnfinalizedTransfer>> {
    conn.prepare_cached(UNFINALIZED)?
        .query_map(
            params![as_i64(chain_id)?, as_i64(finalized_block)?, limit],
            |row| {
                Ok(UnfinalizedTransfer {
                    transfer: transfer_from_row(row, 0)?,
                    removed: row.get(8)?,
                })
            },
        )?
        .collect()
}

pub(super) fn record_recheck(
    tx: &Connection,
    chain_id: u64,
    recheck: &Recheck,
    now_ms: i64,
) -> rusqlite::Result<()> {
    let chain = as_i64(chain_id)?;
    tx.prepare_cached(SAVE_TIP)?.execute(params![
        chain,
        as_i64(recheck.tip.head)?,
        as_i64(recheck.tip.finalized)?,
        now_ms
    ])?;
    let mut remove = tx.prepare_cached(MARK_REMOVED)?;
    for key in &recheck.removed {
        remove.execute(params![chain, key.transaction_hash, as_i64(key.log_index)?])?;
    }
    insert_transfers(tx, chain_id, &recheck.present, now_ms)
}

pub(super) fn payment_block(
    conn: &Connection,
    to: Wallet,
    transaction_hash: &str,
) -> rusqlite::Result<Option<PaymentBlock>> {
    conn.prepare_cached(PAYMENT_BLOCK)?
        .query_row(params![to.to_string(), transaction_hash], |row| {
            Ok(PaymentBlock::at(
                block(row, 0)?,
                row.get(1)?,
                block(row, 2)?,
                block(row, 3)?,
            ))
        })
        .optional()
}
