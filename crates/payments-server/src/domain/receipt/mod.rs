//! Receipts: what a merchant is owed, its status, and what the buyer and the caller told us about it.

mod actor;
mod admin_requests;
mod error;
mod id;
mod options;
mod order_request;
mod payment_target;
mod request;
mod status_post;
mod webhook_target;

use payments_core::{Authority, Cents, Failure, LineItem, ReceiptStatus, TaxRate, Wallet};

pub(crate) use actor::Actor;
pub(crate) use admin_requests::{AdminRequestError, Refund, RefundRequest, TerminalRequest, TerminalSale};
pub(crate) use error::{OrderError, ReceiptError};
pub(crate) use id::{DeliveryId, ReceiptId};
pub(crate) use options::{BillingAddress, ReceiptOptions};
pub(crate) use order_request::{CreateOrderRequest, ItemRef, OrderDraft, OrderRequestError};
pub(crate) use payment_target::PaymentTarget;
pub(crate) use request::{CreateReceiptRequest, NewReceipt, ReceiptDraft, webhook_target};
pub(crate) use status_post::{StatusPost, StatusPostError, StatusPostRequest};
pub(crate) use webhook_target::{TargetError, TargetPolicy, endpoint_of};

/// How a receipt came to be; decides its starting status and whether paying it takes stock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ReceiptSource {
    /// `POST /api/receipts`: caller-assigned id and lines; starts `pending`.
    Api,
    /// `POST /api/orders`: priced from inventory; starts `generated`; paying it decrements finite stock.
    Order,
    /// `POST /api/receipts/terminal`: one amount; starts `generated`.
    Terminal,
}

impl ReceiptSource {
    pub(crate) const fn as_str(self) -> &'static str {
        match self {
            ReceiptSource::Api => "api",
            ReceiptSource::Order => "order",
            ReceiptSource::Terminal => "terminal",
        }
    }

    pub(crate) fn parse(text: &str) -> Option<Self> {
        [ReceiptSource::Api, ReceiptSource::Order, ReceiptSource::Terminal]
            .into_iter()
            .find(|source| source.as_str() == text)
    }

    pub(crate) const fn initial_status(self) -> ReceiptStatus {
        match self {
            ReceiptSource::Api => ReceiptStatus::Pending,
            ReceiptSource::Order | ReceiptSource::Terminal => ReceiptStatus::Generated,
        }
    }
}

/// Amounts of a receipt, in cents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ReceiptAmounts {
    pub(crate) subtotal: Cents,
    pub(crate) tax: Cents,
    pub(crate) fee: Cents,
    pub(crate) total: Cents,
}

/// How tax was decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ReceiptTax {
    pub(crate) jurisdiction_code: Option<String>,
    pub(crate) rate: TaxRate,
    pub(crate) components: Vec<String>,
}

impl ReceiptTax {
    pub(crate) fn none() -> Self {
        ReceiptTax {
            jurisdiction_code: None,
            rate: TaxRate::ZERO,
            components: Vec::new(),
        }
    }
}

/// A stored receipt (the creating key is kept apart, encrypted, and never loaded here).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Receipt {
    pub(crate) id: ReceiptId,
    pub(crate) wallet: Wallet,
    pub(crate) source: ReceiptSource,
    pub(crate) status: ReceiptStatus,
    /// Bumped by every accepted transition (optimistic concurrency).
    pub(crate) version: i64,
    pub(crate) currency: String,
    pub(crate) amounts: ReceiptAmounts,
    pub(crate) paid: Cents,
    pub(crate) refunded: Cents,
    pub(crate) line_items: Vec<LineItem>,
    pub(crate) brand_name: String,
    pub(crate) tax: ReceiptTax,
    pub(crate) options: ReceiptOptions,
    pub(crate) webhook_url: Option<String>,
    pub(crate) transaction_hash: Option<String>,
    pub(crate) transaction_timestamp: Option<i64>,
    pub(crate) buyer_wallet: Option<Wallet>,
    pub(crate) failure: Option<Failure>,
    pub(crate) created_at: i64,
    pub(crate) updated_at: i64,
    /// Who set `status`; only the same or a higher authority may change it.
    pub(crate) status_authority: Authority,
    /// Its deposit address and split, fixed at creation (`None` for receipts from before deposits).
    pub(crate) payment: Option<PaymentTarget>,
}
