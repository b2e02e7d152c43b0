//! Shop configuration.

use payments_core::Wallet;

use crate::app::AppState;
use crate::domain::shop::ShopConfig;
use crate::store::{self, StoreError};

/// The merchant's stored configuration, or the defaults when it never saved one.
pub(crate) async fn config(state: &AppState, wallet: Wallet) -> Result<ShopConfig, StoreError> {
    let stored = store::blocking(&state.store, move |store| store.fetch_shop_config(wallet)).await?;
    Ok(stored.unwrap_or_else(|| ShopConfig::default_for(wallet)))
}
