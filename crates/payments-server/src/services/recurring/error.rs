//! Why a recurring billing request was refused; `http::error_from_recurring` maps each to its status and
//! code.

use std::convert::Infallible;

use payments_core::{CancelError, PermissionError, PlanFitError};
use thiserror::Error;

use crate::chain::ChainError;
use crate::domain::recurring::{CustomerSubscriptionId, PlanId};
use crate::store::{StoreError, TxError};

#[derive(Debug, Error)]
pub(crate) enum RecurringError {
    /// No spend permission manager or spender is configured.
    #[error("subscriptions are not configured on this server (no spend permission manager or spender)")]
    NotConfigured,
    #[error("no platform recipient is configured for the subscription fee")]
    PlatformRecipientNotConfigured,
    #[error("plan {} not found", .0.as_str())]
    PlanNotFound(PlanId),
    /// A subscription names a plan that does not exist.
    #[error("plan {} does not exist", .0.as_str())]
    PlanUnknown(PlanId),
    #[error("plan {} is not active", .0.as_str())]
    PlanInactive(PlanId),
    #[error("subscription {} not found", .0.as_str())]
    SubscriptionNotFound(CustomerSubscriptionId),
    #[error("plan {} has no webhook delivery {delivery}", .plan.as_str())]
    DeliveryNotFound { plan: PlanId, delivery: String },
    /// `permissionData` does not parse.
    #[error("permissionData.{0}")]
    InvalidPermission(PermissionError),
    /// The permission's `account` is not `customerWallet`.
    #[error("permissionData.account is not customerWallet")]
    AccountMismatch,
    /// The signature is malformed or recovers no key.
    #[error("permissionSignature is not a valid signature: {0}")]
    InvalidSignature(String),
    /// The signature was not made by the customer (EOA), or the customer's contract refuses it (ERC-1271).
    #[error("permissionSignature was not made by customerWallet")]
    SignerMismatch,
    /// An ERC-6492 signature (a wallet not deployed yet) on a chain that cannot run the wallet's factory to
    /// check it (the test-mode chain): the customer's signature is not proven, so it is refused as unproven.
    #[error("permissionSignature could not be verified: {0}")]
    CounterfactualUnverifiable(String),
    /// The permission does not fit the plan or the platform (spender, token, period, allowance, window).
    #[error("{0}")]
    PermissionDoesNotFit(PlanFitError),
    /// The plan has a trial and the permission ends before the trial's end, when the first charge falls.
    #[error(
        "permission ends at {end_secs} (unix seconds), not after the trial ends at {trial_end_ms} ms (the first charge)"
    )]
    PermissionEndsBeforeTrialEnd { end_secs: u64, trial_end_ms: i64 },
    #[error("this spend permission already backs a subscription")]
    PermissionReused,
    /// The caller may not cancel this subscription.
    #[error("only the subscription's customer (or its merchant's session) can cancel it")]
    NotAllowed,
    #[error("cancel signature refused: {0}")]
    CancelSignature(CancelError),
    /// The `Idempotency-Key` was used with another request body.
    #[error("this Idempotency-Key was used with a different request body")]
    IdempotencyConflict,
    /// A plan's `webhookUrl` from a caller without an API key (an admin session): nothing to sign with.
    #[error(
        "subscription webhooks are signed with the API key that sets webhookUrl: send X-Gateway-Subscription-Key to set it (an admin session has no key)"
    )]
    WebhookRequiresKey,
    /// The server has no master key to seal a webhook signing key with.
    #[error("no master key is configured to seal the webhook signing key")]
    NoMasterKey,
    /// A test-mode funding amount out of range.
    #[error("usd: {0} is not between 0.01 and 1000000 (test-mode funding)")]
    InvalidFunding(payments_core::Cents),
    /// A plan change signed by a wallet that is not the subscription's customer.
    #[error(
        "only the subscription's customer can change its plan (permissionData.account is another wallet)"
    )]
    NotSubscriptionCustomer,
    #[error("subscription {} is canceled: subscribe to the new plan instead", .0.as_str())]
    SubscriptionCanceled(CustomerSubscriptionId),
    #[error("the subscription is on plan {} already", .0.as_str())]
    SamePlan(PlanId),
    #[error("plan {} is another merchant's: a subscription moves only between its merchant's plans", .0.as_str())]
    PlanOfAnotherMerchant(PlanId),
    #[error(
        "plan {} bills {to}, the subscription {from}: a plan change keeps the billing period (cancel and subscribe to change it)",
        .plan.as_str()
    )]
    PeriodChange {
        plan: PlanId,
        from: payments_core::BillingPeriod,
        to: payments_core::BillingPeriod,
    },
    /// The replacement permission does not fit the subscription's schedule.
    #[error("{0}")]
    ChangeMisaligned(payments_core::ChangeAlignmentError),
    #[error("a charge or another plan change of this subscription is in progress: try again shortly")]
    ChangeInProgress,
    /// The spend permission manager refused the change's transaction; nothing changed.
    #[error("the spend permission manager refused the change, nothing changed: {0}")]
    ChangeRefusedOnChain(String),
    #[error(transparent)]
    Chain(#[from] ChainError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<TxError<Infallible>> for RecurringError {
    fn from(error: TxError<Infallible>) -> Self {
        match error {
            TxError::Refused(never) => match never {},
            TxError::IdempotencyConflict => RecurringError::IdempotencyConflict,
            TxError::Store(error) => RecurringError::Store(error),
        }
    }
}
