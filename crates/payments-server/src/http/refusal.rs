//! Route-specific refusals with their own spec error codes (`missing_receipt_id`, `invalid_transition`, ...),
//! carried by [`crate::http::error::ApiError::Refused`].

use hyper::StatusCode;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RefusalCode {
    MissingReceiptId,
    InvalidWallet,
    MissingStatus,
    /// The state machine refused the status change (409).
    InvalidTransition,
    /// The same `Idempotency-Key` with a different body (409).
    IdempotencyConflict,
    ItemsRequired,
    InventoryItemNotFound,
    OutOfStock,
    InvalidBuyer,
    InvalidUsd,
    WalletRequired,
    InvalidAmount,
    /// An order or terminal sale for a merchant without a split configuration (403).
    SplitRequired,
}

impl RefusalCode {
    pub(crate) const fn status(self) -> StatusCode {
        match self {
            RefusalCode::InvalidTransition | RefusalCode::IdempotencyConflict => StatusCode::CONFLICT,
            RefusalCode::SplitRequired => StatusCode::FORBIDDEN,
            RefusalCode::MissingReceiptId
            | RefusalCode::InvalidWallet
            | RefusalCode::MissingStatus
            | RefusalCode::ItemsRequired
            | RefusalCode::InventoryItemNotFound
            | RefusalCode::OutOfStock
            | RefusalCode::InvalidBuyer
            | RefusalCode::InvalidUsd
            | RefusalCode::WalletRequired
            | RefusalCode::InvalidAmount => StatusCode::BAD_REQUEST,
        }
    }

    pub(crate) const fn code(self) -> &'static str {
        match self {
            RefusalCode::MissingReceiptId => "missing_receipt_id",
            RefusalCode::InvalidWallet => "invalid_wallet",
            RefusalCode::MissingStatus => "missing_status",
            RefusalCode::InvalidTransition => "invalid_transition",
            RefusalCode::IdempotencyConflict => "idempotency_conflict",
            RefusalCode::ItemsRequired => "items_required",
            RefusalCode::InventoryItemNotFound => "inventory_item_not_found",
            RefusalCode::OutOfStock => "out_of_stock",
            RefusalCode::InvalidBuyer => "invalid_buyer",
            RefusalCode::InvalidUsd => "invalid_usd",
            RefusalCode::WalletRequired => "wallet_required",
            RefusalCode::InvalidAmount => "invalid_amount",
            RefusalCode::SplitRequired => "split_required",
        }
    }
}
