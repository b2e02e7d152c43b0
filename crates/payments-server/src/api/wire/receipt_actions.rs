//! Receipt status posts and the merchant's receipt actions (refund, terminal sale), decoded here and
//! handed to the domain as its requests, which parse them.

use payments_core::{Cents, TaxRate, Wallet};
use serde::Deserialize;
use serde_json::Value;

use crate::domain::receipt as domain;

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct StatusPostRequest {
    #[serde(alias = "receipt_id")]
    receipt_id: Option<String>,
    wallet: Option<String>,
    status: Option<String>,
    #[serde(alias = "failure_code")]
    failure_code: Option<String>,
    #[serde(alias = "failure_category")]
    failure_category: Option<String>,
    #[serde(alias = "failure_reason")]
    failure_reason: Option<String>,
    #[serde(alias = "failure_action")]
    failure_action: Option<String>,
    #[serde(alias = "transaction_hash", alias = "txHash")]
    transaction_hash: Option<String>,
    /// A chain field, like the hash: only an admin (test mode) or the chain may name the buyer.
    #[serde(alias = "buyer_wallet")]
    buyer_wallet: Option<String>,
}

impl From<StatusPostRequest> for domain::StatusPostRequest {
    fn from(request: StatusPostRequest) -> Self {
        domain::StatusPostRequest {
            receipt_id: request.receipt_id,
            wallet: request.wallet,
            status: request.status,
            failure_code: request.failure_code,
            failure_category: request.failure_category,
            failure_reason: request.failure_reason,
            failure_action: request.failure_action,
            transaction_hash: request.transaction_hash,
            buyer_wallet: request.buyer_wallet,
        }
    }
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RefundRequest {
    #[serde(alias = "receipt_id")]
    receipt_id: Option<String>,
    wallet: Option<String>,
    buyer: Option<String>,
    usd: Option<Value>,
    #[serde(default)]
    items: Vec<RefundItemRequest>,
    /// The merchant's refund transaction (`0x` + 64 hex); the server verifies it on chain.
    #[serde(alias = "tx_hash", alias = "transactionHash")]
    tx_hash: Option<String>,
    /// Test mode only: the test-mode chain sends the refund for the merchant (no `txHash` then).
    #[serde(default)]
    simulate: bool,
}

impl From<RefundRequest> for domain::RefundRequest {
    fn from(request: RefundRequest) -> Self {
        domain::RefundRequest {
            receipt_id: request.receipt_id,
            wallet: request.wallet,
            buyer: request.buyer,
            usd: request.usd,
            items: request.items.into_iter().map(Into::into).collect(),
            tx_hash: request.tx_hash,
            simulate: request.simulate,
        }
    }
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RefundItemRequest {
    label: String,
    #[serde(alias = "price_usd")]
    #[schema(value_type = crate::api::openapi::core_types::Usd)]
    price_usd: Cents,
    qty: Option<u32>,
}

impl From<RefundItemRequest> for domain::RefundItemRequest {
    fn from(request: RefundItemRequest) -> Self {
        domain::RefundItemRequest {
            label: request.label,
            price_usd: request.price_usd,
            qty: request.qty,
        }
    }
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TerminalRequest {
    #[serde(alias = "amount_usd")]
    amount_usd: Option<Value>,
    label: Option<String>,
    currency: Option<String>,
    #[serde(alias = "jurisdiction_code")]
    jurisdiction_code: Option<String>,
    #[serde(alias = "tax_rate")]
    #[schema(value_type = Option<crate::api::openapi::core_types::TaxRate>)]
    tax_rate: Option<TaxRate>,
    #[serde(alias = "tax_components")]
    tax_components: Option<Vec<String>>,
    #[schema(value_type = Option<crate::api::openapi::core_types::Wallet>)]
    wallet: Option<Wallet>,
}

impl From<TerminalRequest> for domain::TerminalRequest {
    fn from(request: TerminalRequest) -> Self {
        domain::TerminalRequest {
            amount_usd: request.amount_usd,
            label: request.label,
            currency: request.currency,
            jurisdiction_code: request.jurisdiction_code,
            tax_rate: request.tax_rate,
            tax_components: request.tax_components,
            wallet: request.wallet,
        }
    }
}
