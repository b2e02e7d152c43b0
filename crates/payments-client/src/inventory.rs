//! The inventory routes: list, upsert, delete, image upload.

use reqwest::multipart::{Form, Part};
use serde::Deserialize;

use crate::client::{Auth, Client};
use crate::error::Error;
use crate::item::InventoryItem;
use crate::query::InventoryQuery;
use crate::upsert::UpsertInventoryItem;

/// One page of an inventory listing.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct InventoryPage {
    /// The products of this page.
    pub items: Vec<InventoryItem>,
    /// Products matching the filters, over all pages.
    pub total: u64,
    /// This page's number, 0-indexed.
    pub page: u32,
    /// The page size used.
    pub page_size: u32,
    /// Where the next page starts: pass it as [`InventoryQuery::cursor`] with the same filters and sort;
    /// `None` on the last page. [`Client::list_all_inventory`] follows it for you.
    pub next_cursor: Option<String>,
    /// Set when the service answered in degraded mode.
    pub degraded: Option<Degraded>,
}

/// The service answered in degraded mode (datastore unavailable): the shape is normal, the data may
/// be stale or the write deferred.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Degraded {
    /// Why, e.g. `datastore_unavailable`.
    pub reason: String,
}

/// The product as stored after an upsert.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct UpsertedItem {
    /// The stored product.
    pub item: InventoryItem,
    /// Set when the service answered in degraded mode.
    pub degraded: Option<Degraded>,
}

/// The answer to a delete.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Deleted {
    /// Set when the service answered in degraded mode.
    pub degraded: Option<Degraded>,
}

/// An uploaded product image.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct UploadedImage {
    /// The image as a data URL, ready for [`UpsertInventoryItem::images`].
    pub image_url: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct InventoryPageResponse {
    items: Vec<InventoryItem>,
    total: u64,
    page: u32,
    page_size: u32,
    #[serde(default)]
    next_cursor: Option<String>,
    #[serde(flatten)]
    degraded: DegradedFields,
}

#[derive(Debug, Deserialize)]
struct UpsertResponse {
    item: InventoryItem,
    #[serde(flatten)]
    degraded: DegradedFields,
}

#[derive(Debug, Deserialize)]
struct DeleteResponse {
    #[serde(flatten)]
    degraded: DegradedFields,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct UploadResponse {
    image_url: String,
}

#[derive(Debug, Default, Deserialize)]
struct DegradedFields {
    #[serde(default)]
    degraded: Option<bool>,
    #[serde(default)]
    reason: Option<String>,
}

impl DegradedFields {
    fn into_degraded(self) -> Option<Degraded> {
        match self.degraded {
            Some(true) => Some(Degraded {
                reason: self.reason.unwrap_or_default(),
            }),
            Some(false) | None => None,
        }
    }
}

impl Client {
    /// Lists products matching `query` (`GET /api/inventory`, scope `inventory:read`).
    ///
    /// ```no_run
    /// # async fn run(client: payments_client::Client) -> Result<(), payments_client::Error> {
    /// use payments_client::{InventoryQuery, StockFilter};
    /// let page = client.list_inventory(&InventoryQuery::new().stock(StockFilter::InStock)).await?;
    /// for item in &page.items {
    ///     println!("{} {} {}", item.sku, item.name, item.price_usd);
    /// }
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::Api`]: `unauthorized` (401), `forbidden` (403, missing scope), `invalid_input` (400, e.g. a
    /// page size outside 1..=200), `rate_limited` (429; retried only when configured);
    /// [`Error::Transport`] or [`Error::Decode`] as for every call.
    pub async fn list_inventory(&self, query: &InventoryQuery) -> Result<InventoryPage, Error> {
        let mut url = self.url("api/inventory")?;
        query.append_to(&mut url);
        let page: InventoryPageResponse = self.get_json(url, Auth::Subscription).await?;
        Ok(InventoryPage {
            items: page.items,
            total: page.total,
            page: page.page,
            page_size: page.page_size,
            next_cursor: page.next_cursor,
            degraded: page.degraded.into_degraded(),
        })
    }

    /// Creates a product, or updates the one with the same SKU (or the given id)
    /// (`POST /api/inventory`, scope `inventory:write`). Sent once, never retried.
    ///
    /// # Errors
    /// [`Error::Api`]: `invalid_input` (400, e.g. a negative price, stock below -1, more than 24 tags),
    /// `unauthorized`, `forbidden`, `not_found` (an id that does not exist), `rate_limited`;
    /// [`Error::Transport`] or [`Error::Decode`] as for every call.
    pub async fn upsert_inventory_item(&self, item: &UpsertInventoryItem) -> Result<UpsertedItem, Error> {
        let request = self.http().post(self.url("api/inventory")?).json(item);
        let response: UpsertResponse = self
            .send_json(self.authorize(request, Auth::Subscription))
            .await?;
        Ok(UpsertedItem {
            item: response.item,
            degraded: response.degraded.into_degraded(),
        })
    }

    /// Deletes the product with this id (`DELETE /api/inventory?id=..`, scope `inventory:write`).
    ///
    /// # Errors
    /// [`Error::Api`]: `not_found` (404) when no such product exists for the merchant, `invalid_input`,
    /// `unauthorized`, `forbidden`, `rate_limited`; [`Error::Transport`] or [`Error::Decode`].
    pub async fn delete_inventory_item(&self, id: &str) -> Result<Deleted, Error> {
        let mut url = self.url("api/inventory")?;
        url.query_pairs_mut().append_pair("id", id);
        let request = self.authorize(self.http().delete(url), Auth::Subscription);
        let response: DeleteResponse = self.send_json(request).await?;
        Ok(Deleted {
            degraded: response.degraded.into_degraded(),
        })
    }

    /// Uploads a product image (`POST /api/inventory/images`, multipart, scope `inventory:write`) and
    /// returns it as a data URL. `content_type` is `image/jpeg`, `image/png` or `image/webp`.
    ///
    /// # Errors
    /// [`Error::Config`] when `content_type` is not a MIME type; [`Error::Api`]: `invalid_input` (400, an
    /// unsupported or unreadable image, a missing SKU), `unauthorized`, `forbidden`, `rate_limited`;
    /// [`Error::Transport`] or [`Error::Decode`].
    pub async fn upload_inventory_image(
        &self,
        sku: &str,
        filename: &str,
        bytes: Vec<u8>,
        content_type: &str,
    ) -> Result<UploadedImage, Error> {
        let image = Part::bytes(bytes)
            .file_name(filename.to_owned())
            .mime_str(content_type)
            .map_err(|_| Error::Config(format!("content type {content_type:?} is not a MIME type")))?;
        let form = Form::new().text("sku", sku.to_owned()).part("image", image);
        let request = self
            .http()
            .post(self.url("api/inventory/images")?)
            .multipart(form);
        let response: UploadResponse = self
            .send_json(self.authorize(request, Auth::Subscription))
            .await?;
        Ok(UploadedImage {
            image_url: response.image_url,
        })
    }
}
