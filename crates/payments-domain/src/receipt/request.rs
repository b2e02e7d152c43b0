//! `POST /api/receipts` body, and the new-receipt record every creation path hands to the store.

use payments_core::{Authority, Cents, LineItem, TokenAmount, Wallet};

use crate::field_error::FieldError;
use crate::receipt::id::ReceiptId;
use crate::receipt::options::{ReceiptOptions, ReceiptOptionsRequest};
use crate::receipt::payment_window::PaymentWindow;
use crate::receipt::webhook_target::TargetPolicy;
use crate::receipt::{PaymentTarget, Receipt, ReceiptAmounts, ReceiptSource, ReceiptTax};

/// Most lines on a caller-built receipt.
pub(super) const MAX_RECEIPT_LINES: usize = 200;
const MAX_LABEL_CHARS: usize = 200;

#[derive(Debug)]
pub struct CreateReceiptRequest {
    pub id: String,
    pub line_items: Vec<LineRequest>,
    pub total_usd: Cents,
    pub options: ReceiptOptionsRequest,
}

#[derive(Debug)]
pub struct LineRequest {
    pub label: String,
    pub price_usd: Cents,
    pub qty: Option<u32>,
}

/// A validated `POST /api/receipts` body.
#[derive(Debug, Clone)]
pub struct ReceiptDraft {
    pub id: ReceiptId,
    pub line_items: Vec<LineItem>,
    pub total: Cents,
    pub options: ReceiptOptions,
    pub webhook_url: Option<String>,
    /// `expiresInMins`; `None`: the server's default.
    pub payment_window: Option<PaymentWindow>,
}

impl CreateReceiptRequest {
    pub fn parse(self, policy: TargetPolicy) -> Result<ReceiptDraft, FieldError> {
        let id = ReceiptId::parse("id", &self.id)?;
        if self.line_items.is_empty() || self.line_items.len() > MAX_RECEIPT_LINES {
            return Err(FieldError::new(
                "lineItems",
                format!(
                    "must hold 1 to {MAX_RECEIPT_LINES} lines, got {}",
                    self.line_items.len()
                ),
            ));
        }
        let mut sum = Cents::ZERO;
        let mut line_items = Vec::with_capacity(self.line_items.len());
        for (index, line) in self.line_items.into_iter().enumerate() {
            let label = line.label.trim();
            if label.is_empty() || label.chars().count() > MAX_LABEL_CHARS {
                return Err(FieldError::new(
                    format!("lineItems[{index}].label"),
                    format!("must be 1 to {MAX_LABEL_CHARS} characters"),
                ));
            }
            if line.qty == Some(0) {
                return Err(FieldError::new(
                    format!("lineItems[{index}].qty"),
                    "must be at least 1",
                ));
            }
            sum = sum
                .checked_add(line.price_usd)
                .map_err(|error| FieldError::new("lineItems", error.to_string()))?;
            line_items.push(LineItem {
                label: label.to_owned(),
                price_usd: line.price_usd,
                qty: line.qty,
                unit_price_usd: None,
                item_id: None,
                sku: None,
                thumb: None,
            });
        }
        if sum != self.total_usd {
            return Err(FieldError::new(
                "totalUsd",
                format!("must equal the sum of lineItems ({sum}), got {}", self.total_usd),
            ));
        }
        let webhook_url = webhook_url(policy, self.options.webhook_url.clone())?;
        let payment_window = self.options.payment_window()?;
        Ok(ReceiptDraft {
            id,
            line_items,
            total: self.total_usd,
            payment_window,
            options: self.options.parse(policy)?,
            webhook_url,
        })
    }
}

/// Checks a `webhook_url` against the target rules; empty counts as absent.
pub(super) fn webhook_url(policy: TargetPolicy, value: Option<String>) -> Result<Option<String>, FieldError> {
    webhook_target("webhook_url", policy, value)
}

/// Checks the webhook target named `field` against the target rules; empty counts as absent. Receipts and
/// subscription plans share it, so both accept exactly the same URLs.
pub fn webhook_target(
    field: &str,
    policy: TargetPolicy,
    value: Option<String>,
) -> Result<Option<String>, FieldError> {
    match value
        .map(|value| value.trim().to_owned())
        .filter(|value| !value.is_empty())
    {
        None => Ok(None),
        Some(value) => policy
            .check(&value)
            .map(|url| Some(url.to_string()))
            .map_err(|error| FieldError::new(field, error.to_string())),
    }
}

/// Everything the store needs to insert a receipt.
#[derive(Debug, Clone)]
pub struct NewReceipt {
    pub id: ReceiptId,
    pub wallet: Wallet,
    pub source: ReceiptSource,
    pub currency: String,
    pub amounts: ReceiptAmounts,
    pub line_items: Vec<LineItem>,
    pub brand_name: String,
    pub tax: ReceiptTax,
    pub options: ReceiptOptions,
    pub webhook_url: Option<String>,
    /// The creating API key, sealed with the master key; `None` when the caller presented no key (edge path).
    pub sealed_signing_key: Option<Vec<u8>>,
    /// Where it is paid, decided with the merchant's split in the creating transaction.
    pub payment: Option<PaymentTarget>,
    /// The end of its payment window (Unix ms).
    pub expires_at: i64,
    pub now_ms: i64,
}

impl NewReceipt {
    /// The receipt exactly as its insert stores it (the initial status, version 0, nothing paid, refunded
    /// or failed yet), so the creating transaction need not read back the row it just wrote. The
    /// repository contract suite compares this with a read of the row on every backend.
    pub fn into_stored(self) -> Receipt {
        Receipt {
            status: self.source.initial_status(),
            status_authority: Authority::Buyer,
            version: 0,
            paid: Cents::ZERO,
            refunded: Cents::ZERO,
            transaction_hash: None,
            transaction_timestamp: None,
            buyer_wallet: None,
            failure: None,
            created_at: self.now_ms,
            updated_at: self.now_ms,
            id: self.id,
            wallet: self.wallet,
            source: self.source,
            currency: self.currency,
            amounts: self.amounts,
            line_items: self.line_items,
            brand_name: self.brand_name,
            tax: self.tax,
            options: self.options,
            webhook_url: self.webhook_url,
            payment: self.payment,
            expires_at: Some(self.expires_at),
            expired: false,
            paid_late: false,
            stock_short: false,
            received: TokenAmount::from_base_units(0),
            onramp: None,
        }
    }
}
