//! Receipt models: what the receipt, order and webhook-log routes answer.

use payments_core::{Cents, LineItem, PaymentBlock, ReceiptBalance, TaxRate, Wallet};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::or_unknown::ReceiptStatusValue;

/// A receipt (`GET /api/receipts/{id}`, items of `GET /api/receipts`, `POST /api/orders`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Receipt {
    /// The receipt id.
    pub receipt_id: String,
    /// What the buyer pays.
    pub total_usd: Cents,
    /// Sum of the product lines.
    #[serde(default)]
    pub subtotal_usd: Cents,
    /// Tax.
    #[serde(default)]
    pub tax_usd: Cents,
    /// Processing fee.
    #[serde(default)]
    pub fee_usd: Cents,
    /// `USD`.
    pub currency: String,
    /// Product lines, then Tax and Processing Fee lines on order receipts.
    pub line_items: Vec<LineItem>,
    /// Unix ms.
    pub created_at: i64,
    /// The merchant's brand at creation.
    #[serde(default)]
    pub brand_name: String,
    /// Current status.
    pub status: ReceiptStatusValue,
    /// Tax jurisdiction, when tax was computed from one.
    #[serde(default)]
    pub jurisdiction_code: Option<String>,
    /// Applied tax rate (0 to 1).
    #[serde(default)]
    pub tax_rate: Option<TaxRate>,
    /// Tax components applied.
    #[serde(default)]
    pub tax_components: Vec<String>,
    /// The caller's reference, echoed.
    #[serde(default)]
    pub transaction_id: Option<String>,
    /// The caller's metadata, echoed.
    #[serde(default)]
    pub metadata: Option<Map<String, Value>>,
    /// On-chain payment hash.
    #[serde(default)]
    pub transaction_hash: Option<String>,
    /// Unix ms of the payment.
    #[serde(default)]
    pub transaction_timestamp: Option<i64>,
    /// Where the buyer pays (`{base_url}/portal/{id}?...`).
    #[serde(default)]
    pub payment_url: Option<String>,
    /// Webhook target of status changes.
    #[serde(default)]
    pub webhook_url: Option<String>,
    /// The paying wallet, once known.
    #[serde(default)]
    pub buyer_wallet: Option<Wallet>,
    /// Failure details of a `failed` receipt.
    #[serde(flatten)]
    pub failure: FailureFields,
    /// The transfer that pays this receipt, for receipts with their own deposit address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payment: Option<PaymentInstruction>,
    /// The card-onramp session its payment page created last ("Pay with card"), as in its webhooks.
    #[serde(default)]
    pub onramp_session_id: Option<String>,
    /// True once it has a card-onramp session: each is created for this receipt alone.
    #[serde(default)]
    pub is_onramp_session_unique: bool,
    /// What its deposit holds to the base unit (`amountReceived...`, `amountDue...`, `overpaid...`), for
    /// receipts with their own deposit address; read from the exact `...BaseUnits` strings.
    #[serde(flatten)]
    pub balance: Option<ReceiptBalance>,
}

/// Send exactly `amount` base units of `token` to `to` on chain `chain_id`; `to` is the receipt's own deposit
/// address, so the transfer pays this receipt and no other.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PaymentInstruction {
    /// The EVM chain id.
    pub chain_id: u64,
    /// The stablecoin contract.
    pub token: Wallet,
    /// The receipt's deposit address.
    pub to: Wallet,
    /// Token base units (6 decimals), as a decimal integer string.
    pub amount: String,
    /// Once the chain paid the receipt (and while that payment stands): the completing transfer's
    /// `blockNumber`, `blockHash`, `confirmations` and `finalized` (`GET /api/receipts/{id}` only).
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub block: Option<PaymentBlock>,
}

/// The failure fields of a failed receipt or status read (all `None` otherwise).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct FailureFields {
    /// `PORTAL_...` code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure_code: Option<String>,
    /// One of the spec's categories (`card_decline`, `session`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure_category: Option<String>,
    /// What went wrong.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure_reason: Option<String>,
    /// What the buyer can do.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure_action: Option<String>,
}

impl FailureFields {
    /// All four fields, as a `failed` status post needs them.
    pub fn new(
        code: impl Into<String>,
        category: impl Into<String>,
        reason: impl Into<String>,
        action: impl Into<String>,
    ) -> Self {
        FailureFields {
            failure_code: Some(code.into()),
            failure_category: Some(category.into()),
            failure_reason: Some(reason.into()),
            failure_action: Some(action.into()),
        }
    }
}

/// `POST /api/receipts` answer (201).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CreatedReceipt {
    /// The receipt id.
    pub id: String,
    /// Where the buyer pays.
    pub payment_url: String,
    /// `pending`.
    pub status: ReceiptStatusValue,
    /// The onramp redirect, echoed.
    #[serde(default)]
    pub redirect_url: Option<String>,
    /// The webhook target, echoed.
    #[serde(default)]
    pub webhook_url: Option<String>,
}

/// `GET /api/receipts/status` answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ReceiptStatusView {
    /// The receipt id.
    pub id: String,
    /// Current status.
    pub status: ReceiptStatusValue,
    /// On-chain hash, when paid.
    #[serde(default)]
    pub transaction_hash: Option<String>,
    /// `USD`.
    pub currency: String,
    /// The receipt total.
    pub amount: Cents,
    /// Failure details of a `failed` receipt.
    #[serde(flatten)]
    pub failure: FailureFields,
    /// What its deposit holds, for receipts with their own deposit address (see [`Receipt::balance`]).
    #[serde(flatten)]
    pub balance: Option<ReceiptBalance>,
}

/// `POST /api/receipts/status` answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct StatusPosted {
    /// The status after the post.
    pub status: ReceiptStatusValue,
    /// The status before, when it moved.
    #[serde(default)]
    pub previous_status: Option<ReceiptStatusValue>,
    /// `true` when the post was acknowledged and changed nothing (e.g. tracking after payment).
    #[serde(default)]
    pub ignored: bool,
}
