//! Inventory use cases, always scoped to the caller's merchant wallet.

use payments_core::Wallet;
use thiserror::Error;

use std::sync::Arc;
use std::time::Duration;

use crate::clock::Clock;
use crate::domain::inventory::{
    ImageDataUrl, InventoryItem, InventoryPage, InventoryQuery, ItemDraft, MAX_IMAGES, ProductId, Sku,
};
use crate::domain::subscription::Caller;
use crate::store::{AttachOutcome, InventoryRepository, ItemUpsert, StoreError, UpsertOutcome};

#[derive(Debug, Error)]
pub(crate) enum InventoryError {
    #[error("the body's wallet is not the merchant of this subscription key")]
    WalletMismatch,
    #[error("no product with id {0}")]
    UnknownProduct(String),
    #[error("sku {0} already belongs to another product")]
    SkuTaken(String),
    #[error("no product with sku {0}")]
    UnknownSku(String),
    #[error("a product has at most {MAX_IMAGES} images")]
    TooManyImages,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A page of products, or an empty one marked degraded when the datastore does not answer (spec: reads
/// answer 200 with `degraded: true` rather than fail).
#[derive(Debug)]
pub(crate) struct Listing {
    pub(crate) page: InventoryPage,
    pub(crate) degraded: bool,
}

/// Inventory use cases over the inventory repository.
#[derive(Debug, Clone)]
pub(crate) struct InventoryService {
    pub(crate) inventory: Arc<dyn InventoryRepository>,
    pub(crate) clock: Arc<dyn Clock>,
    /// Time one listing may take before it is answered busy (503 with `Retry-After`).
    pub(crate) list_budget: Duration,
}

impl InventoryService {
    /// A listing over its time budget is [`StoreError::Busy`]: the answer comes back at the budget even when
    /// the backend is slow to notice its own cancellation.
    pub(crate) async fn list(&self, wallet: Wallet, query: InventoryQuery) -> Result<Listing, StoreError> {
        let listing = self.inventory.list(wallet, &query, self.list_budget);
        let listed = tokio::time::timeout(self.list_budget, listing)
            .await
            .unwrap_or_else(|_| {
                Err(StoreError::Busy(format!(
                    "the listing ran over its {} ms budget",
                    self.list_budget.as_millis()
                )))
            });
        match listed {
            Ok(page) => Ok(Listing {
                page,
                degraded: false,
            }),
            Err(StoreError::Unavailable(reason)) => {
                tracing::warn!(reason = %reason, "inventory listed in degraded mode");
                Ok(Listing {
                    page: InventoryPage {
                        items: Vec::new(),
                        total: 0,
                        next: None,
                    },
                    degraded: true,
                })
            }
            Err(other) => Err(other),
        }
    }

    /// Creates or updates a product: by `id` when given, else by SKU (idempotent: the same SKU updates the same
    /// product, keeping its id and createdAt).
    pub(crate) async fn upsert(
        &self,
        caller: &Caller,
        draft: ItemDraft,
    ) -> Result<InventoryItem, InventoryError> {
        if draft
            .claimed_wallet
            .is_some_and(|claimed| claimed != caller.wallet)
        {
            return Err(InventoryError::WalletMismatch);
        }
        let (id, sku) = (draft.id.clone(), draft.fields.sku.clone());
        let upsert = ItemUpsert {
            wallet: caller.wallet,
            draft,
            new_id: ProductId::generate(),
            now_ms: self.clock.now_ms(),
        };
        let outcome = self.inventory.upsert(&upsert).await?;
        match outcome {
            UpsertOutcome::Saved(item) => Ok(*item),
            UpsertOutcome::UnknownId => Err(InventoryError::UnknownProduct(
                id.map(|id| id.as_str().to_owned()).unwrap_or_default(),
            )),
            UpsertOutcome::SkuTaken => Err(InventoryError::SkuTaken(sku.as_str().to_owned())),
        }
    }

    pub(crate) async fn delete(&self, wallet: Wallet, id: ProductId) -> Result<(), InventoryError> {
        let shown = id.as_str().to_owned();
        let deleted = self.inventory.delete(wallet, &id).await?;
        if deleted {
            Ok(())
        } else {
            Err(InventoryError::UnknownProduct(shown))
        }
    }

    pub(crate) async fn attach_image(
        &self,
        wallet: Wallet,
        sku: Sku,
        image: ImageDataUrl,
    ) -> Result<ImageDataUrl, InventoryError> {
        let now_ms = self.clock.now_ms();
        let shown_sku = sku.as_str().to_owned();
        let outcome = self.inventory.attach_image(wallet, &sku, &image, now_ms).await?;
        match outcome {
            AttachOutcome::Attached => Ok(image),
            AttachOutcome::UnknownSku => Err(InventoryError::UnknownSku(shown_sku)),
            AttachOutcome::TooManyImages => Err(InventoryError::TooManyImages),
        }
    }
}
