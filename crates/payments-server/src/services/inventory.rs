//! Inventory use cases, always scoped to the caller's merchant wallet.

use payments_core::Wallet;
use thiserror::Error;

use std::sync::Arc;
use std::time::Duration;

use crate::domain::inventory::{
    ContentHash, EMBEDDED_IMAGES_BUDGET, ImageDataUrl, ImageFetch, ImageKey, InventoryItem, InventoryQuery,
    ItemDraft, MAX_IMAGES, NewImage, ProductId, ShownItem, Sku, StoredImage, images_to_embed, show, show_one,
};
use crate::domain::page_cursor::InventoryKey;
use crate::domain::subscription::Caller;
use crate::runtime::clock::Clock;
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
    #[error("the product has no image {index}")]
    UnknownImage { index: usize },
    /// An upsert's `images[index]` is the URL of an image the saved product does not have.
    #[error("images[{index}]: names an image this product does not have (send its data URL instead)")]
    ImageNotKept { index: usize },
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A page of products with their images as answered, or an empty one marked degraded when the datastore
/// does not answer (spec: reads answer 200 with `degraded: true` rather than fail).
#[derive(Debug)]
pub(crate) struct Listing {
    pub(crate) items: Vec<ShownItem>,
    /// Products matching the filters, over all pages.
    pub(crate) total: u64,
    /// Where the next page starts; `None` when this page is the last.
    pub(crate) next: Option<InventoryKey>,
    pub(crate) degraded: bool,
}

/// Inventory use cases over the inventory repository.
#[derive(Debug, Clone)]
pub(crate) struct InventoryService {
    pub(crate) inventory: Arc<dyn InventoryRepository>,
    pub(crate) clock: Arc<dyn Clock>,
    /// Time one listing may take before it is given up and answered degraded (200, `degraded: true`).
    pub(crate) list_budget: Duration,
}

impl InventoryService {
    /// The page, or its degraded form (no items, `degraded: true`) when the datastore is unavailable, locked
    /// or overloaded: the spec has lists answer 200 with `degraded: true` then, never 503. A listing over its
    /// time budget counts as overloaded; the answer comes back at the budget even when the backend is slow to
    /// notice its own cancellation.
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
                items: self.shown(wallet, page.items).await,
                total: page.total,
                next: page.next,
                degraded: false,
            }),
            Err(StoreError::Unavailable(reason) | StoreError::Busy(reason)) => {
                tracing::warn!(reason = %reason, "inventory listed in degraded mode");
                Ok(Listing {
                    items: Vec::new(),
                    total: 0,
                    next: None,
                    degraded: true,
                })
            }
            Err(other) => Err(other),
        }
    }

    /// `items` as answered: the images that fit in [`EMBEDDED_IMAGES_BUDGET`] embedded, the rest linked to
    /// their route.
    async fn shown(&self, wallet: Wallet, items: Vec<InventoryItem>) -> Vec<ShownItem> {
        let fetched = self.embedded_images(wallet, &items).await;
        show(items, fetched)
    }

    /// The bytes of the images of `items` that fit in [`EMBEDDED_IMAGES_BUDGET`], read in one store call.
    /// Embedding is a convenience: when those bytes cannot be read in time, every image is linked instead of
    /// failing the answer.
    async fn embedded_images(&self, wallet: Wallet, items: &[InventoryItem]) -> Vec<(ImageKey, StoredImage)> {
        let wanted = images_to_embed(items, EMBEDDED_IMAGES_BUDGET);
        if wanted.is_empty() {
            return Vec::new();
        }
        let reading = self.inventory.fetch_images(wallet, &wanted);
        match tokio::time::timeout(self.list_budget, reading).await {
            Ok(Ok(found)) => found,
            Ok(Err(error)) => {
                tracing::warn!(error = %error, "embedded images not read; answered as links");
                Vec::new()
            }
            Err(_) => {
                tracing::warn!("embedded images not read in time; answered as links");
                Vec::new()
            }
        }
    }

    /// Creates or updates a product: by `id` when given, else by SKU (idempotent: the same SKU updates the same
    /// product, keeping its id and createdAt).
    pub(crate) async fn upsert(
        &self,
        caller: &Caller,
        draft: ItemDraft,
    ) -> Result<ShownItem, InventoryError> {
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
            UpsertOutcome::Saved(item) => {
                let fetched = self
                    .embedded_images(caller.wallet, std::slice::from_ref(&item))
                    .await;
                Ok(show_one(*item, fetched))
            }
            UpsertOutcome::UnknownId => Err(InventoryError::UnknownProduct(
                id.map(|id| id.as_str().to_owned()).unwrap_or_default(),
            )),
            UpsertOutcome::SkuTaken => Err(InventoryError::SkuTaken(sku.as_str().to_owned())),
            UpsertOutcome::UnknownImage { index } => Err(InventoryError::ImageNotKept { index }),
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

    /// Appends an uploaded image; answered as its data URL (the spec's `imageUrl`).
    pub(crate) async fn attach_image(
        &self,
        wallet: Wallet,
        sku: Sku,
        image: NewImage,
    ) -> Result<ImageDataUrl, InventoryError> {
        let now_ms = self.clock.now_ms();
        let shown_sku = sku.as_str().to_owned();
        let outcome = self.inventory.attach_image(wallet, &sku, &image, now_ms).await?;
        match outcome {
            AttachOutcome::Attached => Ok(image.data_url()),
            AttachOutcome::UnknownSku => Err(InventoryError::UnknownSku(shown_sku)),
            AttachOutcome::TooManyImages => Err(InventoryError::TooManyImages),
        }
    }

    /// One image of the merchant's product, for its route; left unread when its hash is one of `known`.
    pub(crate) async fn image(
        &self,
        wallet: Wallet,
        key: ImageKey,
        known: &[ContentHash],
    ) -> Result<ImageFetch, InventoryError> {
        let index = key.index;
        self.inventory
            .fetch_image(wallet, &key, known)
            .await?
            .ok_or(InventoryError::UnknownImage { index })
    }
}
