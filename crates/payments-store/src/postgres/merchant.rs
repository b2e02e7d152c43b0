//! The merchant's configuration a use case's decision reads, inside its transaction.

use crate::postgres::connection::Queries;
use futures_util::future::try_join;
use payments_core::Wallet;

use crate::MerchantSnapshot;
use crate::postgres::error::PgError;
use crate::postgres::{shops, splits};

/// The split and the shop settings, read together: `tokio-postgres` pipelines the two queries on the
/// connection (one round trip instead of two).
pub(super) async fn snapshot(tx: &impl Queries, wallet: Wallet) -> Result<MerchantSnapshot, PgError> {
    let (split, shop) = try_join(splits::fetch(tx, wallet), shops::fetch(tx, wallet)).await?;
    Ok(MerchantSnapshot { split, shop })
}
