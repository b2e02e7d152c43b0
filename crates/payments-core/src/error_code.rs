//! The error codes of the API: the `error` field of every error body (`{"error": code, "message": text}`),
//! with the one HTTP status each is answered with.
//!
//! The server renders its refusals from [`ErrorCode`] and the client decodes into it, so a code has one
//! spelling on both sides. Each code is written once, in the table below; the enum, [`ErrorCode::ALL`],
//! [`ErrorCode::as_str`] and [`ErrorCode::http_status`] are generated from it.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// Builds [`ErrorCode`] and its lookups from one table of `Variant = "wire_name", status;` rows.
macro_rules! error_codes {
    ($( $(#[$doc:meta])* $variant:ident = $wire:literal, $status:literal; )+) => {
        /// A spec error code (the `error` field of an error body).
        ///
        /// Codes are added as the API grows, so the enum is `#[non_exhaustive]`; a client that meets a
        /// code it does not know keeps it verbatim (`payments_client::OrUnknown::Unknown`).
        ///
        /// ```
        /// use payments_core::ErrorCode;
        ///
        /// assert_eq!(ErrorCode::OutOfStock.as_str(), "out_of_stock");
        /// assert_eq!(ErrorCode::OutOfStock.http_status(), 400);
        /// assert_eq!("rate_limited".parse(), Ok(ErrorCode::RateLimited));
        /// assert!("teapot_overflow".parse::<ErrorCode>().is_err());
        /// ```
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum ErrorCode {
            $( $(#[$doc])* $variant, )+
        }

        impl ErrorCode {
            /// Every code, in the order of the table.
            pub const ALL: &'static [ErrorCode] = &[$( ErrorCode::$variant, )+];

            /// The code as it appears on the wire (`invalid_input`).
            pub const fn as_str(self) -> &'static str {
                match self {
                    $( ErrorCode::$variant => $wire, )+
                }
            }

            /// The HTTP status the service answers this code with (each code has exactly one).
            pub const fn http_status(self) -> u16 {
                match self {
                    $( ErrorCode::$variant => $status, )+
                }
            }
        }
    };
}

error_codes! {
    /// Missing or invalid subscription key, or (admin routes) a missing, expired or ended session.
    Unauthorized = "unauthorized", 401;
    /// Missing scope, disallowed action, ownership failure, or an admin write without the right
    /// `x-csrf-token`.
    Forbidden = "forbidden", 403;
    /// An order or terminal receipt without a configured split.
    SplitRequired = "split_required", 403;
    /// Missing fields, wrong types, out-of-range values.
    InvalidInput = "invalid_input", 400;
    /// An order with no items.
    ItemsRequired = "items_required", 400;
    /// A SKU or id that is not in the inventory.
    InventoryItemNotFound = "inventory_item_not_found", 400;
    /// More of a product than is in stock.
    OutOfStock = "out_of_stock", 400;
    /// No platform split recipient is configured (a platform configuration issue).
    PlatformRecipientNotConfigured = "platform_recipient_not_configured", 400;
    /// A receipt route without `receiptId`.
    MissingReceiptId = "missing_receipt_id", 400;
    /// A missing or malformed merchant `wallet`.
    InvalidWallet = "invalid_wallet", 400;
    /// A status post without `status`.
    MissingStatus = "missing_status", 400;
    /// A refund without a valid `buyer` wallet.
    InvalidBuyer = "invalid_buyer", 400;
    /// A refund amount that is missing, not positive, has more than 2 decimals, or exceeds what remains
    /// refundable.
    InvalidUsd = "invalid_usd", 400;
    /// A refund whose `txHash` is not a mined transaction the node knows.
    RefundTxNotFound = "refund_tx_not_found", 400;
    /// A refund whose transaction does not send at least the refund of the configured token to the buyer.
    RefundTxMismatch = "refund_tx_mismatch", 400;
    /// A refund whose transaction already proves another refund.
    RefundTxReused = "refund_tx_reused", 409;
    /// A platform admin's terminal sale that names no merchant `wallet`.
    WalletRequired = "wallet_required", 400;
    /// A terminal sale amount that is missing, not positive or has more than 2 decimals.
    InvalidAmount = "invalid_amount", 400;
    /// The resource does not exist.
    NotFound = "not_found", 404;
    /// The route does not take this method.
    MethodNotAllowed = "method_not_allowed", 405;
    /// The request body did not arrive within the body timeout.
    BodyTimeout = "body_timeout", 408;
    /// The request conflicts with stored state (e.g. a SKU already used by another product).
    Conflict = "conflict", 409;
    /// The receipt's state machine refuses the status change (e.g. refunding an unpaid receipt).
    InvalidTransition = "invalid_transition", 409;
    /// An `Idempotency-Key` reused with a different body.
    IdempotencyConflict = "idempotency_conflict", 409;
    /// A deprecated route.
    Deprecated = "deprecated", 410;
    /// The body (e.g. an image) is too large.
    PayloadTooLarge = "payload_too_large", 413;
    /// Quota exhausted; the body's `resetAt` says when it resets.
    RateLimited = "rate_limited", 429;
    /// The service failed.
    Failed = "failed", 500;
    /// The request did not finish within the per-request deadline; retry later.
    DeadlineExceeded = "deadline_exceeded", 503;
    /// The datastore is unavailable; nothing was changed, retry later.
    DatastoreUnavailable = "datastore_unavailable", 503;
    /// The service cannot read the chain (its node does not answer); nothing was changed, retry later.
    ChainUnavailable = "chain_unavailable", 503;
    /// The server is at its connection limit; retry shortly.
    Overloaded = "overloaded", 503;
    /// Subscriptions: the plan does not exist.
    PlanNotFound = "plan_not_found", 400;
    /// Subscriptions: the plan is deactivated.
    PlanInactive = "plan_inactive", 400;
    /// Subscriptions: a signature that is malformed or recovers no key.
    InvalidSignature = "invalid_signature", 400;
    /// Subscriptions: the permission was not signed by the customer (EOA), or its contract wallet refuses
    /// the signature (ERC-1271).
    SignerMismatch = "signer_mismatch", 400;
    /// Subscriptions: the permission's `account` is not `customerWallet`.
    AccountMismatch = "account_mismatch", 400;
    /// Subscriptions: the permission's spender is not the platform's spender.
    SpenderMismatch = "spender_mismatch", 400;
    /// Subscriptions: the permission's token is not the configured token.
    TokenMismatch = "token_mismatch", 400;
    /// Subscriptions: the permission's period is not the plan's.
    PeriodMismatch = "period_mismatch", 400;
    /// Subscriptions: the permission's allowance per period is below the plan price.
    AllowanceInsufficient = "allowance_insufficient", 400;
    /// Subscriptions: the permission's `start` is in the future.
    PermissionNotStarted = "permission_not_started", 400;
    /// Subscriptions: the permission's `end` has passed.
    PermissionExpired = "permission_expired", 400;
    /// Subscriptions: the permission ends before the next charge.
    PermissionEndsBeforeNextCharge = "permission_ends_before_next_charge", 400;
    /// Subscriptions: the plan has a free trial and the permission ends before the trial's end, when the
    /// first charge falls.
    PermissionEndsBeforeTrialEnd = "permission_ends_before_trial_end", 400;
    /// Subscriptions: the permission already backs a subscription.
    PermissionReused = "permission_reused", 400;
    /// Plan changes: the subscription is canceled; subscribe again instead.
    SubscriptionCanceled = "subscription_canceled", 400;
    /// Plan changes: the new plan is the subscription's plan already.
    SamePlan = "same_plan", 400;
    /// Plan changes: the new plan is another merchant's.
    PlanOfAnotherMerchant = "plan_of_another_merchant", 400;
    /// Plan changes: the new plan bills on another period than the subscription (cancel and subscribe).
    PeriodChangeUnsupported = "period_change_unsupported", 400;
    /// Plan changes: the new permission's periods do not begin at the subscription's charge slots.
    PermissionMisaligned = "permission_misaligned", 400;
    /// Plan changes: the next charge's period has begun; change the plan after it is charged.
    ChargeDue = "charge_due", 409;
    /// Plan changes: a charge or another change of the subscription is in flight; try again shortly.
    ChangeInProgress = "change_in_progress", 409;
    /// Plan changes: the spend permission manager refused the change (the customer's balance or token
    /// approval short of the prorated charge, a signature it does not accept); nothing changed.
    ChangeRefusedOnChain = "change_refused_on_chain", 400;
    /// Subscriptions: the server has no spend permission manager or spender configured.
    SubscriptionsNotConfigured = "subscriptions_not_configured", 503;
    /// Plans: a `webhookUrl` from a caller without an API key to sign its webhooks with.
    WebhookRequiresKey = "webhook_requires_key", 400;
    /// The payment page's card path: the onramp provider refused to create a session or did not answer
    /// (the body adds `failureCategory` and `failureCode`); the receipt is unchanged.
    OnrampFailed = "onramp_failed", 502;
    /// The merchant already has the most webhook endpoints allowed (16): delete one first.
    TooManyEndpoints = "too_many_endpoints", 409;
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A code name that is not in [`ErrorCode::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown error code '{0}'")]
pub struct UnknownErrorCode(pub String);

impl FromStr for ErrorCode {
    type Err = UnknownErrorCode;

    /// Reads a wire name; case matters, as on the wire.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        ErrorCode::ALL
            .iter()
            .copied()
            .find(|code| code.as_str() == text)
            .ok_or_else(|| UnknownErrorCode(text.chars().take(64).collect()))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn every_code_has_its_own_spelling_and_reads_back_from_it() {
        let spellings: HashSet<&str> = ErrorCode::ALL.iter().map(|code| code.as_str()).collect();

        assert_eq!(spellings.len(), ErrorCode::ALL.len());
        for &code in ErrorCode::ALL {
            assert_eq!(code.as_str().parse(), Ok(code));
            assert_eq!(code.to_string(), code.as_str());
        }
    }

    #[test]
    fn spellings_are_lowercase_snake_case() {
        for code in ErrorCode::ALL {
            let name = code.as_str();
            assert!(
                !name.is_empty() && name.bytes().all(|byte| byte.is_ascii_lowercase() || byte == b'_'),
                "{name}"
            );
        }
    }

    #[test]
    fn the_spec_table_statuses_hold() {
        let expected = [
            (ErrorCode::Unauthorized, 401),
            (ErrorCode::Forbidden, 403),
            (ErrorCode::SplitRequired, 403),
            (ErrorCode::InvalidInput, 400),
            (ErrorCode::ItemsRequired, 400),
            (ErrorCode::InventoryItemNotFound, 400),
            (ErrorCode::PlatformRecipientNotConfigured, 400),
            (ErrorCode::MissingReceiptId, 400),
            (ErrorCode::NotFound, 404),
            (ErrorCode::Deprecated, 410),
            (ErrorCode::RateLimited, 429),
            (ErrorCode::Failed, 500),
            (ErrorCode::InvalidTransition, 409),
            (ErrorCode::DatastoreUnavailable, 503),
        ];

        for (code, status) in expected {
            assert_eq!(code.http_status(), status, "{code}");
        }
    }

    #[test]
    fn an_unknown_name_is_refused_with_a_bounded_echo() {
        let long = "x".repeat(500);

        assert_eq!(
            "Invalid_Input".parse::<ErrorCode>(),
            Err(UnknownErrorCode("Invalid_Input".to_owned()))
        );
        assert_eq!(long.parse::<ErrorCode>().map_err(|error| error.0.len()), Err(64));
    }
}
