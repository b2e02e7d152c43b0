//! [`ReceiptStamp`] in one narrow statement: eight short columns and the split's address, where the full
//! read decodes 38 columns and three JSON documents. The `GET` of a receipt whose view the server rendered
//! before reads only this (docs/benchmarks.md). Concurrent reads go out together as one statement
//! ([`fetch_many`], through the store's [`super::batcher::Batcher`]).

use crate::ReceiptStamp;
use crate::postgres::connection::{PgClient, Queries};
use crate::postgres::error::PgError;
use crate::postgres::rows;
use payments_core::{Authority, ReceiptStatus, Wallet};
use payments_domain::receipt::{PaymentTarget, ReceiptId};
use tokio_postgres::Row;

/// One receipt's stamp (alone: a batch that failed as a whole, see [`super::batcher`]).
pub(super) async fn fetch(
    client: PgClient,
    wallet: Wallet,
    id: &ReceiptId,
) -> Result<Option<ReceiptStamp>, PgError> {
    let mut stamps = fetch_many(&client, &[(wallet, id.clone())]).await?;
    Ok(stamps.pop().flatten())
}

/// The stamps of many receipts in one statement: one per key, in order, `None` for a receipt not found.
/// Each key is looked up through the unique index (`public_id`, `wallet`) on its own (`LATERAL`), whatever
/// the batch's size, so the statement keeps one generic plan.
const FETCH_STAMPS: &str = "SELECT wanted.position, version, status, status_authority, pay_to, pay_split,
        transaction_hash, onramp_session_id, split.address AS split_address
    FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS wanted(public_id, wallet, position)
    CROSS JOIN LATERAL (SELECT version, status, status_authority, pay_to, pay_split, transaction_hash,
            onramp_session_id
        FROM receipts WHERE receipts.public_id = wanted.public_id AND receipts.wallet = wanted.wallet) found
    LEFT JOIN LATERAL (SELECT address FROM splits WHERE splits.wallet = wanted.wallet) split ON true";

/// A receipt named by its merchant and id.
pub(super) type StampKey = (Wallet, ReceiptId);

pub(super) async fn fetch_many(
    client: &impl Queries,
    keys: &[StampKey],
) -> Result<Vec<Option<ReceiptStamp>>, PgError> {
    let statement = client.prepare_cached(FETCH_STAMPS).await?;
    let ids: Vec<&str> = keys.iter().map(|(_, id)| id.as_str()).collect();
    let wallets: Vec<String> = keys.iter().map(|(wallet, _)| wallet.to_string()).collect();
    let rows = client.query(&statement, &[&ids, &wallets]).await?;
    let mut stamps: Vec<Option<ReceiptStamp>> = keys.iter().map(|_| None).collect();
    for row in rows {
        let position: i64 = rows::get(&row, "position")?;
        let slot = position
            .checked_sub(1)
            .and_then(|index| usize::try_from(index).ok())
            .and_then(|index| stamps.get_mut(index))
            .ok_or_else(|| PgError::corrupt("a batch of stamps", format!("position {position}")))?;
        *slot = Some(stamp_of(&row)?);
    }
    Ok(stamps)
}

fn stamp_of(row: &Row) -> Result<ReceiptStamp, PgError> {
    let corrupt = |error: String| PgError::corrupt("a receipt's stamp", error);
    Ok(ReceiptStamp {
        version: rows::get(row, "version")?,
        status: rows::parsed(row, "status", str::parse::<ReceiptStatus>)?,
        status_authority: rows::parsed(row, "status_authority", str::parse::<Authority>)?,
        payment: PaymentTarget::from_stored(rows::get(row, "pay_to")?, rows::get(row, "pay_split")?)
            .map_err(|error| corrupt(format!("payment target: {error}")))?,
        transaction_hash: rows::get(row, "transaction_hash")?,
        onramp_session_id: rows::get(row, "onramp_session_id")?,
        split_address: rows::get::<Option<&str>>(row, "split_address")?
            .map(Wallet::parse)
            .transpose()
            .map_err(|error| corrupt(format!("split address: {error}")))?,
    })
}
