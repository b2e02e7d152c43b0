//! The receipt service: what every receipt use case holds (the repositories, the clock, the master key that
//! seals webhook signing keys, the dispatcher's wake-up and the public base URL of payment links).

use std::sync::Arc;

use payments_core::Wallet;
use tokio::sync::Notify;
use url::Url;

use crate::chain::Chain;
use crate::domain::chain::ChainContracts;
use crate::domain::receipt::{OrderError, PaymentTarget, PaymentWindow, Receipt, ReceiptError, ReceiptId};
use crate::runtime::clock::Clock;
use crate::runtime::master_key::MasterKey;
use crate::secret::Secret;
use crate::services::receipts::create::payment_url;
use crate::store::{
    ChainRepository, IdempotencyClaim, MerchantSnapshot, OutboxRepository, Receipts, Sale, SaleRefused,
    ShopRepository, TransitionRefused, TxError,
};

/// An `Idempotency-Key` as the HTTP layer read it: the key and the SHA-256 of the request body.
#[derive(Debug, Clone)]
pub(crate) struct IdempotencyRequest {
    pub(crate) key: String,
    pub(crate) request_hash: String,
}

impl IdempotencyRequest {
    /// The claim of this request by `wallet` on the route `scope` (e.g. `orders.create`) at `now_ms`.
    pub(crate) fn claim(self, wallet: Wallet, scope: &'static str, now_ms: i64) -> IdempotencyClaim {
        IdempotencyClaim {
            wallet,
            scope,
            key: self.key,
            request_hash: self.request_hash,
            now_ms,
        }
    }
}

#[derive(Debug, Clone)]
pub(crate) struct ReceiptService {
    pub(crate) receipts: Arc<Receipts>,
    pub(crate) outbox: Arc<dyn OutboxRepository>,
    pub(crate) shops: Arc<dyn ShopRepository>,
    pub(crate) clock: Arc<dyn Clock>,
    /// `None` when production runs without `--master-key` (receipts cannot store signing keys then).
    pub(crate) master_key: Option<MasterKey>,
    /// Signalled after a commit that enqueued a webhook, so delivery does not wait for the next poll.
    pub(crate) wakeup: Arc<Notify>,
    pub(crate) base_url: Url,
    /// How new receipts get their deposit address.
    pub(crate) deposits: Deposits,
    /// Test mode (the simulated chain): an admin's word may stand for the chain's (`paid`, `completed`).
    pub(crate) admin_attests_payments: bool,
    /// Where claimed payments are verified.
    pub(crate) chain: Arc<dyn Chain>,
    /// Wakes the deposit watcher (a verified claim is worth a pass now).
    pub(crate) chain_wakeup: Arc<Notify>,
    /// Settlement attempts, shown on paid receipts.
    pub(crate) chain_records: Arc<dyn ChainRepository>,
    /// The payment window of receipts created without `expiresInMins` (`--payment-window-mins`).
    pub(crate) payment_window: PaymentWindow,
    /// Blocks on top of a refund's transaction before it counts as confirmed (`--confirmations`).
    pub(crate) confirmations: u64,
}

/// The chain's factories and the payment token: what a new receipt's deposit address is derived from.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Deposits {
    /// `None`: no factories known (production without `--chain-contracts`); receipts pay the split directly.
    pub(crate) contracts: Option<ChainContracts>,
    /// The token buyers pay with (the one payment links name).
    pub(crate) token: Wallet,
}

impl Deposits {
    /// The deposit of `wallet`'s new receipt `id`, forwarding to the merchant's current split.
    pub(crate) fn target(
        self,
        merchant: &MerchantSnapshot,
        wallet: Wallet,
        id: &ReceiptId,
    ) -> Option<PaymentTarget> {
        let split = merchant.split.as_ref()?;
        PaymentTarget::derive(self.contracts.as_ref(), self.token, wallet, id, split.address)
    }
}

impl ReceiptService {
    /// The claim for `request` by `wallet` on the route `scope`, stamped with the service's clock.
    pub(super) fn claim(
        &self,
        wallet: Wallet,
        scope: &'static str,
        request: IdempotencyRequest,
    ) -> IdempotencyClaim {
        request.claim(wallet, scope, self.clock.now_ms())
    }

    /// The payment link of a stored receipt: its own deposit address, or for receipts from before deposits
    /// `merchant_recipient` (see [`recipient_of`]).
    pub(crate) fn link_for(&self, receipt: &Receipt, merchant_recipient: Wallet) -> String {
        payment_url(
            &self.base_url,
            &receipt.id,
            receipt.payment.map_or(merchant_recipient, |target| target.to),
            receipt.wallet,
            receipt.options.redirect_url.as_deref(),
        )
    }

    /// The address buyers of `wallet`'s receipts pay.
    pub(crate) async fn recipient(&self, wallet: Wallet) -> Result<Wallet, ReceiptError> {
        let split = self.shops.fetch_split(wallet).await?;
        Ok(recipient_of(wallet, &MerchantSnapshot { split, shop: None }))
    }

    /// Seals the creating key for `id` when the receipt has a webhook target, the only use of the key; a
    /// receipt without one stores no secret. A webhook target needs a key to sign with, which the edge path
    /// does not carry.
    pub(super) fn seal_signing_key(
        &self,
        id: &ReceiptId,
        key: Option<&Secret>,
        webhook_url: Option<&str>,
    ) -> Result<Option<Vec<u8>>, ReceiptError> {
        if webhook_url.is_none() {
            return Ok(None);
        }
        match (key, &self.master_key) {
            (None, _) => Err(ReceiptError::WebhookWithoutKey),
            (Some(key), Some(master)) => Ok(Some(master.seal(key.expose().as_bytes(), id.as_str()))),
            (Some(_), None) => Err(ReceiptError::NoMasterKey),
        }
    }
}

/// The payment link of a committed sale, naming the split read in the sale's transaction.
pub(crate) fn sale_link(base_url: &Url, sale: &Sale) -> String {
    let receipt = &sale.receipt;
    payment_url(
        base_url,
        &receipt.id,
        pay_to(receipt, &sale.merchant),
        receipt.wallet,
        receipt.options.redirect_url.as_deref(),
    )
}

/// The address buyers of `receipt` pay: its own deposit address, fixed at creation; for receipts from before
/// deposits, the merchant's split (or wallet) as read now.
pub(crate) fn pay_to(receipt: &Receipt, merchant: &MerchantSnapshot) -> Wallet {
    let split = merchant.split.as_ref().map(|split| split.address);
    paid_at(receipt.payment, split, receipt.wallet)
}

/// [`pay_to`] from the receipt's payment target, its merchant's split address and wallet.
pub(crate) fn paid_at(payment: Option<PaymentTarget>, split: Option<Wallet>, wallet: Wallet) -> Wallet {
    payment.map_or_else(|| split.unwrap_or(wallet), |target| target.to)
}

/// The address buyers pay: the merchant's split contract when it configured one, else its wallet.
pub(crate) fn recipient_of(wallet: Wallet, merchant: &MerchantSnapshot) -> Wallet {
    paid_at(None, merchant.split.as_ref().map(|split| split.address), wallet)
}

/// The shop's brand name as receipts show it.
pub(super) fn brand_name_of(merchant: &MerchantSnapshot) -> String {
    merchant
        .shop
        .as_ref()
        .map(|shop| shop.brand_name.clone())
        .unwrap_or_default()
}

/// A sale's transaction error as the use case's error: the decision's own refusal as it was, the store's
/// refusals as the receipt errors the API answers.
pub(super) fn sale_error(error: TxError<SaleRefused<OrderError>>) -> OrderError {
    match error {
        TxError::Refused(SaleRefused::Decision(error)) => error,
        TxError::Refused(SaleRefused::IdTaken(id)) => OrderError::Receipt(ReceiptError::IdTaken(id)),
        TxError::Refused(SaleRefused::OutOfStock { sku, available }) => {
            OrderError::OutOfStock { sku, available }
        }
        TxError::IdempotencyConflict => OrderError::Receipt(ReceiptError::IdempotencyConflict),
        TxError::Store(error) => error.into(),
    }
}

/// A transition's transaction error as the use case's error.
pub(super) fn transition_error(error: TxError<TransitionRefused<ReceiptError>>) -> ReceiptError {
    match error {
        TxError::Refused(TransitionRefused::Decision(error)) => error,
        TxError::Refused(TransitionRefused::NotFound(id)) => ReceiptError::NotFound(id),
        TxError::Refused(TransitionRefused::RefundTxTaken(hash)) => ReceiptError::RefundTxReused(hash),
        TxError::IdempotencyConflict => ReceiptError::IdempotencyConflict,
        TxError::Store(error) => error.into(),
    }
}
