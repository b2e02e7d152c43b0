//! Receipts: what a merchant is owed, its status, and what the buyer and the caller told us about it.

mod actor;
mod admin_requests;
mod id;
mod onramp_session;
mod options;
mod order_request;
mod payment_target;
mod payment_window;
mod request;
mod status_post;
mod webhook_target;

use payments_core::{
    Authority, Cents, Failure, LineItem, ReceiptBalance, ReceiptStatus, TaxRate, TokenAmount, Wallet,
};

pub use actor::Actor;
pub use admin_requests::{
    AdminRequestError, Refund, RefundItemRequest, RefundRequest, RefundTransfer, TerminalRequest,
    TerminalSale,
};
pub use id::{DeliveryId, ReceiptId};
pub use onramp_session::OnrampSession;
pub use options::{BillingAddress, ReceiptOptions, ReceiptOptionsRequest};
pub use order_request::{CreateOrderRequest, ItemRef, OrderDraft, OrderItemRequest, OrderRequestError};
pub use payment_target::PaymentTarget;
pub use payment_window::PaymentWindow;
pub use request::{CreateReceiptRequest, LineRequest, NewReceipt, ReceiptDraft, webhook_target};
pub use status_post::{StatusPost, StatusPostError, StatusPostRequest};
pub use webhook_target::{TargetError, TargetPolicy, endpoint_of};

/// How a receipt came to be; decides its starting status and whether paying it takes stock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReceiptSource {
    /// `POST /api/receipts`: caller-assigned id and lines; starts `pending`.
    Api,
    /// `POST /api/orders`: priced from inventory; starts `generated`; paying it decrements finite stock.
    Order,
    /// `POST /api/receipts/terminal`: one amount; starts `generated`.
    Terminal,
}

impl ReceiptSource {
    pub const fn as_str(self) -> &'static str {
        match self {
            ReceiptSource::Api => "api",
            ReceiptSource::Order => "order",
            ReceiptSource::Terminal => "terminal",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        [ReceiptSource::Api, ReceiptSource::Order, ReceiptSource::Terminal]
            .into_iter()
            .find(|source| source.as_str() == text)
    }

    pub const fn initial_status(self) -> ReceiptStatus {
        match self {
            ReceiptSource::Api => ReceiptStatus::Pending,
            ReceiptSource::Order | ReceiptSource::Terminal => ReceiptStatus::Generated,
        }
    }
}

/// Amounts of a receipt, in cents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReceiptAmounts {
    pub subtotal: Cents,
    pub tax: Cents,
    pub fee: Cents,
    pub total: Cents,
}

/// How tax was decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReceiptTax {
    pub jurisdiction_code: Option<String>,
    pub rate: TaxRate,
    pub components: Vec<String>,
}

impl ReceiptTax {
    pub fn none() -> Self {
        ReceiptTax {
            jurisdiction_code: None,
            rate: TaxRate::ZERO,
            components: Vec::new(),
        }
    }
}

/// A stored receipt (the creating key is kept apart, encrypted, and never loaded here).
#[derive(Debug, Clone, PartialEq)]
pub struct Receipt {
    pub id: ReceiptId,
    pub wallet: Wallet,
    pub source: ReceiptSource,
    pub status: ReceiptStatus,
    /// Bumped by every accepted transition (optimistic concurrency).
    pub version: i64,
    pub currency: String,
    pub amounts: ReceiptAmounts,
    pub paid: Cents,
    pub refunded: Cents,
    /// Base units of the payment token its deposit had received at its last status change (`received_units`);
    /// the balance (`amountReceivedUsd`, `amountDueUsd`, `overpaidUsd`) is computed from it.
    pub received: TokenAmount,
    pub line_items: Vec<LineItem>,
    pub brand_name: String,
    pub tax: ReceiptTax,
    pub options: ReceiptOptions,
    pub webhook_url: Option<String>,
    pub transaction_hash: Option<String>,
    pub transaction_timestamp: Option<i64>,
    pub buyer_wallet: Option<Wallet>,
    pub failure: Option<Failure>,
    pub created_at: i64,
    pub updated_at: i64,
    /// Who set `status`; only the same or a higher authority may change it.
    pub status_authority: Authority,
    /// Its deposit address and split, fixed at creation (`None` for receipts from before deposits).
    pub payment: Option<PaymentTarget>,
    /// The end of its payment window (Unix ms); `None` for receipts from before payment windows.
    pub expires_at: Option<i64>,
    /// The window ended unpaid: the receipt failed with `PORTAL_SESSION_EXPIRED` and released its stock.
    pub expired: bool,
    /// Paid after its window ended (`paidLate`): the merchant decides whether to fulfil or refund.
    pub paid_late: bool,
    /// Paid late when its released stock was no longer there to take again (`stockShort`).
    pub stock_short: bool,
    /// The card-onramp session its payment page created last, if any.
    pub onramp: Option<OnrampSession>,
}

impl Receipt {
    /// Whether its payment window has ended at `now_ms` (never for receipts without one).
    pub fn window_ended(&self, now_ms: i64) -> bool {
        self.expires_at.is_some_and(|at| at <= now_ms)
    }

    /// What its deposit holds against its total; `None` without a deposit address (nothing is counted).
    pub fn balance(&self) -> Option<ReceiptBalance> {
        self.payment
            .map(|_| ReceiptBalance::of(self.amounts.total, self.received))
    }
}
