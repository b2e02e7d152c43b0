//! The merchant's configuration a use case's decision reads, inside its transaction.

use crate::postgres::connection::Queries;
use payments_core::Wallet;

use crate::MerchantSnapshot;
use crate::postgres::error::PgError;
use crate::postgres::{shops, splits};

/// The split and the shop settings in one statement (one executor start-up on the database instead of
/// two; each side NULL when the merchant has none). One row always: the join hangs off a constant.
const SNAPSHOT: &str =
    "SELECT split.split_address, split.split_recipients_json, shop.wallet, shop.brand_name,
        shop.processing_fee_pct, shop.brand_key, shop.support_email, shop.logo_url, shop.redirect_url,
        shop.jurisdictions_json, shop.default_jurisdiction
    FROM (SELECT 1) merchant
    LEFT JOIN LATERAL (SELECT address AS split_address, recipients_json AS split_recipients_json
        FROM splits WHERE splits.wallet = $1) split ON true
    LEFT JOIN shops shop ON shop.wallet = $1";

pub(super) async fn snapshot(tx: &impl Queries, wallet: Wallet) -> Result<MerchantSnapshot, PgError> {
    let statement = tx.prepare_cached(SNAPSHOT).await?;
    let row = tx.query_one(&statement, &[&wallet.to_string()]).await?;
    Ok(MerchantSnapshot {
        split: splits::joined_split(&row)?,
        shop: shops::joined_shop(&row)?,
    })
}
