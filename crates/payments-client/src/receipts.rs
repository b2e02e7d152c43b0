//! The order and receipt routes: create, list, read, status read and post, webhook log and redelivery.

use payments_core::{Cents, ReceiptStatus, TaxRate, Wallet};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use url::Url;

use crate::client::{Auth, Client};
use crate::error::Error;
use crate::receipt::{CreatedReceipt, FailureFields, Receipt, ReceiptStatusView, StatusPosted};
use crate::webhook_delivery::WebhookDelivery;

/// One line of [`CreateReceipt`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReceiptLine {
    /// What the line is.
    pub label: String,
    /// The line total.
    pub price_usd: Cents,
    /// Quantity, when it is a product line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qty: Option<u32>,
}

/// `POST /api/receipts` body: a caller-assigned id and lines whose prices sum to the total.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CreateReceipt {
    /// Unique id (1 to 64 characters of `[A-Za-z0-9._-]`).
    pub id: String,
    /// The lines.
    pub line_items: Vec<ReceiptLine>,
    /// Sum of the line prices.
    pub total_usd: Cents,
    /// HTTPS endpoint for status pushes.
    #[serde(rename = "webhook_url", skip_serializing_if = "Option::is_none")]
    pub webhook_url: Option<String>,
    /// The caller's reference.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transaction_id: Option<String>,
    /// Caller key/values, echoed in reads and webhooks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Map<String, Value>>,
    /// Sent as the `Idempotency-Key` header (1 to 255 visible ASCII characters): the same key and body
    /// within 24 hours replays the first answer. `None` with retries on: the client makes one per call.
    #[serde(skip)]
    pub idempotency_key: Option<String>,
}

impl CreateReceipt {
    /// A receipt of `lines` whose total is their sum.
    pub fn new(id: impl Into<String>, lines: Vec<ReceiptLine>) -> Self {
        let total = lines.iter().map(|line| line.price_usd.as_i64()).sum();
        CreateReceipt {
            id: id.into(),
            line_items: lines,
            total_usd: Cents::new(total),
            webhook_url: None,
            transaction_id: None,
            metadata: None,
            idempotency_key: None,
        }
    }

    /// Sets the webhook target.
    #[must_use]
    pub fn webhook_url(mut self, url: impl Into<String>) -> Self {
        self.webhook_url = Some(url.into());
        self
    }

    /// Makes the create safe to resend; see [`CreateReceipt::idempotency_key`].
    #[must_use]
    pub fn idempotency_key(mut self, key: impl Into<String>) -> Self {
        self.idempotency_key = Some(key.into());
        self
    }
}

/// One item of [`CreateOrder`]: a product by SKU (or id) and a quantity.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct OrderItem {
    /// Product id (wins over `sku`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Product SKU.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sku: Option<String>,
    /// At least 1.
    pub qty: u32,
}

impl OrderItem {
    /// `qty` of the product with `sku`.
    pub fn sku(sku: impl Into<String>, qty: u32) -> Self {
        OrderItem {
            id: None,
            sku: Some(sku.into()),
            qty,
        }
    }
}

/// `POST /api/orders` body: items priced from inventory, with tax and the processing fee.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CreateOrder {
    /// At least one.
    pub items: Vec<OrderItem>,
    /// Tax jurisdiction (e.g. `US-CA`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub jurisdiction_code: Option<String>,
    /// Manual tax rate override (0 to 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tax_rate: Option<TaxRate>,
    /// HTTPS endpoint for status pushes.
    #[serde(rename = "webhook_url", skip_serializing_if = "Option::is_none")]
    pub webhook_url: Option<String>,
    /// Sent as the `Idempotency-Key` header (1 to 255 visible ASCII characters): the same key and body
    /// within 24 hours replays the first answer instead of ordering twice. `None` with retries on
    /// ([`crate::RetryPolicy`]): the client makes one per call and reuses it across the retries.
    #[serde(skip)]
    pub idempotency_key: Option<String>,
}

impl CreateOrder {
    /// An order of `items`.
    pub fn new(items: Vec<OrderItem>) -> Self {
        CreateOrder {
            items,
            ..CreateOrder::default()
        }
    }

    /// Makes the order safe to resend; see [`CreateOrder::idempotency_key`].
    #[must_use]
    pub fn idempotency_key(mut self, key: impl Into<String>) -> Self {
        self.idempotency_key = Some(key.into());
        self
    }
}

/// `POST /api/receipts/status` body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PostStatus {
    /// The receipt.
    pub receipt_id: String,
    /// The merchant (the key's wallet).
    pub wallet: Wallet,
    /// The new status (tracking statuses and `failed` with a key; others need an admin session).
    pub status: ReceiptStatus,
    /// The on-chain transaction (`0x` + 64 hex), e.g. with `paid` or `tx_mined`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transaction_hash: Option<String>,
    /// The buyer's wallet, with `paid` (admin session only, like the hash): it earns the buyer xp.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub buyer_wallet: Option<Wallet>,
    /// Required with `failed`: all four failure fields.
    #[serde(flatten)]
    pub failure: FailureFields,
}

impl PostStatus {
    /// Posts `status` for the merchant `wallet`'s receipt.
    pub fn new(receipt_id: impl Into<String>, wallet: Wallet, status: ReceiptStatus) -> Self {
        PostStatus {
            receipt_id: receipt_id.into(),
            wallet,
            status,
            transaction_hash: None,
            buyer_wallet: None,
            failure: FailureFields::default(),
        }
    }

    /// Names the buyer (admin session only).
    #[must_use]
    pub fn buyer_wallet(mut self, buyer: Wallet) -> Self {
        self.buyer_wallet = Some(buyer);
        self
    }

    /// Records the on-chain transaction with the status.
    #[must_use]
    pub fn transaction_hash(mut self, hash: impl Into<String>) -> Self {
        self.transaction_hash = Some(hash.into());
        self
    }

    /// The failure details a `failed` post needs.
    #[must_use]
    pub fn failure(mut self, failure: FailureFields) -> Self {
        self.failure = failure;
        self
    }
}

#[derive(Debug, Deserialize)]
struct OrderEnvelope {
    receipt: Receipt,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ListEnvelope {
    receipts: Vec<Receipt>,
    #[serde(default)]
    next_cursor: Option<String>,
}

/// One page of `GET /api/receipts`, newest first.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ReceiptsPage {
    /// The receipts of this page.
    pub receipts: Vec<Receipt>,
    /// Where the next page starts (pass it to [`Client::list_receipts_page`]); `None` on the last page.
    /// [`Client::list_all_receipts`] follows it for you.
    pub next_cursor: Option<String>,
}

#[derive(Debug, Deserialize)]
struct DeliveriesEnvelope {
    deliveries: Vec<WebhookDelivery>,
}

#[derive(Debug, Deserialize)]
struct Acknowledged {}

impl Client {
    /// `POST /api/orders` (scope `orders:create`): the order's receipt, priced from inventory. Sent
    /// under [`CreateOrder::idempotency_key`]; retried per the client's [`crate::RetryPolicy`].
    ///
    /// # Errors
    /// [`Error::Api`] with `items_required`, `inventory_item_not_found`, `split_required`,
    /// `idempotency_conflict` (the key was used with another body), ...
    pub async fn create_order(&self, order: &CreateOrder) -> Result<Receipt, Error> {
        let request = self.http().post(self.url("api/orders")?).json(order);
        let envelope: OrderEnvelope = self
            .send_keyed(
                self.authorize(request, Auth::Subscription),
                order.idempotency_key.as_deref(),
            )
            .await?;
        Ok(envelope.receipt)
    }

    /// `POST /api/receipts` (scope `receipts:write`). Sent under [`CreateReceipt::idempotency_key`];
    /// retried per the client's [`crate::RetryPolicy`].
    ///
    /// # Errors
    /// [`Error::Api`] (409 `conflict` for a taken id, 409 `idempotency_conflict`, 400 `invalid_input`,
    /// ...) or a transport error.
    pub async fn create_receipt(&self, receipt: &CreateReceipt) -> Result<CreatedReceipt, Error> {
        let request = self.http().post(self.url("api/receipts")?).json(receipt);
        self.send_keyed(
            self.authorize(request, Auth::Subscription),
            receipt.idempotency_key.as_deref(),
        )
        .await
    }

    /// `GET /api/receipts?limit=` (scope `receipts:read`), newest first; `None` uses the server's 100.
    ///
    /// # Errors
    /// [`Error::Api`] or a transport error.
    pub async fn list_receipts(&self, limit: Option<u32>) -> Result<Vec<Receipt>, Error> {
        Ok(self.list_receipts_page(limit, None).await?.receipts)
    }

    /// `GET /api/receipts?limit=&cursor=` (scope `receipts:read`): one page, newest first, starting after
    /// `cursor` (a previous page's [`ReceiptsPage::next_cursor`]) when given.
    ///
    /// # Errors
    /// [`Error::Api`] (400 `invalid_input` on `cursor` for one this list did not give) or a transport
    /// error.
    pub async fn list_receipts_page(
        &self,
        limit: Option<u32>,
        cursor: Option<&str>,
    ) -> Result<ReceiptsPage, Error> {
        let mut url = self.url("api/receipts")?;
        if let Some(limit) = limit {
            url.query_pairs_mut().append_pair("limit", &limit.to_string());
        }
        if let Some(cursor) = cursor {
            url.query_pairs_mut().append_pair("cursor", cursor);
        }
        let envelope: ListEnvelope = self.get_json(url, Auth::Subscription).await?;
        Ok(ReceiptsPage {
            receipts: envelope.receipts,
            next_cursor: envelope.next_cursor,
        })
    }

    /// `GET /api/receipts/{id}` (scope `receipts:read`).
    ///
    /// # Errors
    /// [`Error::Api`] with 404 `not_found` for an unknown id.
    pub async fn get_receipt(&self, id: &str) -> Result<Receipt, Error> {
        self.get_json(self.receipt_url(id, &[])?, Auth::Subscription)
            .await
    }

    /// `GET /api/receipts/status?receiptId=` (scope `receipts:read`).
    ///
    /// # Errors
    /// [`Error::Api`] with 404 `not_found` for an unknown id.
    pub async fn receipt_status(&self, id: &str) -> Result<ReceiptStatusView, Error> {
        let mut url = self.url("api/receipts/status")?;
        url.query_pairs_mut().append_pair("receiptId", id);
        self.get_json(url, Auth::Subscription).await
    }

    /// `POST /api/receipts/status` with the subscription key: tracking statuses, `pending` and `failed`.
    /// The other statuses need an admin session: [`Client::post_receipt_status_as_admin`].
    ///
    /// # Errors
    /// [`Error::Api`] (`invalid_transition`, `unauthorized` for statuses that need an admin session, ...).
    pub async fn post_receipt_status(&self, post: &PostStatus) -> Result<StatusPosted, Error> {
        let request = self.http().post(self.url("api/receipts/status")?).json(post);
        self.send_json(self.authorize(request, Auth::Subscription)).await
    }

    /// `GET /api/receipts/{id}/webhooks`: the receipt's webhook deliveries and their attempts.
    ///
    /// # Errors
    /// [`Error::Api`] with 404 `not_found` for an unknown id.
    pub async fn receipt_webhooks(&self, id: &str) -> Result<Vec<WebhookDelivery>, Error> {
        let url = self.receipt_url(id, &["webhooks"])?;
        let envelope: DeliveriesEnvelope = self.get_json(url, Auth::Subscription).await?;
        Ok(envelope.deliveries)
    }

    /// `POST /api/receipts/{id}/webhooks/{deliveryId}/redeliver`: the same body again, same delivery id.
    ///
    /// # Errors
    /// [`Error::Api`] with 404 `not_found` for an unknown receipt or delivery.
    pub async fn redeliver_webhook(&self, id: &str, delivery_id: &str) -> Result<(), Error> {
        let url = self.receipt_url(id, &["webhooks", delivery_id, "redeliver"])?;
        let request = self.http().post(url);
        let _: Acknowledged = self
            .send_json(self.authorize(request, Auth::Subscription))
            .await?;
        Ok(())
    }

    /// `api/receipts/{id}/{tail...}` with each segment percent-encoded.
    pub(crate) fn receipt_url(&self, id: &str, tail: &[&str]) -> Result<Url, Error> {
        let mut url = self.url("api/receipts")?;
        url.path_segments_mut()
            .map_err(|()| Error::Config("the base URL cannot take a path".to_owned()))?
            .push(id)
            .extend(tail);
        Ok(url)
    }
}
