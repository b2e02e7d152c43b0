//! [`ReceiptStamp`] in one narrow statement: eight short columns and the split's address, where the full
//! read decodes 38 columns and three JSON documents. The `GET` of a receipt whose view the server rendered
//! before reads only this (docs/benchmarks.md).

use crate::ReceiptStamp;
use crate::postgres::connection::{PgClient, Queries};
use crate::postgres::error::PgError;
use crate::postgres::rows;
use payments_core::{Authority, ReceiptStatus, Wallet};
use payments_domain::receipt::{PaymentTarget, ReceiptId};

/// Keyed like the full read (`public_id`, `wallet`: the unique index), so it keeps one generic plan.
const FETCH_STAMP: &str = "SELECT version, status, status_authority, pay_to, pay_split, transaction_hash,
        onramp_session_id, split.address AS split_address
    FROM receipts
    LEFT JOIN LATERAL (SELECT address FROM splits WHERE splits.wallet = $2) split ON true
    WHERE public_id = $1 AND wallet = $2";

pub(super) async fn fetch(
    client: PgClient,
    wallet: Wallet,
    id: &ReceiptId,
) -> Result<Option<ReceiptStamp>, PgError> {
    let statement = client.prepare_cached(FETCH_STAMP).await?;
    let wallet_text = wallet.to_string();
    let row = client
        .query_opt(&statement, &[&id.as_str(), &wallet_text.as_str()])
        .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    let corrupt = |error: String| PgError::corrupt("a receipt's stamp", error);
    Ok(Some(ReceiptStamp {
        version: rows::get(&row, "version")?,
        status: rows::parsed(&row, "status", str::parse::<ReceiptStatus>)?,
        status_authority: rows::parsed(&row, "status_authority", str::parse::<Authority>)?,
        payment: PaymentTarget::from_stored(rows::get(&row, "pay_to")?, rows::get(&row, "pay_split")?)
            .map_err(|error| corrupt(format!("payment target: {error}")))?,
        transaction_hash: rows::get(&row, "transaction_hash")?,
        onramp_session_id: rows::get(&row, "onramp_session_id")?,
        split_address: rows::get::<Option<&str>>(&row, "split_address")?
            .map(Wallet::parse)
            .transpose()
            .map_err(|error| corrupt(format!("split address: {error}")))?,
    }))
}
