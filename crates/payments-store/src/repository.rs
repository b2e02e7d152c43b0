//! The repositories, one per aggregate, async at the service boundary. Each backend (SQLite, PostgreSQL)
//! implements every trait; services hold only the ones they use. A method is one transaction: the use-case
//! methods ([`ReceiptRepository::create`], [`ReceiptRepository::transition`]) read, let the service decide
//! (a closure calling `payments-core`) and write the outcome with its idempotency record, outbox row and stock
//! change together, so a concurrent duplicate never produces a second effect.

use std::fmt;
use std::time::Duration;

use async_trait::async_trait;
use payments_core::{FeePct, Wallet};

use crate::use_case::{
    Committed, Sale, SaleRefused, SaleTx, TransitionRefused, TransitionTx, Transitioned, TxError,
};
use crate::{
    AttachOutcome, AttemptRecord, Claim, DeliveryLog, DueDelivery, ItemUpsert, OutboxDepth, PendingRefund,
    ReceiptFilter, ReceiptPage, ReceiptStamp, StoreError, UpsertOutcome,
};
use payments_domain::admin::{NewAdminSession, SessionId, StoredAdminSession};
use payments_domain::api_key::{KeyHash, SubscriptionId};
use payments_domain::inventory::{
    ContentHash, ImageFetch, ImageKey, InventoryPage, InventoryQuery, NewImage, ProductId, Sku, StoredImage,
};
use payments_domain::page_cursor::ReceiptKey;
use payments_domain::receipt::{OnrampSession, Receipt, ReceiptId};
use payments_domain::recurring::PlanId;
use payments_domain::shop::ShopConfig;
use payments_domain::split::{ArchivedSplit, SplitSaved, StoredSplit};
use payments_domain::subscription::{NewSubscription, Subscription};
use payments_domain::webhook_endpoint::EndpointId;

/// Liveness of the datastore.
#[async_trait]
pub trait HealthRepository: Send + Sync + fmt::Debug {
    /// Answers when the datastore can serve a read.
    async fn check_health(&self) -> Result<(), StoreError>;
}

/// Subscription keys (stored as hashes).
#[async_trait]
pub trait KeyRepository: Send + Sync + fmt::Debug {
    async fn fetch_active_by_key(&self, hash: &KeyHash) -> Result<Option<Subscription>, StoreError>;
    async fn fetch_active(&self, id: &SubscriptionId) -> Result<Option<Subscription>, StoreError>;
    async fn list(&self) -> Result<Vec<Subscription>, StoreError>;
    async fn create(&self, subscription: &NewSubscription) -> Result<(), StoreError>;
    /// Creates the subscription only when none exists at all (a fresh database); returns whether it did.
    async fn create_first(&self, subscription: &NewSubscription) -> Result<bool, StoreError>;
    /// Revokes an active subscription; false when there is no active one with this id.
    async fn revoke(&self, id: &SubscriptionId, now_ms: i64) -> Result<bool, StoreError>;
    /// Atomically revokes `id` and creates `replacement_id` with the same wallet, scopes and name.
    /// `None` when there is no active subscription with this id.
    async fn rotate(
        &self,
        id: &SubscriptionId,
        replacement_id: &SubscriptionId,
        replacement_hash: &KeyHash,
        now_ms: i64,
    ) -> Result<Option<Subscription>, StoreError>;
    /// The value recorded under `name` in the instance settings, if any.
    async fn fetch_setting(&self, name: &str) -> Result<Option<String>, StoreError>;
    /// Records `proposed` under `name` unless a value is recorded already; answers the value recorded now
    /// (the first writer's, also between instances racing to record).
    async fn record_setting(&self, name: &str, proposed: &str, now_ms: i64) -> Result<String, StoreError>;
}

/// Products and their images. Product reads carry each image's metadata ([`ImageMeta`]) but never its bytes:
/// those are read one image at a time ([`InventoryRepository::fetch_image`]) or for the few an answer embeds
/// ([`InventoryRepository::fetch_images`]).
///
/// [`ImageMeta`]: payments_domain::inventory::ImageMeta
#[async_trait]
pub trait InventoryRepository: Send + Sync + fmt::Debug {
    /// One page of the merchant's products. The backend stops the work once `budget` has passed
    /// ([`StoreError::Busy`]), so an abandoned listing does not keep running.
    async fn list(
        &self,
        wallet: Wallet,
        query: &InventoryQuery,
        budget: Duration,
    ) -> Result<InventoryPage, StoreError>;
    /// Saves the product and, when the draft names them, its images: new ones are stored, kept ones
    /// ([`ImageInput::Kept`](payments_domain::inventory::ImageInput::Kept)) must be this product's own.
    async fn upsert(&self, upsert: &ItemUpsert) -> Result<UpsertOutcome, StoreError>;
    /// Deletes this merchant's product (and its images); false when it has none with this id.
    async fn delete(&self, wallet: Wallet, id: &ProductId) -> Result<bool, StoreError>;
    /// Appends an image to the product with this SKU unless it already has the maximum.
    async fn attach_image(
        &self,
        wallet: Wallet,
        sku: &Sku,
        image: &NewImage,
        now_ms: i64,
    ) -> Result<AttachOutcome, StoreError>;
    /// One image of the merchant's product; its bytes are not read when its hash is one of `known` (the
    /// versions the caller has). `None` when the merchant has no such product or the product no such image.
    async fn fetch_image(
        &self,
        wallet: Wallet,
        image: &ImageKey,
        known: &[ContentHash],
    ) -> Result<Option<ImageFetch>, StoreError>;
    /// The bytes of these images of the merchant's products; those that do not exist (any more) are left out.
    async fn fetch_images(
        &self,
        wallet: Wallet,
        images: &[ImageKey],
    ) -> Result<Vec<(ImageKey, StoredImage)>, StoreError>;
}

/// Receipts with their history, refunds and the stock their orders reserve. `S` and `T` are what the
/// service's sale and transition decisions refuse with; the backends implement the trait for any of them.
#[async_trait]
pub trait ReceiptRepository<S: Send + 'static, T: Send + 'static>: Send + Sync + fmt::Debug {
    /// A merchant's receipt; `wallet: None` only for the unauthenticated payment page.
    async fn fetch(&self, wallet: Option<Wallet>, id: &ReceiptId) -> Result<Option<Receipt>, StoreError>;
    /// A receipt with its merchant's current split, read together (one read transaction on SQLite, one
    /// connection on PostgreSQL): what a receipt's payment link needs.
    async fn fetch_with_split(
        &self,
        wallet: Option<Wallet>,
        id: &ReceiptId,
    ) -> Result<Option<(Receipt, Option<StoredSplit>)>, StoreError>;
    /// A merchant's receipt's [`ReceiptStamp`]: whether a view rendered from an earlier read still shows it.
    /// The backend that pays per column and per round trip (PostgreSQL) reads only those columns.
    async fn fetch_stamp(&self, wallet: Wallet, id: &ReceiptId) -> Result<Option<ReceiptStamp>, StoreError> {
        let found = self.fetch_with_split(Some(wallet), id).await?;
        Ok(found.map(|(receipt, split)| ReceiptStamp::of(&receipt, split.as_ref())))
    }
    /// A page of a merchant's receipts, newest first (`created_at`, then insertion order), starting after
    /// `after` when given: a keyset page, so receipts created meanwhile never shift the pages still to come.
    async fn list_page(
        &self,
        wallet: Wallet,
        limit: u32,
        after: Option<ReceiptKey>,
        filter: ReceiptFilter,
    ) -> Result<ReceiptPage, StoreError>;
    /// A merchant's newest `limit` receipts (what the contract tests read back).
    #[cfg(any(test, feature = "testing"))]
    async fn list(&self, wallet: Wallet, limit: u32) -> Result<Vec<Receipt>, StoreError> {
        Ok(self
            .list_page(wallet, limit, None, ReceiptFilter::default())
            .await?
            .receipts)
    }
    /// One transaction: the idempotency claim, the merchant's split and shop and the named products, the
    /// service's decision, the stock reservation and the insert, and the claim naming the new receipt (the
    /// caller keeps the response afterwards, see [`crate::IdempotencyRepository`]).
    async fn create(&self, sale: SaleTx<S>) -> Result<Committed<Sale>, TxError<SaleRefused<S>>>;
    /// One transaction: the idempotency claim, the receipt (locked against concurrent changes) and its
    /// merchant's shop, the service's decision, and the new state with its history, outbox, refund rows, and
    /// the claim naming the receipt.
    async fn transition(
        &self,
        change: TransitionTx<T>,
    ) -> Result<Committed<Transitioned>, TxError<TransitionRefused<T>>>;
    /// Unpaid receipts (of every merchant) whose payment window ended at or before `now_ms` and that are
    /// not yet expired, soonest ended first, at most `limit`: what the expiry pass fails.
    async fn windows_ended(&self, now_ms: i64, limit: u32) -> Result<Vec<(Wallet, ReceiptId)>, StoreError>;
    /// Whether a refund (of any receipt) was recorded with the transaction `tx_hash` (lowercase hex).
    async fn refund_tx_recorded(&self, tx_hash: &str) -> Result<bool, StoreError>;
    /// Refunds (of every merchant) whose transaction still waits for its confirmations, oldest first, at most
    /// `limit`: what the refund confirmation pass checks.
    async fn pending_refunds(&self, limit: u32) -> Result<Vec<PendingRefund>, StoreError>;
    /// Records the card-onramp session the payment page created for `wallet`'s receipt `id`, replacing the
    /// one before (its status and `version` stay); `false` (nothing written) when there is no such receipt or
    /// it is paid.
    async fn record_onramp_session(
        &self,
        wallet: Wallet,
        id: &ReceiptId,
        session: &OnrampSession,
    ) -> Result<bool, StoreError>;
}

/// The webhook outbox: deliveries are enqueued by [`ReceiptRepository::transition`] and leased here.
#[async_trait]
pub trait OutboxRepository: Send + Sync + fmt::Debug {
    /// Due deliveries, leased until `lease_until_ms` so that no other dispatcher (of this or another
    /// instance) claims them while their attempt runs.
    async fn claim_due(&self, claim: &Claim) -> Result<Vec<DueDelivery>, StoreError>;
    /// Records the attempt. For an endpoint's delivery it also tracks the endpoint's failing streak: the
    /// endpoint's id when this attempt disabled it (failing for 5 days; its other endpoints are told).
    async fn record_attempt(&self, record: &AttemptRecord) -> Result<Option<EndpointId>, StoreError>;
    /// `None` when the merchant has no such receipt.
    async fn list_deliveries(
        &self,
        wallet: Wallet,
        receipt_id: &ReceiptId,
    ) -> Result<Option<Vec<DeliveryLog>>, StoreError>;
    /// Enqueues a delivery's same body again as a new round; while an attempt is in flight the new round is
    /// queued and starts when that attempt ends. False when the merchant's receipt has no such delivery.
    async fn redeliver(
        &self,
        wallet: Wallet,
        receipt_id: &ReceiptId,
        delivery_id: &str,
        now_ms: i64,
    ) -> Result<bool, StoreError>;
    /// The deliveries of every subscription on the merchant's plan to the plan's webhook target, each naming
    /// its subscription; `None` when the merchant has no such plan.
    async fn list_plan_deliveries(
        &self,
        merchant: Wallet,
        plan_id: &PlanId,
    ) -> Result<Option<Vec<DeliveryLog>>, StoreError>;
    /// As [`OutboxRepository::redeliver`], for a delivery of a subscription on the merchant's plan.
    async fn redeliver_plan_delivery(
        &self,
        merchant: Wallet,
        plan_id: &PlanId,
        delivery_id: &str,
        now_ms: i64,
    ) -> Result<bool, StoreError>;
    /// How many deliveries are pending, and how many of them are in flight at `now_ms` (all merchants).
    async fn depth(&self, now_ms: i64) -> Result<OutboxDepth, StoreError>;
}

/// Shop settings and split configurations.
#[async_trait]
pub trait ShopRepository: Send + Sync + fmt::Debug {
    async fn fetch_shop(&self, wallet: Wallet) -> Result<Option<ShopConfig>, StoreError>;
    async fn save_shop(&self, config: &ShopConfig, now_ms: i64) -> Result<(), StoreError>;
    /// Sets only the merchant's fee add-on (creating the shop row with defaults when missing).
    async fn save_processing_fee(&self, wallet: Wallet, fee: FeePct, now_ms: i64) -> Result<(), StoreError>;
    async fn fetch_split(&self, wallet: Wallet) -> Result<Option<StoredSplit>, StoreError>;
    /// Creates the merchant's split; an existing one is kept unless `replace`, which archives it first.
    async fn save_split(
        &self,
        wallet: Wallet,
        split: &StoredSplit,
        replace: bool,
        now_ms: i64,
    ) -> Result<SplitSaved, StoreError>;
    /// Replaced split configurations, newest first.
    async fn list_split_history(&self, wallet: Wallet) -> Result<Vec<ArchivedSplit>, StoreError>;
}

/// Admin sign-in nonces and sessions.
#[async_trait]
pub trait SessionRepository: Send + Sync + fmt::Debug {
    /// Stores a sign-in nonce for `wallet` (and drops expired ones).
    async fn issue_nonce(
        &self,
        wallet: Wallet,
        nonce: &str,
        expires_at_ms: i64,
        now_ms: i64,
    ) -> Result<(), StoreError>;
    /// In one transaction: consumes `nonce` (it must be `session.wallet`'s and unexpired at
    /// `session.created_at_ms`) and opens the session. False when the nonce is unknown, used or expired.
    async fn open_session(&self, nonce: &str, session: &NewAdminSession) -> Result<bool, StoreError>;
    /// The session when it exists, is not revoked and has not expired at `now_ms`.
    async fn fetch_live(&self, id: &SessionId, now_ms: i64)
    -> Result<Option<StoredAdminSession>, StoreError>;
    /// Revokes one session (logout); false when it was not live.
    async fn end(&self, id: &SessionId, now_ms: i64) -> Result<bool, StoreError>;
    /// Revokes every live session of a wallet; returns how many.
    async fn revoke_wallet(&self, wallet: Wallet, now_ms: i64) -> Result<u64, StoreError>;
}
