//! Shop configuration rows (one per merchant wallet) and [`ShopRepository`], whose split half lives in
//! [`super::splits`].

use crate::postgres::connection::{PgClient, Queries};
use async_trait::async_trait;
use payments_core::{FeePct, Wallet};
use tokio_postgres::Row;

use crate::postgres::error::PgError;
use crate::postgres::{PgStore, rows, splits};
use crate::rows::ShopRow;
use crate::{ShopRepository, StoreError};
use payments_domain::shop::ShopConfig;
use payments_domain::split::{ArchivedSplit, SplitSaved, StoredSplit};

const FETCH: &str = "SELECT wallet, brand_name, processing_fee_pct, brand_key, support_email, logo_url,
        redirect_url, jurisdictions_json, default_jurisdiction
    FROM shops WHERE wallet = $1";
/// One atomic upsert: concurrent first saves of a merchant cannot both insert.
const SAVE: &str = "INSERT INTO shops (wallet, brand_name, processing_fee_pct, brand_key, support_email,
        logo_url, redirect_url, jurisdictions_json, default_jurisdiction, created_at, updated_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)
    ON CONFLICT (wallet) DO UPDATE SET brand_name = excluded.brand_name,
        processing_fee_pct = excluded.processing_fee_pct, brand_key = excluded.brand_key,
        support_email = excluded.support_email, logo_url = excluded.logo_url,
        redirect_url = excluded.redirect_url, jurisdictions_json = excluded.jurisdictions_json,
        default_jurisdiction = excluded.default_jurisdiction, updated_at = excluded.updated_at";
/// Changes the fee only, so a pricing update cannot overwrite a concurrent shop-config save.
const SAVE_FEE: &str = "INSERT INTO shops (wallet, processing_fee_pct, created_at, updated_at)
    VALUES ($1, $2, $3, $3)
    ON CONFLICT (wallet) DO UPDATE SET processing_fee_pct = excluded.processing_fee_pct,
        updated_at = excluded.updated_at";

/// The fee percentage is stored as decimal text so it reads back exactly.
fn shop_from_row(row: &Row) -> Result<ShopConfig, PgError> {
    ShopRow {
        wallet: rows::get(row, "wallet")?,
        brand_name: rows::get(row, "brand_name")?,
        processing_fee_pct: rows::get(row, "processing_fee_pct")?,
        brand_key: rows::get(row, "brand_key")?,
        support_email: rows::get(row, "support_email")?,
        logo_url: rows::get(row, "logo_url")?,
        redirect_url: rows::get(row, "redirect_url")?,
        jurisdictions_json: rows::get(row, "jurisdictions_json")?,
        default_jurisdiction: rows::get(row, "default_jurisdiction")?,
    }
    .into_record()
    .map_err(|error| PgError::corrupt("a shop", error))
}

/// The shop a merchant read joined in: none when its columns are NULL (no settings saved).
pub(super) fn joined_shop(row: &Row) -> Result<Option<ShopConfig>, PgError> {
    let saved: Option<&str> = rows::get(row, "wallet")?;
    saved.map(|_| shop_from_row(row)).transpose()
}

pub(super) async fn fetch(client: &impl Queries, wallet: Wallet) -> Result<Option<ShopConfig>, PgError> {
    let statement = client.prepare_cached(FETCH).await?;
    let row = client.query_opt(&statement, &[&wallet.to_string()]).await?;
    row.map(|row| shop_from_row(&row)).transpose()
}

async fn save(client: PgClient, config: &ShopConfig, now_ms: i64) -> Result<(), PgError> {
    let statement = client.prepare_cached(SAVE).await?;
    client
        .execute(
            &statement,
            &[
                &config.wallet.to_string(),
                &config.brand_name,
                &config.processing_fee_pct.to_string(),
                &config.brand_key,
                &config.support_email,
                &config.logo_url,
                &config.redirect_url,
                &rows::to_json(&config.jurisdictions)?,
                &config.default_jurisdiction,
                &now_ms,
            ],
        )
        .await?;
    Ok(())
}

async fn save_fee(client: PgClient, wallet: Wallet, fee: FeePct, now_ms: i64) -> Result<(), PgError> {
    let statement = client.prepare_cached(SAVE_FEE).await?;
    client
        .execute(&statement, &[&wallet.to_string(), &fee.to_string(), &now_ms])
        .await?;
    Ok(())
}

#[async_trait]
impl ShopRepository for PgStore {
    async fn fetch_shop(&self, wallet: Wallet) -> Result<Option<ShopConfig>, StoreError> {
        self.run(|client| Box::pin(async move { fetch(&client, wallet).await }))
            .await
    }

    async fn save_shop(&self, config: &ShopConfig, now_ms: i64) -> Result<(), StoreError> {
        self.run(|client| Box::pin(save(client, config, now_ms))).await
    }

    async fn save_processing_fee(&self, wallet: Wallet, fee: FeePct, now_ms: i64) -> Result<(), StoreError> {
        self.run(|client| Box::pin(save_fee(client, wallet, fee, now_ms)))
            .await
    }

    async fn fetch_split(&self, wallet: Wallet) -> Result<Option<StoredSplit>, StoreError> {
        self.run(|client| Box::pin(async move { splits::fetch(&client, wallet).await }))
            .await
    }

    async fn save_split(
        &self,
        wallet: Wallet,
        split: &StoredSplit,
        replace: bool,
        now_ms: i64,
    ) -> Result<SplitSaved, StoreError> {
        self.run(|client| Box::pin(splits::save(client, wallet, split, replace, now_ms)))
            .await
    }

    async fn list_split_history(&self, wallet: Wallet) -> Result<Vec<ArchivedSplit>, StoreError> {
        self.run(|client| Box::pin(splits::history(client, wallet))).await
    }
}
