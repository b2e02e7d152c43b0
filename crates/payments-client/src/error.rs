//! What can go wrong talking to the service: the server's typed refusals and everything around them.

use std::fmt;
use std::time::Duration;

use thiserror::Error;

/// Everything a client call can fail with.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum Error {
    /// The service answered with an error status and (usually) the spec's `{error, message}` body.
    /// Boxed: it is the largest variant, and every `Result` of the client carries this enum.
    #[error(transparent)]
    Api(Box<ApiError>),
    /// The request did not complete: connection refused, DNS, TLS, a timeout, a broken body stream.
    #[error("transport error: {source}")]
    Transport {
        /// The underlying HTTP client error.
        #[source]
        source: reqwest::Error,
    },
    /// The service answered with success, but the body is not the documented shape.
    #[error("could not decode the {status} response: {source}")]
    Decode {
        /// HTTP status of the response.
        status: u16,
        /// Why the body did not parse.
        #[source]
        source: serde_json::Error,
        /// The `X-Correlation-Id` of the response, for support requests.
        correlation_id: Option<String>,
    },
    /// The client was configured with something unusable (a base URL that cannot be a base, a user agent
    /// that is not a valid header value, ...).
    #[error("invalid client configuration: {0}")]
    Config(String),
    /// The service answered with success but without something the protocol promises, e.g. a sign-in
    /// without its `cb_auth_token` cookie (a proxy that strips `Set-Cookie` causes this).
    #[error("unexpected {status} response: {message}")]
    Protocol {
        /// HTTP status of the response.
        status: u16,
        /// What was missing.
        message: String,
        /// The `X-Correlation-Id` of the response, for support requests.
        correlation_id: Option<String>,
    },
    /// Signing the admin sign-in message with a local key failed (feature `admin-signing`).
    #[error("could not sign the admin login: {0}")]
    Signing(String),
}

impl Error {
    /// The spec error code when the service refused the request.
    pub fn code(&self) -> Option<&ErrorCode> {
        match self {
            Error::Api(api) => Some(&api.code),
            Error::Transport { .. }
            | Error::Decode { .. }
            | Error::Config(_)
            | Error::Protocol { .. }
            | Error::Signing(_) => None,
        }
    }

    /// Whether the request timed out (connect or whole-request timeout).
    pub fn is_timeout(&self) -> bool {
        matches!(self, Error::Transport { source } if source.is_timeout())
    }
}

impl From<ApiError> for Error {
    fn from(api: ApiError) -> Self {
        Error::Api(Box::new(api))
    }
}

impl From<reqwest::Error> for Error {
    fn from(source: reqwest::Error) -> Self {
        Error::Transport { source }
    }
}

/// An error response of the service: the HTTP status plus the spec's error envelope.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{code}: {message}")]
#[non_exhaustive]
pub struct ApiError {
    /// HTTP status code (400, 401, 403, 404, 429, 500, ...).
    pub status: u16,
    /// The spec error code from the body's `error` field.
    pub code: ErrorCode,
    /// The human-readable `message` (empty when the body carried none).
    pub message: String,
    /// On 400 `invalid_input`: the offending field's path (e.g. `shippingConfig.dimensions.unit`), when
    /// the service names it.
    pub field: Option<String>,
    /// On 429: when the quota resets, Unix milliseconds (body `resetAt`, else `X-RateLimit-Reset`).
    pub reset_at: Option<u64>,
    /// The `Retry-After` response header in seconds (503 `datastore_unavailable` sends it), when present.
    pub retry_after: Option<Duration>,
    /// The `X-Correlation-Id` response header, for support requests.
    pub correlation_id: Option<String>,
}

/// The error codes of the spec (the `error` field of an error body).
///
/// Codes this version does not know are kept verbatim in [`ErrorCode::Unknown`] instead of failing, so a
/// code added by a newer server still reaches the caller. A response without the
/// envelope (a proxy's HTML page, an empty 502) is reported as `Unknown("http_<status>")`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorCode {
    /// 401: missing or invalid subscription key, or (admin routes) a missing, expired or ended session.
    Unauthorized,
    /// 403: missing scope, disallowed action, ownership failure, or an admin write without the right
    /// `x-csrf-token`.
    Forbidden,
    /// 403: an order or terminal receipt without a configured split.
    SplitRequired,
    /// 400: missing fields, wrong types, out-of-range values.
    InvalidInput,
    /// 400: an order with no items.
    ItemsRequired,
    /// 400: a SKU or id that is not in the inventory.
    InventoryItemNotFound,
    /// 404: the resource does not exist.
    NotFound,
    /// 410: a deprecated route.
    Deprecated,
    /// 409: the request conflicts with stored state (e.g. a SKU already used by another product).
    Conflict,
    /// 405: the route does not take this method.
    MethodNotAllowed,
    /// 413: the body (e.g. an image) is too large.
    PayloadTooLarge,
    /// 429: quota exhausted; see [`ApiError::reset_at`].
    RateLimited,
    /// 503: the datastore is unavailable; nothing was changed, retry later.
    DatastoreUnavailable,
    /// 503: the service cannot read the chain (its node does not answer); nothing was changed, retry later.
    ChainUnavailable,
    /// 500: the service failed.
    Failed,
    /// 400: a platform configuration issue: no platform split recipient is set.
    PlatformRecipientNotConfigured,
    /// 400: a receipt route without `receiptId`.
    MissingReceiptId,
    /// 400: a missing or malformed merchant `wallet`.
    InvalidWallet,
    /// 400: a status post without `status`.
    MissingStatus,
    /// 400: a refund without a valid `buyer` wallet.
    InvalidBuyer,
    /// 400: a refund amount that is missing, not positive, has more than 2 decimals, or exceeds what
    /// remains refundable (the message names the remainder).
    InvalidUsd,
    /// 400: a platform admin's terminal sale that names no merchant `wallet`.
    WalletRequired,
    /// 400: a terminal sale amount that is missing, not positive or has more than 2 decimals.
    InvalidAmount,
    /// 400: more of a product than is in stock.
    OutOfStock,
    /// 409: the receipt's state machine refuses the status change (e.g. refunding an unpaid receipt).
    InvalidTransition,
    /// 409: an `Idempotency-Key` reused with a different body.
    IdempotencyConflict,
    /// 400: a subscription names a plan that does not exist.
    PlanNotFound,
    /// 400: a subscription to a deactivated plan.
    PlanInactive,
    /// 400: the permission's `account` is not `customerWallet`.
    AccountMismatch,
    /// 400: a signature that is malformed or recovers no key.
    InvalidSignature,
    /// 400: the permission was not signed by the customer (EOA), or its contract wallet refuses the signature (ERC-1271).
    SignerMismatch,
    /// 400: the permission's token is not the configured token.
    TokenMismatch,
    /// 400: the permission's spender is not the platform's spender.
    SpenderMismatch,
    /// 400: the permission's period is not the plan's.
    PeriodMismatch,
    /// 400: the permission's allowance per period is below the plan price.
    AllowanceInsufficient,
    /// 400: the permission's `start` is in the future.
    PermissionNotStarted,
    /// 400: the permission's `end` has passed.
    PermissionExpired,
    /// 400: the permission ends before the next charge.
    PermissionEndsBeforeNextCharge,
    /// 400: the permission already backs a subscription.
    PermissionReused,
    /// 503: the server has no spend permission manager or spender configured.
    SubscriptionsNotConfigured,
    /// 400: a plan's `webhookUrl` set without an API key (from an admin session): nothing to sign with.
    WebhookRequiresKey,
    /// Any other code, verbatim.
    Unknown(String),
}

impl ErrorCode {
    /// Reads a code from the wire.
    pub fn parse(code: &str) -> ErrorCode {
        match code {
            "unauthorized" => ErrorCode::Unauthorized,
            "forbidden" => ErrorCode::Forbidden,
            "split_required" => ErrorCode::SplitRequired,
            "invalid_input" => ErrorCode::InvalidInput,
            "items_required" => ErrorCode::ItemsRequired,
            "inventory_item_not_found" => ErrorCode::InventoryItemNotFound,
            "not_found" => ErrorCode::NotFound,
            "deprecated" => ErrorCode::Deprecated,
            "conflict" => ErrorCode::Conflict,
            "method_not_allowed" => ErrorCode::MethodNotAllowed,
            "payload_too_large" => ErrorCode::PayloadTooLarge,
            "rate_limited" => ErrorCode::RateLimited,
            "datastore_unavailable" => ErrorCode::DatastoreUnavailable,
            "chain_unavailable" => ErrorCode::ChainUnavailable,
            "failed" => ErrorCode::Failed,
            "platform_recipient_not_configured" => ErrorCode::PlatformRecipientNotConfigured,
            "missing_receipt_id" => ErrorCode::MissingReceiptId,
            "invalid_wallet" => ErrorCode::InvalidWallet,
            "missing_status" => ErrorCode::MissingStatus,
            "invalid_buyer" => ErrorCode::InvalidBuyer,
            "invalid_usd" => ErrorCode::InvalidUsd,
            "wallet_required" => ErrorCode::WalletRequired,
            "invalid_amount" => ErrorCode::InvalidAmount,
            "out_of_stock" => ErrorCode::OutOfStock,
            "invalid_transition" => ErrorCode::InvalidTransition,
            "idempotency_conflict" => ErrorCode::IdempotencyConflict,
            "plan_not_found" => ErrorCode::PlanNotFound,
            "plan_inactive" => ErrorCode::PlanInactive,
            "account_mismatch" => ErrorCode::AccountMismatch,
            "invalid_signature" => ErrorCode::InvalidSignature,
            "signer_mismatch" => ErrorCode::SignerMismatch,
            "token_mismatch" => ErrorCode::TokenMismatch,
            "spender_mismatch" => ErrorCode::SpenderMismatch,
            "period_mismatch" => ErrorCode::PeriodMismatch,
            "allowance_insufficient" => ErrorCode::AllowanceInsufficient,
            "permission_not_started" => ErrorCode::PermissionNotStarted,
            "permission_expired" => ErrorCode::PermissionExpired,
            "permission_ends_before_next_charge" => ErrorCode::PermissionEndsBeforeNextCharge,
            "permission_reused" => ErrorCode::PermissionReused,
            "subscriptions_not_configured" => ErrorCode::SubscriptionsNotConfigured,
            "webhook_requires_key" => ErrorCode::WebhookRequiresKey,
            other => ErrorCode::Unknown(other.to_owned()),
        }
    }

    /// The code as it appears on the wire.
    pub fn as_str(&self) -> &str {
        match self {
            ErrorCode::Unauthorized => "unauthorized",
            ErrorCode::Forbidden => "forbidden",
            ErrorCode::SplitRequired => "split_required",
            ErrorCode::InvalidInput => "invalid_input",
            ErrorCode::ItemsRequired => "items_required",
            ErrorCode::InventoryItemNotFound => "inventory_item_not_found",
            ErrorCode::NotFound => "not_found",
            ErrorCode::Deprecated => "deprecated",
            ErrorCode::Conflict => "conflict",
            ErrorCode::MethodNotAllowed => "method_not_allowed",
            ErrorCode::PayloadTooLarge => "payload_too_large",
            ErrorCode::RateLimited => "rate_limited",
            ErrorCode::DatastoreUnavailable => "datastore_unavailable",
            ErrorCode::ChainUnavailable => "chain_unavailable",
            ErrorCode::Failed => "failed",
            ErrorCode::PlatformRecipientNotConfigured => "platform_recipient_not_configured",
            ErrorCode::MissingReceiptId => "missing_receipt_id",
            ErrorCode::InvalidWallet => "invalid_wallet",
            ErrorCode::MissingStatus => "missing_status",
            ErrorCode::InvalidBuyer => "invalid_buyer",
            ErrorCode::InvalidUsd => "invalid_usd",
            ErrorCode::WalletRequired => "wallet_required",
            ErrorCode::InvalidAmount => "invalid_amount",
            ErrorCode::OutOfStock => "out_of_stock",
            ErrorCode::InvalidTransition => "invalid_transition",
            ErrorCode::IdempotencyConflict => "idempotency_conflict",
            ErrorCode::PlanNotFound => "plan_not_found",
            ErrorCode::PlanInactive => "plan_inactive",
            ErrorCode::AccountMismatch => "account_mismatch",
            ErrorCode::InvalidSignature => "invalid_signature",
            ErrorCode::SignerMismatch => "signer_mismatch",
            ErrorCode::TokenMismatch => "token_mismatch",
            ErrorCode::SpenderMismatch => "spender_mismatch",
            ErrorCode::PeriodMismatch => "period_mismatch",
            ErrorCode::AllowanceInsufficient => "allowance_insufficient",
            ErrorCode::PermissionNotStarted => "permission_not_started",
            ErrorCode::PermissionExpired => "permission_expired",
            ErrorCode::PermissionEndsBeforeNextCharge => "permission_ends_before_next_charge",
            ErrorCode::PermissionReused => "permission_reused",
            ErrorCode::SubscriptionsNotConfigured => "subscriptions_not_configured",
            ErrorCode::WebhookRequiresKey => "webhook_requires_key",
            ErrorCode::Unknown(code) => code,
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::ErrorCode;

    #[test]
    fn known_codes_round_trip_through_the_wire_form() {
        for code in [
            "unauthorized",
            "forbidden",
            "split_required",
            "invalid_input",
            "items_required",
            "inventory_item_not_found",
            "not_found",
            "deprecated",
            "conflict",
            "method_not_allowed",
            "payload_too_large",
            "rate_limited",
            "datastore_unavailable",
            "chain_unavailable",
            "failed",
            "platform_recipient_not_configured",
            "missing_receipt_id",
            "invalid_wallet",
            "missing_status",
            "invalid_buyer",
            "invalid_usd",
            "wallet_required",
            "invalid_amount",
            "out_of_stock",
            "invalid_transition",
            "idempotency_conflict",
            "plan_not_found",
            "plan_inactive",
            "account_mismatch",
            "invalid_signature",
            "signer_mismatch",
            "token_mismatch",
            "spender_mismatch",
            "period_mismatch",
            "allowance_insufficient",
            "permission_not_started",
            "permission_expired",
            "permission_ends_before_next_charge",
            "permission_reused",
            "subscriptions_not_configured",
            "webhook_requires_key",
        ] {
            let parsed = ErrorCode::parse(code);
            assert!(
                !matches!(parsed, ErrorCode::Unknown(_)),
                "{code} should be a known code"
            );
            assert_eq!(parsed.as_str(), code);
        }
    }

    #[test]
    fn unknown_codes_are_kept_verbatim() {
        assert_eq!(
            ErrorCode::parse("teapot_overflow"),
            ErrorCode::Unknown("teapot_overflow".to_owned())
        );
        assert_eq!(ErrorCode::parse("teapot_overflow").to_string(), "teapot_overflow");
    }
}
