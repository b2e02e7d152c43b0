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
    /// Subscriptions: the plan is unknown (400).
    PlanNotFound,
    /// Subscriptions: the plan is deactivated (400).
    PlanInactive,
    /// Subscriptions: a signature that is malformed or recovers no key (400).
    InvalidSignature,
    /// Subscriptions: the permission signature is not the customer's (400).
    SignerMismatch,
    /// Subscriptions: `permissionData.account` is not `customerWallet` (400).
    AccountMismatch,
    /// Subscriptions: the permission's spender is not the platform's spender (400).
    SpenderMismatch,
    /// Subscriptions: the permission's token is not the configured token (400).
    TokenMismatch,
    /// Subscriptions: the permission's period is not the plan's (400).
    PeriodMismatch,
    /// Subscriptions: the allowance per period is below the plan price (400).
    AllowanceInsufficient,
    /// Subscriptions: the permission's `start` is in the future (400).
    PermissionNotStarted,
    /// Subscriptions: the permission's `end` has passed (400).
    PermissionExpired,
    /// Subscriptions: the permission ends before the next charge (400).
    PermissionEndsBeforeNextCharge,
    /// Subscriptions: the permission already backs a subscription (400).
    PermissionReused,
    /// Subscriptions: no spend permission manager or spender is configured (503).
    SubscriptionsNotConfigured,
    /// Plans: a `webhookUrl` from a caller without an API key to sign its webhooks with (400).
    WebhookRequiresKey,
}

impl RefusalCode {
    pub(crate) const fn status(self) -> StatusCode {
        match self {
            RefusalCode::InvalidTransition | RefusalCode::IdempotencyConflict => StatusCode::CONFLICT,
            RefusalCode::SplitRequired => StatusCode::FORBIDDEN,
            RefusalCode::SubscriptionsNotConfigured => StatusCode::SERVICE_UNAVAILABLE,
            RefusalCode::MissingReceiptId
            | RefusalCode::InvalidWallet
            | RefusalCode::MissingStatus
            | RefusalCode::ItemsRequired
            | RefusalCode::InventoryItemNotFound
            | RefusalCode::OutOfStock
            | RefusalCode::InvalidBuyer
            | RefusalCode::InvalidUsd
            | RefusalCode::WalletRequired
            | RefusalCode::InvalidAmount
            | RefusalCode::PlanNotFound
            | RefusalCode::PlanInactive
            | RefusalCode::InvalidSignature
            | RefusalCode::SignerMismatch
            | RefusalCode::AccountMismatch
            | RefusalCode::SpenderMismatch
            | RefusalCode::TokenMismatch
            | RefusalCode::PeriodMismatch
            | RefusalCode::AllowanceInsufficient
            | RefusalCode::PermissionNotStarted
            | RefusalCode::PermissionExpired
            | RefusalCode::PermissionEndsBeforeNextCharge
            | RefusalCode::PermissionReused
            | RefusalCode::WebhookRequiresKey => StatusCode::BAD_REQUEST,
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
            RefusalCode::PlanNotFound => "plan_not_found",
            RefusalCode::PlanInactive => "plan_inactive",
            RefusalCode::InvalidSignature => "invalid_signature",
            RefusalCode::SignerMismatch => "signer_mismatch",
            RefusalCode::AccountMismatch => "account_mismatch",
            RefusalCode::SpenderMismatch => "spender_mismatch",
            RefusalCode::TokenMismatch => "token_mismatch",
            RefusalCode::PeriodMismatch => "period_mismatch",
            RefusalCode::AllowanceInsufficient => "allowance_insufficient",
            RefusalCode::PermissionNotStarted => "permission_not_started",
            RefusalCode::PermissionExpired => "permission_expired",
            RefusalCode::PermissionEndsBeforeNextCharge => "permission_ends_before_next_charge",
            RefusalCode::PermissionReused => "permission_reused",
            RefusalCode::SubscriptionsNotConfigured => "subscriptions_not_configured",
            RefusalCode::WebhookRequiresKey => "webhook_requires_key",
        }
    }
}
