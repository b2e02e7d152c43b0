//! The merchant's configuration a use case's decision reads, inside its transaction.

use crate::postgres::connection::Queries;
use payments_core::Wallet;

use crate::MerchantSnapshot;
use crate::postgres::error::PgError;
use crate::postgres::{shops, splits};

pub(super) async fn snapshot(tx: &impl Queries, wallet: Wallet) -> Result<MerchantSnapshot, PgError> {
    Ok(MerchantSnapshot {
        split: splits::fetch(tx, wallet).await?,
        shop: shops::fetch(tx, wallet).await?,
    })
}
