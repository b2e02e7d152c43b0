//! Split configurations (one live row per merchant, enforced by `UNIQUE (wallet)`) and the history of
//! replaced ones.

use crate::postgres::connection::{PgClient, Queries};
use payments_core::{Split, Wallet};
use tokio_postgres::Row;

use crate::postgres::error::PgError;
use crate::postgres::rows;
use payments_domain::split::{ArchivedSplit, SplitSaved, StoredSplit};

const FETCH: &str = "SELECT address, recipients_json FROM splits WHERE wallet = $1";
/// Held until the save commits, so a concurrent replace waits and then sees this save's result.
const LOCK: &str = "SELECT address, recipients_json FROM splits WHERE wallet = $1 FOR UPDATE";
/// A concurrent first deploy that committed meanwhile wins: nothing inserted, the save runs again.
const INSERT: &str =
    "INSERT INTO splits (wallet, address, recipients_json, created_at) VALUES ($1, $2, $3, $4)
    ON CONFLICT (wallet) DO NOTHING";
const ARCHIVE: &str = "INSERT INTO split_history (wallet, address, recipients_json, created_at, archived_at)
    SELECT wallet, address, recipients_json, created_at, $2 FROM splits WHERE wallet = $1";
const DELETE: &str = "DELETE FROM splits WHERE wallet = $1";
const HISTORY: &str = "SELECT address, recipients_json, created_at, archived_at FROM split_history
    WHERE wallet = $1 ORDER BY id DESC";

/// Recipients are re-validated on the way out ([`Split`]'s `Deserialize` runs `Split::new`).
fn split_from_row(row: &Row) -> Result<StoredSplit, PgError> {
    split_in_columns(row, "address", "recipients_json")
}

/// The split a receipt read joined in (`split_address`, `split_recipients_json`; both NULL without one).
pub(super) fn joined_split(row: &Row) -> Result<Option<StoredSplit>, PgError> {
    let joined: Option<&str> = rows::get(row, "split_address")?;
    joined
        .map(|_| split_in_columns(row, "split_address", "split_recipients_json"))
        .transpose()
}

fn split_in_columns(row: &Row, address: &str, recipients: &str) -> Result<StoredSplit, PgError> {
    Ok(StoredSplit {
        address: rows::parsed(row, address, Wallet::parse)?,
        split: rows::json::<Split>(row, recipients)?,
    })
}

pub(super) async fn fetch(client: &impl Queries, wallet: Wallet) -> Result<Option<StoredSplit>, PgError> {
    let statement = client.prepare_cached(FETCH).await?;
    let row = client.query_opt(&statement, &[&wallet.to_string()]).await?;
    row.map(|row| split_from_row(&row)).transpose()
}

/// Creates the merchant's split, or with `replace` archives the current one first. Without `replace` an
/// existing split wins and nothing is written (the idempotent deploy).
pub(super) async fn save(
    mut client: PgClient,
    wallet: Wallet,
    split: &StoredSplit,
    replace: bool,
    now_ms: i64,
) -> Result<SplitSaved, PgError> {
    let tx = client.transaction().await?;
    let wallet_text = wallet.to_string();
    let lock = tx.prepare_cached(LOCK).await?;
    let existing = tx
        .query_opt(&lock, &[&wallet_text])
        .await?
        .map(|row| split_from_row(&row))
        .transpose()?;
    let outcome = match existing {
        Some(current) if !replace => return Ok(SplitSaved::Existing(current)),
        Some(_) => {
            let archive = tx.prepare_cached(ARCHIVE).await?;
            tx.execute(&archive, &[&wallet_text, &now_ms]).await?;
            let delete = tx.prepare_cached(DELETE).await?;
            tx.execute(&delete, &[&wallet_text]).await?;
            SplitSaved::Replaced(split.clone())
        }
        None => SplitSaved::Created(split.clone()),
    };
    let insert = tx.prepare_cached(INSERT).await?;
    let recipients = rows::to_json(&split.split)?;
    let inserted = tx
        .execute(
            &insert,
            &[&wallet_text, &split.address.to_string(), &recipients, &now_ms],
        )
        .await?;
    if inserted == 0 {
        return Err(PgError::Contended("split deployed concurrently"));
    }
    tx.commit().await?;
    Ok(outcome)
}

pub(super) async fn history(client: PgClient, wallet: Wallet) -> Result<Vec<ArchivedSplit>, PgError> {
    let statement = client.prepare_cached(HISTORY).await?;
    let found = client.query(&statement, &[&wallet.to_string()]).await?;
    found
        .iter()
        .map(|row| {
            Ok(ArchivedSplit {
                split: split_from_row(row)?,
                created_at_ms: rows::get(row, "created_at")?,
                archived_at_ms: rows::get(row, "archived_at")?,
            })
        })
        .collect()
}
