//! Typed async client of the merchant payments service (reqwest + rustls).
//!
//! ```no_run
//! use payments_client::{Cents, Client, InventoryQuery, UpsertInventoryItem};
//!
//! # async fn run() -> Result<(), payments_client::Error> {
//! let client = Client::builder("http://127.0.0.1:8080").subscription_key("sk_test_123").build()?;
//! client.upsert_inventory_item(&UpsertInventoryItem::new("MUG-1", "Blue mug", Cents::new(1299), 25)).await?;
//! let page = client.list_inventory(&InventoryQuery::new().q("mug")).await?;
//! assert_eq!(page.items[0].sku, "MUG-1");
//! # Ok(()) }
//! ```
//!
//! Admin routes (split, shop and pricing writes, refunds, terminal sales, sensitive receipt statuses)
//! take an [`AdminSession`] instead of the subscription key: sign in with [`Client::admin_nonce`] and
//! [`Client::admin_login`] (the wallet signs [`payments_core::AdminLogin::signing_hash`] wherever its
//! key lives), or with a local k256 key through `Client::sign_in_with_key` (feature `admin-signing`,
//! off by default: it puts k256's `SigningKey` in this crate's API; the build cost is nil because
//! `payments-core` already compiles k256).
//!
//! ```no_run
//! use payments_client::{Cents, Client, DeploySplit, TerminalSale};
//!
//! # async fn run(login: payments_client::LoginRequest) -> Result<(), payments_client::Error> {
//! let client = Client::builder("http://127.0.0.1:8080").build()?;
//! let session = client.admin_login(&login).await?;
//! client.deploy_split(&session, &DeploySplit::default()).await?;
//! let receipt = client.terminal_sale(&session, &TerminalSale::new(Cents::new(2500)).label("Haircut")).await?;
//! client.admin_logout(&session).await?;
//! # Ok(()) }
//! ```
//!
//! Errors are typed: a refusal of the service is [`Error::Api`] carrying the spec error code
//! ([`ErrorCode`], the same vocabulary the service renders from), message, `resetAt` and correlation id.
//! Everything the service may extend (error codes, receipt and subscription statuses, charge outcomes,
//! webhook events) is read as an [`OrUnknown`]: a name this version does not know arrives as
//! [`OrUnknown::Unknown`] instead of failing the call. Money is [`Cents`] (re-exported with the other
//! `payments-core` types the API carries).
//!
//! Lists page by cursor: [`Client::list_receipts_page`] and [`Client::list_inventory`] return a page
//! with its `next_cursor`; [`Client::list_all_receipts`] and [`Client::list_all_inventory`] return a
//! `Stream` of every row, fetching page after page.
//!
//! Retries are off by default. With [`ClientBuilder::retries`] ([`RetryPolicy`]), `GET`s and creates
//! (orders, receipts, refunds, plans, subscriptions) are retried on transport failures, 429 (until `resetAt`), 503 (after
//! `Retry-After`), 502 and 504, with capped exponential backoff; every create then carries an
//! `Idempotency-Key` (the caller's, else one made per call and reused by its retries), so a retry never
//! creates twice. Writes without a key are never retried.

mod admin;
mod admin_config;
mod admin_receipts;
mod billing;
mod builder;
mod client;
mod config;
mod error;
mod graphql;
mod inventory;
mod item;
mod ledger;
mod or_unknown;
mod paging;
mod plan_webhooks;
mod query;
mod receipt;
mod receipt_transfers;
mod receipts;
mod reserve;
mod response;
mod retry;
mod secret;
mod session;
#[cfg(feature = "admin-signing")]
mod signing;
mod simulate;
mod split_transactions;
mod status;
mod subscription_change;
mod subscription_models;
mod subscription_permission;
mod subscriptions;
mod test_mode;
mod token_amounts;
mod upsert;
mod users;
mod webhook_delivery;
mod webhook_endpoints;

pub use admin::{AdminIdentity, LoginRequest};
pub use admin_config::{ArchivedSplit, DeploySplit, DeployedSplit, PricingUpdate, ShopConfigUpdate};
pub use admin_receipts::{RefundReceipt, TerminalSale};
pub use billing::{BillingBalance, ReceiptFees, SubscriptionFees};
pub use builder::{ClientBuilder, DEFAULT_CONNECT_TIMEOUT, DEFAULT_TIMEOUT};
pub use client::Client;
pub use config::{
    PricingConfig, ShopConfig, SiteConfig, SplitConfig, TaxCatalog, TaxCatalogEntry, TokenInfo,
};
pub use error::{ApiError, Error};
pub use graphql::{GraphqlError, GraphqlResponse};
pub use inventory::{Degraded, Deleted, InventoryImage, InventoryPage, UploadedImage, UpsertedItem};
pub use item::{Dimensions, InventoryItem, ShippingConfig};
pub use ledger::{LedgerDownload, LedgerEntry, LedgerFormat, LedgerRange};
pub use or_unknown::{OrUnknown, ReceiptStatusValue, WireName};
pub use query::{InventoryQuery, SortField, SortOrder, StockFilter, TagsMode};
pub use receipt::{
    CreatedReceipt, FailureFields, PaymentInstruction, Receipt, ReceiptStatusView, StatusPosted,
};
pub use receipt_transfers::{DepositTransfer, DepositTransfers};
pub use receipts::{CreateOrder, CreateReceipt, OrderItem, PostStatus, ReceiptLine, ReceiptsPage};
pub use reserve::{ReserveAdvice, ReserveBalances, TokenHolding};
pub use retry::RetryPolicy;
pub use secret::SubscriptionKey;
pub use session::{AdminRole, AdminSession};
#[cfg(feature = "admin-signing")]
pub use signing::wallet_of_key;
pub use simulate::SimulatedPayment;
pub use split_transactions::{
    SplitTransaction, SplitTransactionStatus, SplitTransactionsPage, SplitTransactionsQuery,
};
pub use status::{DatastoreState, Health, HealthStatus, Ping};
pub use subscription_change::{ChangeSubscription, ChangedSubscription};
pub use subscription_models::{
    BatchReport, BillingEvent, BillingEventStatus, ChargeResult, ChargeStatus, CustomerSubscription,
    SubscriptionPlan, SubscriptionStatusReply,
};
pub use subscriptions::{CreatePlan, CreateSubscription, SubscriptionSelector, UpdatePlan};
pub use test_mode::TestFunding;
pub use upsert::UpsertInventoryItem;
pub use users::{
    FollowChange, Heartbeat, LiveUser, LiveUsers, ProfileUpdate, User, UserSearch, UserSearchPage,
};
pub use webhook_delivery::{DeliveryState, WebhookAttempt, WebhookDelivery, WebhookEvent};
pub use webhook_endpoints::{
    DeliveryFilter, EndpointDeliveries, EndpointDelivery, EndpointFields, SentTestEvent, WebhookEndpoint,
};

/// The `payments-core` types the client's requests and answers carry, so callers need no direct
/// dependency: money, wallets, and the vocabularies the service answers with.
pub use payments_core::{
    BillingPeriod, Cents, ErrorCode, PaymentBlock, ReceiptBalance, ReceiptStatus, ReserveBasis,
    SpendPermissionTypedData, SubscriptionEventKind, SubscriptionPermissionOffer, SubscriptionStatus,
    TokenAmount, TokenApproval, Wallet,
};
