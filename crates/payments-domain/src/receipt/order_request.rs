//! `POST /api/orders` body: items by id or SKU with a quantity, the tax selection, and the shared options.

use payments_core::{MAX_ORDER_ITEMS, MAX_QUANTITY, TaxRate};

use crate::field_error::FieldError;
use crate::receipt::options::{ReceiptOptions, ReceiptOptionsRequest};
use crate::receipt::payment_window::PaymentWindow;
use crate::receipt::request::webhook_url;
use crate::receipt::webhook_target::TargetPolicy;

#[derive(Debug)]
pub struct CreateOrderRequest {
    pub items: Vec<OrderItemRequest>,
    pub jurisdiction_code: Option<String>,
    pub tax_rate: Option<TaxRate>,
    pub tax_components: Option<Vec<String>>,
    pub options: ReceiptOptionsRequest,
}

#[derive(Debug)]
pub struct OrderItemRequest {
    pub id: Option<String>,
    pub sku: Option<String>,
    pub qty: u64,
}

/// How an order names a product: by id, else by SKU.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ItemRef {
    Id(String),
    Sku(String),
}

impl ItemRef {
    pub fn describe(&self) -> String {
        match self {
            ItemRef::Id(id) => format!("id {id}"),
            ItemRef::Sku(sku) => format!("sku {sku}"),
        }
    }
}

/// A validated order.
#[derive(Debug, Clone)]
pub struct OrderDraft {
    pub items: Vec<(ItemRef, u32)>,
    pub explicit_rate: Option<TaxRate>,
    pub jurisdiction_code: Option<String>,
    pub tax_components: Option<Vec<String>>,
    pub options: ReceiptOptions,
    pub webhook_url: Option<String>,
    /// `expiresInMins`; `None`: the server's default.
    pub payment_window: Option<PaymentWindow>,
}

/// Why an order body was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OrderRequestError {
    /// An empty `items` array (400 `items_required`).
    ItemsRequired,
    Invalid(FieldError),
}

impl From<FieldError> for OrderRequestError {
    fn from(error: FieldError) -> Self {
        OrderRequestError::Invalid(error)
    }
}

impl CreateOrderRequest {
    pub fn parse(self, policy: TargetPolicy) -> Result<OrderDraft, OrderRequestError> {
        if self.items.is_empty() {
            return Err(OrderRequestError::ItemsRequired);
        }
        if self.items.len() > MAX_ORDER_ITEMS {
            return Err(FieldError::new("items", format!("at most {MAX_ORDER_ITEMS} items")).into());
        }
        let mut items = Vec::with_capacity(self.items.len());
        for (index, item) in self.items.into_iter().enumerate() {
            let reference = match (present(item.id), present(item.sku)) {
                (Some(id), _) => ItemRef::Id(id),
                (None, Some(sku)) => ItemRef::Sku(sku),
                (None, None) => {
                    return Err(FieldError::new(format!("items[{index}]"), "needs an id or a sku").into());
                }
            };
            let qty = u32::try_from(item.qty)
                .ok()
                .filter(|qty| (1..=MAX_QUANTITY).contains(qty))
                .ok_or_else(|| {
                    FieldError::new(
                        format!("items[{index}].qty"),
                        format!("must be 1 to {MAX_QUANTITY}"),
                    )
                })?;
            items.push((reference, qty));
        }
        let webhook_url = webhook_url(policy, self.options.webhook_url.clone())?;
        let payment_window = self.options.payment_window()?;
        Ok(OrderDraft {
            items,
            payment_window,
            explicit_rate: self.tax_rate,
            jurisdiction_code: present(self.jurisdiction_code),
            tax_components: self.tax_components,
            options: self.options.parse(policy)?,
            webhook_url,
        })
    }
}

fn present(value: Option<String>) -> Option<String> {
    value
        .map(|value| value.trim().to_owned())
        .filter(|value| !value.is_empty())
}
