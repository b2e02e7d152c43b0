//! Bodies of the admin receipt routes: `POST /api/receipts/refund` and `POST /api/receipts/terminal`.

use payments_core::{Cents, LineItem, TaxRate, Wallet};
use serde_json::Value;

use crate::field_error::FieldError;
use crate::receipt::id::ReceiptId;
use crate::receipt::status_post::transaction_hash;

const MAX_LABEL_CHARS: usize = 200;
const MAX_REFUND_ITEMS: usize = 200;

#[derive(Debug, Default)]
pub struct RefundRequest {
    pub receipt_id: Option<String>,
    pub wallet: Option<String>,
    pub buyer: Option<String>,
    pub usd: Option<Value>,
    pub items: Vec<RefundItemRequest>,
    /// The merchant's refund transaction (`0x` + 64 hex); the server verifies it on chain.
    pub tx_hash: Option<String>,
    /// Test mode only: the test-mode chain sends the refund for the merchant (no `txHash` then).
    pub simulate: bool,
}

#[derive(Debug)]
pub struct RefundItemRequest {
    pub label: String,
    pub price_usd: Cents,
    pub qty: Option<u32>,
}

/// A validated refund.
#[derive(Debug, Clone)]
pub struct Refund {
    pub receipt_id: ReceiptId,
    pub wallet: Wallet,
    pub buyer: Wallet,
    pub amount: Cents,
    pub items: Vec<LineItem>,
    pub transfer: RefundTransfer,
}

/// Where the refund's money moved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefundTransfer {
    /// In this transaction (lowercase `0x` + 64 hex), to be verified on chain.
    Sent(String),
    /// Not yet: the test-mode chain is to send it for the merchant.
    Simulate,
}

/// Why an admin receipt body was refused, in the spec's codes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AdminRequestError {
    MissingReceiptId,
    InvalidWallet(String),
    InvalidBuyer(String),
    InvalidUsd(String),
    WalletRequired,
    InvalidAmount(String),
    Invalid(FieldError),
}

impl From<FieldError> for AdminRequestError {
    fn from(error: FieldError) -> Self {
        AdminRequestError::Invalid(error)
    }
}

impl RefundRequest {
    pub fn parse(self) -> Result<Refund, AdminRequestError> {
        let receipt_id = present(self.receipt_id).ok_or(AdminRequestError::MissingReceiptId)?;
        let receipt_id = ReceiptId::parse("receiptId", &receipt_id)?;
        let wallet = present(self.wallet)
            .ok_or_else(|| AdminRequestError::InvalidWallet("wallet is required".to_owned()))
            .and_then(|text| {
                Wallet::parse(&text)
                    .map_err(|error| AdminRequestError::InvalidWallet(format!("wallet: {error}")))
            })?;
        let buyer = present(self.buyer)
            .ok_or_else(|| AdminRequestError::InvalidBuyer("buyer is required".to_owned()))
            .and_then(|text| {
                Wallet::parse(&text)
                    .map_err(|error| AdminRequestError::InvalidBuyer(format!("buyer: {error}")))
            })?;
        let amount = self
            .usd
            .ok_or_else(|| AdminRequestError::InvalidUsd("usd is required".to_owned()))
            .and_then(|value| {
                Cents::from_json_value(&value)
                    .map_err(|error| AdminRequestError::InvalidUsd(format!("usd: {error}")))
            })?;
        if amount <= Cents::ZERO {
            return Err(AdminRequestError::InvalidUsd(
                "usd: must be greater than 0".to_owned(),
            ));
        }
        if self.items.len() > MAX_REFUND_ITEMS {
            return Err(FieldError::new("items", format!("at most {MAX_REFUND_ITEMS} items")).into());
        }
        let mut items = Vec::with_capacity(self.items.len());
        for (index, item) in self.items.into_iter().enumerate() {
            items.push(LineItem {
                label: label(&format!("items[{index}].label"), &item.label)?,
                price_usd: item.price_usd,
                qty: item.qty,
                unit_price_usd: None,
                item_id: None,
                sku: None,
                thumb: None,
            });
        }
        let transfer = match (present(self.tx_hash), self.simulate) {
            (Some(_), true) => {
                return Err(FieldError::new(
                    "txHash",
                    "give either txHash (a sent refund) or simulate (test mode sends it), not both",
                )
                .into());
            }
            (None, true) => RefundTransfer::Simulate,
            (None, false) => {
                return Err(FieldError::new(
                    "txHash",
                    "is required: the transaction that sent the refund to the buyer",
                )
                .into());
            }
            (Some(hash), false) => RefundTransfer::Sent(
                transaction_hash(&hash).map_err(|error| FieldError::new("txHash", error.message))?,
            ),
        };
        Ok(Refund {
            receipt_id,
            wallet,
            buyer,
            amount,
            items,
            transfer,
        })
    }
}

#[derive(Debug, Default)]
pub struct TerminalRequest {
    pub amount_usd: Option<Value>,
    pub label: Option<String>,
    pub currency: Option<String>,
    pub jurisdiction_code: Option<String>,
    pub tax_rate: Option<TaxRate>,
    pub tax_components: Option<Vec<String>>,
    pub wallet: Option<Wallet>,
}

/// A validated terminal sale (the merchant is decided with the session).
#[derive(Debug, Clone)]
pub struct TerminalSale {
    pub amount: Cents,
    pub label: String,
    pub explicit_rate: Option<TaxRate>,
    pub jurisdiction_code: Option<String>,
    pub tax_components: Option<Vec<String>>,
}

impl TerminalRequest {
    pub fn parse(self) -> Result<TerminalSale, AdminRequestError> {
        let amount = self
            .amount_usd
            .ok_or_else(|| AdminRequestError::InvalidAmount("amountUsd is required".to_owned()))
            .and_then(|value| {
                Cents::from_json_value(&value)
                    .map_err(|error| AdminRequestError::InvalidAmount(format!("amountUsd: {error}")))
            })?;
        if amount <= Cents::ZERO {
            return Err(AdminRequestError::InvalidAmount(
                "amountUsd: must be greater than 0".to_owned(),
            ));
        }
        let currency = present(self.currency).unwrap_or_else(|| "USD".to_owned());
        if !currency.eq_ignore_ascii_case("USD") {
            return Err(FieldError::new("currency", "only USD is supported").into());
        }
        let label = match present(self.label) {
            Some(text) => label("label", &text)?,
            None => "Sale".to_owned(),
        };
        Ok(TerminalSale {
            amount,
            label,
            explicit_rate: self.tax_rate,
            jurisdiction_code: present(self.jurisdiction_code),
            tax_components: self.tax_components,
        })
    }
}

fn label(field: &str, text: &str) -> Result<String, FieldError> {
    let text = text.trim();
    if text.is_empty() || text.chars().count() > MAX_LABEL_CHARS || text.chars().any(char::is_control) {
        return Err(FieldError::new(
            field,
            format!("must be 1 to {MAX_LABEL_CHARS} printable characters"),
        ));
    }
    Ok(text.to_owned())
}

fn present(value: Option<String>) -> Option<String> {
    value
        .map(|value| value.trim().to_owned())
        .filter(|value| !value.is_empty())
}
