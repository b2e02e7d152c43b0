//! Reading receipts and their webhook deliveries.

use payments_core::Wallet;

use crate::app::AppState;
use crate::domain::receipt::ReceiptError;
use crate::domain::receipt::{Receipt, ReceiptId};
use crate::services::receipts::create::recipient;
use crate::store::{self, DeliveryLog, StoreError};

/// A merchant's receipt; another merchant's is not found.
pub(crate) async fn fetch(state: &AppState, wallet: Wallet, id: ReceiptId) -> Result<Receipt, ReceiptError> {
    let lookup = id.clone();
    store::blocking(&state.store, move |store| {
        store.fetch_receipt(Some(wallet), &lookup)
    })
    .await?
    .ok_or(ReceiptError::NotFound(id))
}

/// A merchant's receipts, or none marked degraded when the datastore does not answer (spec: the list answers
/// 200 with `degraded: true` rather than fail).
#[derive(Debug)]
pub(crate) struct ReceiptListing {
    /// Newest first.
    pub(crate) receipts: Vec<Receipt>,
    pub(crate) degraded: bool,
}

pub(crate) async fn list(
    state: &AppState,
    wallet: Wallet,
    limit: u32,
) -> Result<ReceiptListing, ReceiptError> {
    match store::blocking(&state.store, move |store| store.list_receipts(wallet, limit)).await {
        Ok(receipts) => Ok(ReceiptListing {
            receipts,
            degraded: false,
        }),
        Err(StoreError::Unavailable(reason)) => {
            tracing::warn!(reason = %reason, "receipts listed in degraded mode");
            Ok(ReceiptListing {
                receipts: Vec::new(),
                degraded: true,
            })
        }
        Err(other) => Err(other.into()),
    }
}

/// What the payment page shows: the receipt, the merchant's brand and the address to pay.
#[derive(Debug, Clone)]
pub(crate) struct PortalView {
    pub(crate) receipt: Receipt,
    pub(crate) brand_name: String,
    pub(crate) recipient: Wallet,
}

/// The payment page's unauthenticated lookup by id alone (ids are unguessable for orders; caller-assigned ids
/// are the merchant's choice). `None` when no receipt has this id.
pub(crate) async fn fetch_for_portal(
    state: &AppState,
    id: ReceiptId,
) -> Result<Option<PortalView>, ReceiptError> {
    let Some(receipt) = store::blocking(&state.store, move |store| store.fetch_receipt(None, &id)).await?
    else {
        return Ok(None);
    };
    let recipient = recipient(state, receipt.wallet).await?;
    Ok(Some(PortalView {
        brand_name: receipt.brand_name.clone(),
        recipient,
        receipt,
    }))
}

pub(crate) async fn list_deliveries(
    state: &AppState,
    wallet: Wallet,
    id: ReceiptId,
) -> Result<Vec<DeliveryLog>, ReceiptError> {
    let lookup = id.clone();
    store::blocking(&state.store, move |store| store.list_deliveries(wallet, &lookup))
        .await?
        .ok_or(ReceiptError::NotFound(id))
}

/// Enqueues a delivery's same body again, as a new round of attempts with the same delivery id.
pub(crate) async fn redeliver(
    state: &AppState,
    wallet: Wallet,
    id: ReceiptId,
    delivery: String,
) -> Result<(), ReceiptError> {
    let now_ms = state.clock.now_ms();
    let (lookup, delivery_id) = (id.clone(), delivery.clone());
    let found = store::blocking(&state.store, move |store| {
        store.redeliver(wallet, &lookup, &delivery_id, now_ms)
    })
    .await?;
    if found {
        state.receipts.wakeup.notify_one();
        Ok(())
    } else {
        Err(ReceiptError::DeliveryNotFound {
            receipt: id,
            delivery,
        })
    }
}
