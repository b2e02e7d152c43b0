//! Typed async client of the merchant payments service (reqwest + rustls).
//!
//! ```no_run
//! use payments_client::{Client, InventoryQuery, UpsertInventoryItem};
//! use payments_core::Cents;
//!
//! # async fn run() -> Result<(), payments_client::Error> {
//! let client = Client::builder("http://127.0.0.1:8080").subscription_key("sk_test_123").build()?;
//! client.upsert_inventory_item(&UpsertInventoryItem::new("MUG-1", "Blue mug", Cents::new(1299), 25)).await?;
//! let page = client.list_inventory(&InventoryQuery::new().q("mug")).await?;
//! assert_eq!(page.items[0].sku, "MUG-1");
//! # Ok(()) }
//! ```
//!
//! Errors are typed: a refusal of the service is [`Error::Api`] carrying the spec error code
//! ([`ErrorCode`]), message, `resetAt` and correlation id. Writes are sent exactly once; `GET`s may retry
//! a 429 when [`RateLimitRetry`] is configured (off by default). Money is [`payments_core::Cents`].

mod builder;
mod client;
mod config;
mod error;
mod inventory;
mod item;
mod query;
mod receipt;
mod receipts;
mod response;
mod secret;
mod status;
mod upsert;

pub use builder::{ClientBuilder, DEFAULT_CONNECT_TIMEOUT, DEFAULT_TIMEOUT, RateLimitRetry};
pub use client::Client;
pub use config::{
    PricingConfig, ShopConfig, SiteConfig, SplitConfig, TaxCatalog, TaxCatalogEntry, TokenInfo,
};
pub use error::{ApiError, Error, ErrorCode};
pub use inventory::{Degraded, Deleted, InventoryPage, UploadedImage, UpsertedItem};
pub use item::{Dimensions, InventoryItem, ShippingConfig};
pub use query::{InventoryQuery, SortField, SortOrder, StockFilter, TagsMode};
pub use receipt::{
    CreatedReceipt, FailureFields, Receipt, ReceiptStatusView, StatusPosted, WebhookAttempt, WebhookDelivery,
};
pub use receipts::{CreateOrder, CreateReceipt, OrderItem, PostStatus, ReceiptLine};
pub use secret::SubscriptionKey;
pub use status::{Health, Ping};
pub use upsert::UpsertInventoryItem;
