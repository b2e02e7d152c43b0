//! Receipt routes of an admin session: refunds (`POST /api/receipts/refund`), terminal sales
//! (`POST /api/receipts/terminal`) and the sensitive statuses of `POST /api/receipts/status`.
//!
//! These move money or attest payments, which is why the server accepts them only from a signed-in
//! wallet with its CSRF token and never from a subscription key.

use payments_core::{Cents, TaxRate, Wallet};
use reqwest::Method;
use serde::{Deserialize, Serialize};

use crate::client::Client;
use crate::error::Error;
use crate::receipt::{Receipt, StatusPosted};
use crate::receipts::{PostStatus, ReceiptLine};
use crate::session::AdminSession;

/// `POST /api/receipts/refund` body. Refunds of one receipt add up to at most what was paid: short of it
/// the receipt is `refund_partial`, reaching it `refunded` (`refund_requested` while the refund's
/// transaction waits for the server's confirmations). The server verifies the transaction on chain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct RefundReceipt {
    /// The paid receipt.
    pub receipt_id: String,
    /// Its merchant.
    pub wallet: Wallet,
    /// The wallet the refund was sent to.
    pub buyer: Wallet,
    /// Amount refunded by this call: positive, at most what remains refundable.
    pub usd: Cents,
    /// What is refunded, for the record.
    pub items: Vec<ReceiptLine>,
    /// The on-chain refund transaction (`0x` + 64 hex): a transfer of the payment token of at least `usd`
    /// to `buyer`. `None` with [`RefundReceipt::simulate`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tx_hash: Option<String>,
    /// Test mode only: the server's test-mode chain sends the refund for the merchant.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub simulate: bool,
    /// Sent as the `Idempotency-Key` header: the same key and body within 24 hours replays the first
    /// answer instead of refunding twice, so a refund whose answer was lost can be sent again safely.
    /// `None` with retries on ([`crate::RetryPolicy`]): the client makes one for the call.
    #[serde(skip)]
    pub idempotency_key: Option<String>,
}

impl RefundReceipt {
    /// Refunds `usd` of `receipt_id` (merchant `wallet`) to `buyer`, paid out in transaction `tx_hash`.
    pub fn new(
        receipt_id: impl Into<String>,
        wallet: Wallet,
        buyer: Wallet,
        usd: Cents,
        tx_hash: impl Into<String>,
    ) -> Self {
        RefundReceipt {
            tx_hash: Some(tx_hash.into()),
            simulate: false,
            ..RefundReceipt::simulated(receipt_id, wallet, buyer, usd)
        }
    }

    /// Test mode only: refunds `usd` of `receipt_id` (merchant `wallet`) to `buyer` with a transfer the
    /// server's test-mode chain sends for the merchant. A server on a live chain refuses it
    /// (400 `invalid_input`, field `simulate`).
    pub fn simulated(receipt_id: impl Into<String>, wallet: Wallet, buyer: Wallet, usd: Cents) -> Self {
        RefundReceipt {
            receipt_id: receipt_id.into(),
            wallet,
            buyer,
            usd,
            items: Vec::new(),
            tx_hash: None,
            simulate: true,
            idempotency_key: None,
        }
    }

    /// Records which lines are refunded.
    #[must_use]
    pub fn items(mut self, items: Vec<ReceiptLine>) -> Self {
        self.items = items;
        self
    }

    /// Makes the refund safe to resend; see [`RefundReceipt::idempotency_key`].
    #[must_use]
    pub fn idempotency_key(mut self, key: impl Into<String>) -> Self {
        self.idempotency_key = Some(key.into());
        self
    }
}

/// `POST /api/receipts/terminal` body: an in-person sale of one taxable line, priced by the server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TerminalSale {
    /// The sale amount before tax and fee (positive, at most 2 decimals).
    pub amount_usd: Cents,
    /// The line's label (server default `Sale`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Must be `USD` when set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
    /// Tax jurisdiction (e.g. `US-CA`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub jurisdiction_code: Option<String>,
    /// Manual tax rate (0 to 1), overriding the jurisdiction's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tax_rate: Option<TaxRate>,
    /// Restricts which components of the jurisdiction apply.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tax_components: Option<Vec<String>>,
    /// The merchant; required when a platform admin sells (400 `wallet_required`), forbidden to name
    /// another merchant otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wallet: Option<Wallet>,
}

impl TerminalSale {
    /// A sale of `amount_usd`.
    pub fn new(amount_usd: Cents) -> Self {
        TerminalSale {
            amount_usd,
            label: None,
            currency: None,
            jurisdiction_code: None,
            tax_rate: None,
            tax_components: None,
            wallet: None,
        }
    }

    /// Sets the line's label.
    #[must_use]
    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }

    /// Taxes the sale in `code`.
    #[must_use]
    pub fn jurisdiction_code(mut self, code: impl Into<String>) -> Self {
        self.jurisdiction_code = Some(code.into());
        self
    }

    /// Taxes the sale at `rate`.
    #[must_use]
    pub fn tax_rate(mut self, rate: TaxRate) -> Self {
        self.tax_rate = Some(rate);
        self
    }

    /// Sells for merchant `wallet` (platform admins).
    #[must_use]
    pub fn for_wallet(mut self, wallet: Wallet) -> Self {
        self.wallet = Some(wallet);
        self
    }
}

#[derive(Debug, Deserialize)]
struct ReceiptEnvelope {
    receipt: Receipt,
}

impl Client {
    /// Records a refund (`POST /api/receipts/refund`, admin session) proven by its transaction on chain:
    /// the receipt's status after it (`refund_partial`, `refunded`, or `refund_requested` while the
    /// transaction waits for confirmations) and before.
    ///
    /// # Errors
    /// [`Error::Api`]: 400 `missing_receipt_id`, `invalid_wallet`, `invalid_buyer`, `invalid_usd` (also
    /// for more than remains refundable), `invalid_input` (`txHash`, or `simulate` on a live server),
    /// `refund_tx_not_found`, `refund_tx_mismatch`; 409 `refund_tx_reused`, `invalid_transition` (not
    /// paid), `idempotency_conflict`; 401 `unauthorized`; 403 `forbidden`; 404 `not_found`.
    pub async fn refund_receipt(
        &self,
        session: &AdminSession,
        refund: &RefundReceipt,
    ) -> Result<StatusPosted, Error> {
        let request = self
            .admin_request(session, Method::POST, "api/receipts/refund")?
            .json(refund);
        self.send_keyed(request, refund.idempotency_key.as_deref()).await
    }

    /// Creates a terminal sale's receipt (`POST /api/receipts/terminal`, admin session), status
    /// `generated`, priced with tax and the processing fee. It carries no webhook URL: an admin session
    /// has no subscription key to sign webhooks with. Sent once, even with retries on: the terminal route
    /// takes no `Idempotency-Key`, so a resend could record the sale twice.
    ///
    /// # Errors
    /// [`Error::Api`]: 403 `split_required`, 400 `invalid_amount`, 400 `wallet_required`,
    /// 400 `invalid_input`, 401 `unauthorized`, 403 `forbidden`.
    pub async fn terminal_sale(&self, session: &AdminSession, sale: &TerminalSale) -> Result<Receipt, Error> {
        let request = self
            .admin_request(session, Method::POST, "api/receipts/terminal")?
            .json(sale);
        let envelope: ReceiptEnvelope = self.send_json(request).await?;
        Ok(envelope.receipt)
    }

    /// `POST /api/receipts/status` with an admin session, for the statuses a subscription key may not
    /// post: `checkout_success`, `tx_mined`, `recipient_validated`, `tx_mismatch`, `completed`,
    /// `reconciled`, `refund_requested`, and `paid` (the admin attests the payment of the receipt's
    /// total). Refund statuses are set by [`Client::refund_receipt`] only.
    ///
    /// # Errors
    /// [`Error::Api`]: 409 `invalid_transition`, 400 `invalid_input` (e.g. a non-postable status),
    /// 401 `unauthorized`, 403 `forbidden`, 404 `not_found`.
    pub async fn post_receipt_status_as_admin(
        &self,
        session: &AdminSession,
        post: &PostStatus,
    ) -> Result<StatusPosted, Error> {
        let request = self
            .admin_request(session, Method::POST, "api/receipts/status")?
            .json(post);
        self.send_json(request).await
    }
}
