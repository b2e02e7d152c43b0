//! The domain types live in `payments-domain`; these re-exports keep the server's `crate::domain::…` paths.

pub(crate) use payments_domain::{
    admin, api_key, chain, digest, field_error, inventory, page_cursor, page_limit, recurring, scope, shop,
    shop_settings, split, split_transactions, subscription, user, webhook_endpoint,
};

/// Receipts, plus what a receipt use case can refuse (a service error, so it stays in the server).
pub(crate) mod receipt {
    pub(crate) use crate::services::receipts::{OrderError, ReceiptError};
    pub(crate) use payments_domain::receipt::*;
}
