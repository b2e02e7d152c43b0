//! Split configurations (one live row per merchant) and the history of replaced ones.

use payments_core::{Split, Wallet};
use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::sqlite::rows;
use payments_domain::split::{ArchivedSplit, SplitSaved, StoredSplit};

const FETCH: &str = "SELECT address, recipients_json FROM splits WHERE wallet = ?1";
const INSERT: &str =
    "INSERT INTO splits (wallet, address, recipients_json, created_at) VALUES (?1, ?2, ?3, ?4)";
const ARCHIVE: &str = "INSERT INTO split_history (wallet, address, recipients_json, created_at, archived_at)
    SELECT wallet, address, recipients_json, created_at, ?2 FROM splits WHERE wallet = ?1";
const DELETE: &str = "DELETE FROM splits WHERE wallet = ?1";
const HISTORY: &str = "SELECT address, recipients_json, created_at, archived_at FROM split_history
    WHERE wallet = ?1 ORDER BY id DESC";

/// Recipients are re-validated on the way out ([`Split`]'s `Deserialize` runs `Split::new`).
fn split_from_row(row: &Row<'_>) -> rusqlite::Result<StoredSplit> {
    Ok(StoredSplit {
        address: rows::parsed(row, 0, Wallet::parse)?,
        split: rows::json::<Split>(row, 1)?,
    })
}

pub(super) fn fetch(conn: &Connection, wallet: Wallet) -> rusqlite::Result<Option<StoredSplit>> {
    conn.prepare_cached(FETCH)?
        .query_row([wallet.to_string()], split_from_row)
        .optional()
}

/// Creates the merchant's split, or with `replace` archives the current one first. Without `replace` an
/// existing split wins and nothing is written (the idempotent deploy).
pub(super) fn save(
    tx: &Connection,
    wallet: Wallet,
    split: &StoredSplit,
    replace: bool,
    now_ms: i64,
) -> rusqlite::Result<SplitSaved> {
    let existing = tx
        .prepare_cached(FETCH)?
        .query_row([wallet.to_string()], split_from_row)
        .optional()?;
    let outcome = match existing {
        Some(current) if !replace => return Ok(SplitSaved::Existing(current)),
        Some(_) => {
            tx.prepare_cached(ARCHIVE)?
                .execute(params![wallet.to_string(), now_ms])?;
            tx.prepare_cached(DELETE)?.execute([wallet.to_string()])?;
            SplitSaved::Replaced(split.clone())
        }
        None => SplitSaved::Created(split.clone()),
    };
    let recipients = rows::to_json(&split.split)?;
    tx.prepare_cached(INSERT)?.execute(params![
        wallet.to_string(),
        split.address.to_string(),
        recipients,
        now_ms
    ])?;
    Ok(outcome)
}

pub(super) fn history(conn: &Connection, wallet: Wallet) -> rusqlite::Result<Vec<ArchivedSplit>> {
    let mut statement = conn.prepare(HISTORY)?;
    let archived = statement.query_map([wallet.to_string()], |row| {
        Ok(ArchivedSplit {
            split: split_from_row(row)?,
            created_at_ms: row.get(2)?,
            archived_at_ms: row.get(3)?,
        })
    })?;
    archived.collect()
}
