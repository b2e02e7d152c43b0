//! Conversions into [`ApiError`] for the receipt services. Every variant is matched explicitly, as in
//! `error_from.rs`.

use payments_core::{ErrorCode, RefundProofError, TransitionError};

use crate::domain::receipt::{AdminRequestError, OrderRequestError, StatusPostError};
use crate::http::error::ApiError;
use crate::services::receipts::{OrderError, ReceiptError};

impl ApiError {
    pub(crate) fn refused(code: ErrorCode, message: impl Into<String>) -> Self {
        ApiError::Refused {
            code,
            message: message.into(),
        }
    }
}

impl From<ReceiptError> for ApiError {
    fn from(error: ReceiptError) -> Self {
        let message = error.to_string();
        match error {
            ReceiptError::NotFound(_) | ReceiptError::DeliveryNotFound { .. } => {
                ApiError::NotFound { message }
            }
            ReceiptError::NotPostable(_) => ApiError::InvalidInput {
                field: Some("status".to_owned()),
                message,
            },
            ReceiptError::UnverifiedPayment(_) => ApiError::InvalidInput {
                field: Some("transactionHash".to_owned()),
                message,
            },
            ReceiptError::RefundNotProven(RefundProofError::NotFound) => {
                ApiError::refused(ErrorCode::RefundTxNotFound, message)
            }
            ReceiptError::RefundNotProven(
                RefundProofError::Reverted
                | RefundProofError::WrongToken { .. }
                | RefundProofError::WrongRecipient { .. }
                | RefundProofError::TooSmall { .. },
            ) => ApiError::refused(ErrorCode::RefundTxMismatch, message),
            // A reason added to payments-core later: still a transaction that does not prove the refund.
            ReceiptError::RefundNotProven(_) => ApiError::refused(ErrorCode::RefundTxMismatch, message),
            ReceiptError::RefundTxReused(_) => ApiError::refused(ErrorCode::RefundTxReused, message),
            ReceiptError::SimulationUnavailable(_) => ApiError::InvalidInput {
                field: Some("simulate".to_owned()),
                message,
            },
            ReceiptError::ChainUnavailable(reason) => ApiError::ChainUnavailable { reason },
            ReceiptError::WebhookWithoutKey => ApiError::InvalidInput {
                field: Some("webhook_url".to_owned()),
                message,
            },
            ReceiptError::IdTaken(_) => ApiError::Conflict { message },
            ReceiptError::WalletMismatch | ReceiptError::ChainOnly(_) => ApiError::Forbidden { message },
            ReceiptError::Transition(transition) => transition.into(),
            ReceiptError::IdempotencyConflict => ApiError::refused(ErrorCode::IdempotencyConflict, message),
            ReceiptError::NoMasterKey | ReceiptError::Unexpected(_) => ApiError::internal(message),
            ReceiptError::Store(store) => store.into(),
        }
    }
}

impl From<OrderError> for ApiError {
    fn from(error: OrderError) -> Self {
        let message = error.to_string();
        match error {
            OrderError::SplitRequired => ApiError::refused(ErrorCode::SplitRequired, message),
            OrderError::ItemNotFound(_) => ApiError::refused(ErrorCode::InventoryItemNotFound, message),
            OrderError::OutOfStock { .. } => ApiError::refused(ErrorCode::OutOfStock, message),
            OrderError::Tax(_) => ApiError::InvalidInput {
                field: Some("jurisdictionCode".to_owned()),
                message,
            },
            OrderError::Pricing(_) => ApiError::InvalidInput {
                field: Some("items".to_owned()),
                message,
            },
            OrderError::Receipt(receipt) => receipt.into(),
        }
    }
}

impl From<TransitionError> for ApiError {
    fn from(error: TransitionError) -> Self {
        let message = error.to_string();
        match error {
            TransitionError::RefundExceedsPaid { .. } | TransitionError::NonPositiveRefund => {
                ApiError::refused(ErrorCode::InvalidUsd, message)
            }
            TransitionError::NotPaid { .. }
            | TransitionError::AlreadySettled { .. }
            | TransitionError::NotAllowed { .. } => ApiError::refused(ErrorCode::InvalidTransition, message),
            // A lower authority than the one that set the status, or one that may not ask for this event.
            TransitionError::Unauthorized(_) => ApiError::Forbidden { message },
            // A refusal added to payments-core and not mapped yet (see `error_from.rs`).
            _ => ApiError::internal(error),
        }
    }
}

impl From<StatusPostError> for ApiError {
    fn from(error: StatusPostError) -> Self {
        match error {
            StatusPostError::MissingReceiptId => {
                ApiError::refused(ErrorCode::MissingReceiptId, "receiptId is required")
            }
            StatusPostError::InvalidWallet(message) => ApiError::refused(ErrorCode::InvalidWallet, message),
            StatusPostError::MissingStatus => {
                ApiError::refused(ErrorCode::MissingStatus, "status is required")
            }
            StatusPostError::Invalid(field) => field.into(),
        }
    }
}

impl From<OrderRequestError> for ApiError {
    fn from(error: OrderRequestError) -> Self {
        match error {
            OrderRequestError::ItemsRequired => {
                ApiError::refused(ErrorCode::ItemsRequired, "an order needs at least one item")
            }
            OrderRequestError::Invalid(field) => field.into(),
        }
    }
}

impl From<AdminRequestError> for ApiError {
    fn from(error: AdminRequestError) -> Self {
        match error {
            AdminRequestError::MissingReceiptId => {
                ApiError::refused(ErrorCode::MissingReceiptId, "receiptId is required")
            }
            AdminRequestError::InvalidWallet(message) => ApiError::refused(ErrorCode::InvalidWallet, message),
            AdminRequestError::InvalidBuyer(message) => ApiError::refused(ErrorCode::InvalidBuyer, message),
            AdminRequestError::InvalidUsd(message) => ApiError::refused(ErrorCode::InvalidUsd, message),
            AdminRequestError::WalletRequired => ApiError::refused(
                ErrorCode::WalletRequired,
                "wallet is required: name the merchant this terminal sale is for",
            ),
            AdminRequestError::InvalidAmount(message) => ApiError::refused(ErrorCode::InvalidAmount, message),
            AdminRequestError::Invalid(field) => field.into(),
        }
    }
}
