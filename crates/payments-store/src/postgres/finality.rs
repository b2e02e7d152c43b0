//! The watcher's re-check of recorded transfers above the final block on PostgreSQL (the statements mirror
//! `sqlite/finality.rs`).

use payments_core::{PaymentBlock, Wallet};

use crate::postgres::chain::{as_i64, as_u64, insert_transfers, transfer_from_row};
use crate::postgres::connection::{PgClient, Queries};
use crate::postgres::error::PgError;
use crate::postgres::rows;
use crate::{Recheck, UnfinalizedTransfer};

const UNFINALIZED: &str = "SELECT transaction_hash, log_index, block_number, block_hash, token, from_wallet,
        to_wallet, amount, removed
    FROM chain_transfers WHERE chain_id = $1 AND block_number > $2
    ORDER BY block_number, log_index LIMIT $3";
/// Only once the watcher has a cursor: before its first scan nothing is recorded to re-check.
const SAVE_TIP: &str = "UPDATE chain_cursors SET head_block = $2, finalized_block = $3, updated_at = $4
    WHERE chain_id = $1";
const MARK_REMOVED: &str = "UPDATE chain_transfers SET removed = TRUE
    WHERE chain_id = $1 AND transaction_hash = $2 AND log_index = $3";
const PAYMENT_BLOCK: &str = "SELECT t.block_number, t.block_hash, c.head_block, c.finalized_block
    FROM chain_transfers t JOIN chain_cursors c ON c.chain_id = t.chain_id
    WHERE t.to_wallet = $1 AND t.transaction_hash = $2 AND NOT t.removed
        AND c.head_block IS NOT NULL AND c.finalized_block IS NOT NULL
    ORDER BY t.log_index LIMIT 1";

pub(super) async fn unfinalized_transfers(
    client: PgClient,
    chain_id: u64,
    finalized_block: u64,
    limit: u32,
) -> Result<Vec<UnfinalizedTransfer>, PgError> {
    let statement = client.prepare_cached(UNFINALIZED).await?;
    client
        .query(
            &statement,
            &[&as_i64(chain_id)?, &as_i64(finalized_block)?, &i64::from(limit)],
        )
        .await?
        .iter()
        .map(|row| {
            Ok(UnfinalizedTransfer {
                transfer: transfer_from_row(row)?,
                removed: rows::get(row, "removed")?,
            })
        })
        .collect()
}

pub(super) async fn record_recheck(
    mut client: PgClient,
    chain_id: u64,
    recheck: &Recheck,
    now_ms: i64,
) -> Result<(), PgError> {
    let chain = as_i64(chain_id)?;
    let tx = client.transaction().await?;
    let save = tx.prepare_cached(SAVE_TIP).await?;
    tx.execute(
        &save,
        &[
            &chain,
            &as_i64(recheck.tip.head)?,
            &as_i64(recheck.tip.finalized)?,
            &now_ms,
        ],
    )
    .await?;
    let remove = tx.prepare_cached(MARK_REMOVED).await?;
    for key in &recheck.removed {
        tx.execute(&remove, &[&chain, &key.transaction_hash, &as_i64(key.log_index)?])
            .await?;
    }
    insert_transfers(&tx, chain_id, &recheck.present, now_ms).await?;
    tx.commit().await?;
    Ok(())
}

pub(super) async fn payment_block(
    client: PgClient,
    to: Wallet,
    transaction_hash: &str,
) -> Result<Option<PaymentBlock>, PgError> {
    let statement = client.prepare_cached(PAYMENT_BLOCK).await?;
    let row = client
        .query_opt(&statement, &[&to.to_string(), &transaction_hash])
        .await?;
    row.map(|row| {
        Ok(PaymentBlock::at(
            as_u64(&row, "block_number")?,
            rows::get(&row, "block_hash")?,
            as_u64(&row, "head_block")?,
            as_u64(&row, "finalized_block")?,
        ))
    })
    .transpose()
}
