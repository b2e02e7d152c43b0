//! The Receipt as it appears on the wire (spec "Receipt" plus subtotal/tax/fee, links and failure fields).

use payments_core::{Cents, Failure, LineItem, PaymentBlock, ReceiptBalance, ReceiptStatus, TaxRate, Wallet};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::domain::chain::PaymentChain;
use crate::domain::receipt::{BillingAddress, Receipt};
use crate::store::SettlementState;

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = Receipt)]
pub(crate) struct ReceiptView<'a> {
    receipt_id: &'a str,
    #[schema(value_type = crate::api::openapi::core_types::Usd)]
    total_usd: Cents,
    #[schema(value_type = crate::api::openapi::core_types::Usd)]
    subtotal_usd: Cents,
    #[schema(value_type = crate::api::openapi::core_types::Usd)]
    tax_usd: Cents,
    #[schema(value_type = crate::api::openapi::core_types::Usd)]
    fee_usd: Cents,
    currency: &'a str,
    #[schema(value_type = Vec<crate::api::openapi::core_types::LineItem>)]
    line_items: &'a [LineItem],
    created_at: i64,
    brand_name: &'a str,
    #[schema(value_type = crate::api::openapi::core_types::ReceiptStatus)]
    status: ReceiptStatus,
    jurisdiction_code: Option<&'a str>,
    #[schema(value_type = crate::api::openapi::core_types::TaxRate)]
    tax_rate: TaxRate,
    tax_components: &'a [String],
    transaction_id: Option<&'a str>,
    #[schema(value_type = Option<Object>)]
    metadata: Option<&'a Map<String, Value>>,
    transaction_hash: Option<&'a str>,
    transaction_timestamp: Option<i64>,
    billing_address: BillingView<'a>,
    payment_url: &'a str,
    redirect_url: Option<&'a str>,
    webhook_url: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    onramp_redirect_url: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    post_payment_logic: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    buyer_email: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<crate::api::openapi::core_types::Wallet>)]
    buyer_wallet: Option<Wallet>,
    #[serde(skip_serializing_if = "Cents::is_zero")]
    #[schema(value_type = crate::api::openapi::core_types::Usd)]
    refunded_usd: Cents,
    /// What its deposit holds: `amountReceivedUsd`, `amountDueUsd`, `overpaidUsd` (and base units).
    #[schema(value_type = crate::api::openapi::BalanceFields)]
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    balance: Option<ReceiptBalance>,
    #[schema(value_type = crate::api::openapi::FailureFields)]
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    failure: Option<&'a Failure>,
    /// The transfer that pays this receipt; only for receipts with their own deposit address.
    #[serde(skip_serializing_if = "Option::is_none")]
    payment: Option<PaymentView>,
    /// Failed settlement attempts of a paid receipt (forward + distribute on chain), while it waits to retry.
    #[serde(skip_serializing_if = "Option::is_none")]
    settlement: Option<SettlementView<'a>>,
    /// When its payment window ends (Unix ms); unpaid then, it fails with `PORTAL_SESSION_EXPIRED`. Absent on
    /// receipts created before payment windows existed.
    #[serde(skip_serializing_if = "Option::is_none")]
    expires_at: Option<i64>,
    /// Paid after its payment window ended: the merchant decides whether to fulfil or refund.
    paid_late: bool,
    /// Paid late when the stock its window's end gave back was no longer there to take again.
    stock_short: bool,
    /// The card-onramp session its payment page created last ("Pay with card"), as in its webhooks.
    onramp_session_id: Option<&'a str>,
    /// True when it has a session: each is created for this receipt alone.
    is_onramp_session_unique: bool,
}

/// `settlement`: how many attempts failed, the last error, and when the next attempt runs (Unix ms).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct SettlementView<'a> {
    failed_attempts: u32,
    last_error: Option<&'a str>,
    next_attempt_at: i64,
}

/// `payment`: send exactly `amount` base units of `token` to `to` on `chainId`. `to` is the receipt's own
/// deposit address (the paymentUrl's `recipient`), so the transfer names this receipt and no other.
///
/// Once the chain paid it (and while that payment stands), also where the completing transfer is:
/// `blockNumber`, `blockHash`, `confirmations` (blocks mined on top of it when the watcher last read the
/// head) and `finalized` (the chain's finalized block has reached it: no reorganisation can remove it).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PaymentView {
    chain_id: u64,
    #[schema(value_type = crate::api::openapi::core_types::Wallet)]
    token: Wallet,
    #[schema(value_type = crate::api::openapi::core_types::Wallet)]
    to: Wallet,
    /// Token base units (6 decimals), as a decimal integer string.
    amount: String,
    /// The block of the transfer that completed the payment.
    #[serde(skip_serializing_if = "Option::is_none")]
    block_number: Option<u64>,
    /// Its hash (a reorganisation that moves the transfer changes it).
    #[serde(skip_serializing_if = "Option::is_none")]
    block_hash: Option<String>,
    /// Blocks mined on top of it when the deposit watcher last read the head.
    #[serde(skip_serializing_if = "Option::is_none")]
    confirmations: Option<u64>,
    /// Whether the chain's finalized block has reached it.
    #[serde(skip_serializing_if = "Option::is_none")]
    finalized: Option<bool>,
}

impl PaymentView {
    /// The instruction of `receipt`, `None` when it has no deposit address (or an amount past the token's
    /// range, which no stored receipt has).
    pub(crate) fn of(receipt: &Receipt, chain: PaymentChain) -> Option<PaymentView> {
        let target = receipt.payment?;
        let amount = receipt.amounts.total.to_token_amount().ok()?;
        Some(PaymentView {
            chain_id: chain.chain_id,
            token: chain.token,
            to: target.to,
            amount: amount.to_string(),
            block_number: None,
            block_hash: None,
            confirmations: None,
            finalized: None,
        })
    }

    fn with_block(mut self, block: &PaymentBlock) -> Self {
        self.block_number = Some(block.block_number);
        self.block_hash = Some(block.block_hash.clone());
        self.confirmations = Some(block.confirmations);
        self.finalized = Some(block.finalized);
        self
    }
}

/// Every field a string; `""` when not given.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct BillingView<'a> {
    first_name: &'a str,
    last_name: &'a str,
    phone: &'a str,
    email: &'a str,
    line1: &'a str,
    line2: &'a str,
    city: &'a str,
    state: &'a str,
    zip: &'a str,
    country: &'a str,
}

impl<'a> BillingView<'a> {
    fn of(address: &'a BillingAddress) -> Self {
        let text = |value: &'a Option<String>| value.as_deref().unwrap_or("");
        BillingView {
            first_name: text(&address.first_name),
            last_name: text(&address.last_name),
            phone: text(&address.phone),
            email: text(&address.email),
            line1: text(&address.line1),
            line2: text(&address.line2),
            city: text(&address.city),
            state: text(&address.state),
            zip: text(&address.zip),
            country: text(&address.country),
        }
    }
}

trait IsZero {
    fn is_zero(&self) -> bool;
}

impl IsZero for Cents {
    fn is_zero(&self) -> bool {
        *self == Cents::ZERO
    }
}

impl<'a> ReceiptView<'a> {
    /// Adds the settlement attempts of a paid receipt.
    pub(crate) fn with_settlement(mut self, settlement: Option<&'a SettlementState>) -> Self {
        self.settlement = settlement.map(|state| SettlementView {
            failed_attempts: state.attempts,
            last_error: state.last_error.as_deref(),
            next_attempt_at: state.next_attempt_at,
        });
        self
    }

    /// Adds where the receipt's payment stands on chain to its `payment`.
    pub(crate) fn with_payment_block(mut self, block: Option<&PaymentBlock>) -> Self {
        if let Some(block) = block {
            self.payment = self.payment.map(|payment| payment.with_block(block));
        }
        self
    }

    /// `payment_url` from [`crate::services::receipts::payment_url`].
    pub(crate) fn new(receipt: &'a Receipt, payment_url: &'a str, chain: PaymentChain) -> Self {
        let options = &receipt.options;
        ReceiptView {
            receipt_id: receipt.id.as_str(),
            total_usd: receipt.amounts.total,
            subtotal_usd: receipt.amounts.subtotal,
            tax_usd: receipt.amounts.tax,
            fee_usd: receipt.amounts.fee,
            currency: &receipt.currency,
            line_items: &receipt.line_items,
            created_at: receipt.created_at,
            brand_name: &receipt.brand_name,
            status: receipt.status,
            jurisdiction_code: receipt.tax.jurisdiction_code.as_deref(),
            tax_rate: receipt.tax.rate,
            tax_components: &receipt.tax.components,
            transaction_id: options.transaction_id.as_deref(),
            metadata: options.metadata.as_ref(),
            transaction_hash: receipt.transaction_hash.as_deref(),
            transaction_timestamp: receipt.transaction_timestamp,
            billing_address: BillingView::of(&options.billing),
            payment_url,
            redirect_url: options.redirect_url.as_deref(),
            webhook_url: receipt.webhook_url.as_deref(),
            onramp_redirect_url: options.onramp_redirect_url.as_deref(),
            post_payment_logic: options.post_payment_logic.as_deref(),
            buyer_email: options.buyer_email.as_deref(),
            buyer_wallet: receipt.buyer_wallet,
            refunded_usd: receipt.refunded,
            balance: receipt.balance(),
            failure: receipt.failure.as_ref(),
            payment: PaymentView::of(receipt, chain),
            settlement: None,
            expires_at: receipt.expires_at,
            paid_late: receipt.paid_late,
            stock_short: receipt.stock_short,
            onramp_session_id: receipt.onramp.as_ref().map(|session| session.session_id.as_str()),
            is_onramp_session_unique: receipt.onramp.is_some(),
        }
    }
}
