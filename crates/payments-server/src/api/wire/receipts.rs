//! Receipt and order bodies (`POST /api/receipts`, `POST /api/orders`), decoded here and handed to the
//! domain as its requests, which parse them.

use payments_core::{Cents, TaxRate};
use serde::Deserialize;
use serde_json::Value;

use crate::domain::receipt as domain;

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CreateReceiptRequest {
    id: String,
    #[serde(alias = "line_items")]
    line_items: Vec<LineRequest>,
    #[serde(alias = "total_usd")]
    #[schema(value_type = crate::api::openapi::core_types::Usd)]
    total_usd: Cents,
    #[serde(flatten)]
    options: ReceiptOptionsRequest,
}

impl From<CreateReceiptRequest> for domain::CreateReceiptRequest {
    fn from(request: CreateReceiptRequest) -> Self {
        domain::CreateReceiptRequest {
            id: request.id,
            line_items: request.line_items.into_iter().map(Into::into).collect(),
            total_usd: request.total_usd,
            options: request.options.into(),
        }
    }
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct LineRequest {
    label: String,
    #[serde(alias = "price_usd")]
    #[schema(value_type = crate::api::openapi::core_types::Usd)]
    price_usd: Cents,
    qty: Option<u32>,
}

impl From<LineRequest> for domain::LineRequest {
    fn from(request: LineRequest) -> Self {
        domain::LineRequest {
            label: request.label,
            price_usd: request.price_usd,
            qty: request.qty,
        }
    }
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CreateOrderRequest {
    items: Vec<OrderItemRequest>,
    #[serde(alias = "jurisdiction_code")]
    jurisdiction_code: Option<String>,
    #[serde(alias = "tax_rate")]
    #[schema(value_type = Option<crate::api::openapi::core_types::TaxRate>)]
    tax_rate: Option<TaxRate>,
    #[serde(alias = "tax_components")]
    tax_components: Option<Vec<String>>,
    #[serde(flatten)]
    options: ReceiptOptionsRequest,
}

impl From<CreateOrderRequest> for domain::CreateOrderRequest {
    fn from(request: CreateOrderRequest) -> Self {
        domain::CreateOrderRequest {
            items: request.items.into_iter().map(Into::into).collect(),
            jurisdiction_code: request.jurisdiction_code,
            tax_rate: request.tax_rate,
            tax_components: request.tax_components,
            options: request.options.into(),
        }
    }
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub(crate) struct OrderItemRequest {
    id: Option<String>,
    sku: Option<String>,
    qty: u64,
}

impl From<OrderItemRequest> for domain::OrderItemRequest {
    fn from(request: OrderItemRequest) -> Self {
        domain::OrderItemRequest {
            id: request.id,
            sku: request.sku,
            qty: request.qty,
        }
    }
}

/// Wire form: camelCase names, with snake_case aliases.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ReceiptOptionsRequest {
    #[serde(alias = "onramp_redirect_url")]
    onramp_redirect_url: Option<String>,
    #[serde(alias = "redirect_url")]
    redirect_url: Option<String>,
    #[serde(alias = "post_payment_logic")]
    post_payment_logic: Option<String>,
    #[serde(alias = "buyer_email")]
    buyer_email: Option<String>,
    #[serde(alias = "first_name")]
    first_name: Option<String>,
    #[serde(alias = "last_name")]
    last_name: Option<String>,
    #[serde(alias = "billing_email")]
    billing_email: Option<String>,
    phone: Option<String>,
    #[serde(alias = "address_line1", alias = "address_line_1")]
    address_line1: Option<String>,
    #[serde(alias = "address_line2", alias = "address_line_2")]
    address_line2: Option<String>,
    city: Option<String>,
    state: Option<String>,
    #[serde(alias = "postal_code", alias = "zip")]
    postal_code: Option<String>,
    country: Option<String>,
    #[serde(alias = "transaction_id")]
    transaction_id: Option<String>,
    metadata: Option<Value>,
    #[serde(alias = "webhook_url")]
    webhook_url: Option<String>,
    /// This receipt's payment window in minutes (5 to 10,080); the server's default when absent.
    #[serde(alias = "expires_in_mins")]
    expires_in_mins: Option<i64>,
}

impl From<ReceiptOptionsRequest> for domain::ReceiptOptionsRequest {
    fn from(request: ReceiptOptionsRequest) -> Self {
        domain::ReceiptOptionsRequest {
            onramp_redirect_url: request.onramp_redirect_url,
            redirect_url: request.redirect_url,
            post_payment_logic: request.post_payment_logic,
            buyer_email: request.buyer_email,
            first_name: request.first_name,
            last_name: request.last_name,
            billing_email: request.billing_email,
            phone: request.phone,
            address_line1: request.address_line1,
            address_line2: request.address_line2,
            city: request.city,
            state: request.state,
            postal_code: request.postal_code,
            country: request.country,
            transaction_id: request.transaction_id,
            metadata: request.metadata,
            webhook_url: request.webhook_url,
            expires_in_mins: request.expires_in_mins,
        }
    }
}
