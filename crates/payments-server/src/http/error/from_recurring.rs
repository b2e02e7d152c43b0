//! Recurring billing refusals: each [`RecurringError`] and plan-fit failure to its status and code.

use payments_core::{CancelError, ChangeAlignmentError, ErrorCode, PermissionError, PlanFitError};

use crate::http::error::ApiError;
use crate::services::recurring::{RecurringError, SubscribeError};

fn refused(code: ErrorCode, message: String) -> ApiError {
    ApiError::Refused { code, message }
}

impl From<RecurringError> for ApiError {
    fn from(error: RecurringError) -> Self {
        let message = error.to_string();
        match error {
            RecurringError::NotConfigured => refused(ErrorCode::SubscriptionsNotConfigured, message),
            RecurringError::PlatformRecipientNotConfigured => ApiError::PlatformRecipientNotConfigured,
            RecurringError::PlanNotFound(_)
            | RecurringError::SubscriptionNotFound(_)
            | RecurringError::DeliveryNotFound { .. } => ApiError::NotFound { message },
            RecurringError::PlanUnknown(_) => refused(ErrorCode::PlanNotFound, message),
            RecurringError::PlanInactive(_) => refused(ErrorCode::PlanInactive, message),
            RecurringError::InvalidPermission(permission) => permission_field(&permission),
            RecurringError::AccountMismatch => refused(ErrorCode::AccountMismatch, message),
            RecurringError::InvalidSignature(_) => refused(ErrorCode::InvalidSignature, message),
            RecurringError::SignerMismatch | RecurringError::CounterfactualUnverifiable(_) => {
                refused(ErrorCode::SignerMismatch, message)
            }
            RecurringError::PermissionDoesNotFit(fit) => plan_fit(&fit),
            RecurringError::PermissionEndsBeforeTrialEnd { .. } => {
                refused(ErrorCode::PermissionEndsBeforeTrialEnd, message)
            }
            RecurringError::PermissionReused => refused(ErrorCode::PermissionReused, message),
            RecurringError::NotAllowed => ApiError::Forbidden { message },
            RecurringError::CancelSignature(CancelError::Signature(_)) => {
                refused(ErrorCode::InvalidSignature, message)
            }
            RecurringError::CancelSignature(CancelError::SignerMismatch { .. }) => {
                ApiError::Forbidden { message }
            }
            // A refusal added to payments-core and not mapped yet (see `error_from.rs`).
            RecurringError::CancelSignature(unmapped) => ApiError::internal(unmapped),
            RecurringError::IdempotencyConflict => refused(ErrorCode::IdempotencyConflict, message),
            RecurringError::WebhookRequiresKey => refused(ErrorCode::WebhookRequiresKey, message),
            RecurringError::InvalidFunding(_) => ApiError::InvalidInput {
                message,
                field: Some("usd".to_owned()),
            },
            RecurringError::NoMasterKey => ApiError::internal(message),
            RecurringError::NotSubscriptionCustomer => ApiError::Forbidden { message },
            RecurringError::SubscriptionCanceled(_) => refused(ErrorCode::SubscriptionCanceled, message),
            RecurringError::SamePlan(_) => refused(ErrorCode::SamePlan, message),
            RecurringError::PlanOfAnotherMerchant(_) => refused(ErrorCode::PlanOfAnotherMerchant, message),
            RecurringError::PeriodChange { .. } => refused(ErrorCode::PeriodChangeUnsupported, message),
            RecurringError::ChangeMisaligned(alignment) => change_alignment(alignment, message),
            RecurringError::ChangeInProgress => refused(ErrorCode::ChangeInProgress, message),
            RecurringError::ChangeRefusedOnChain(_) => refused(ErrorCode::ChangeRefusedOnChain, message),
            RecurringError::Chain(chain) => chain.into(),
            RecurringError::Store(store) => store.into(),
        }
    }
}

impl From<SubscribeError> for ApiError {
    fn from(error: SubscribeError) -> Self {
        match error {
            SubscribeError::Field(field) => field.into(),
            SubscribeError::Refused(refusal) => refusal.into(),
        }
    }
}

/// A malformed `permissionData` field is `invalid_input` naming it.
fn permission_field(error: &PermissionError) -> ApiError {
    let field = match error {
        PermissionError::InvalidAddress { field }
        | PermissionError::NotDecimal { field }
        | PermissionError::OutOfRange { field, .. } => format!("permissionData.{field}"),
        PermissionError::InvalidExtraData => "permissionData.extraData".to_owned(),
        PermissionError::Signature(_) | PermissionError::SignerMismatch { .. } => {
            "permissionSignature".to_owned()
        }
        // A refusal added to payments-core and not mapped yet (see `error_from.rs`).
        _ => return ApiError::internal(error.clone()),
    };
    ApiError::InvalidInput {
        message: format!("{field}: {error}"),
        field: Some(field),
    }
}

fn change_alignment(error: ChangeAlignmentError, message: String) -> ApiError {
    let code = match error {
        ChangeAlignmentError::Misaligned { .. } => ErrorCode::PermissionMisaligned,
        ChangeAlignmentError::NotStarted { .. } => ErrorCode::PermissionNotStarted,
        ChangeAlignmentError::ChargeDue { .. } => ErrorCode::ChargeDue,
        // A refusal added to payments-core and not mapped yet (see `error_from.rs`).
        _ => return ApiError::internal(error),
    };
    refused(code, message)
}

fn plan_fit(error: &PlanFitError) -> ApiError {
    let code = match error {
        PlanFitError::WrongToken { .. } => ErrorCode::TokenMismatch,
        PlanFitError::WrongSpender { .. } => ErrorCode::SpenderMismatch,
        PlanFitError::WrongPeriod { .. } => ErrorCode::PeriodMismatch,
        PlanFitError::NegativePrice { .. } | PlanFitError::AllowanceBelowPrice { .. } => {
            ErrorCode::AllowanceInsufficient
        }
        PlanFitError::NotStarted { .. } => ErrorCode::PermissionNotStarted,
        PlanFitError::Ended { .. } => ErrorCode::PermissionExpired,
        PlanFitError::EndsBeforeNextCharge { .. } => ErrorCode::PermissionEndsBeforeNextCharge,
        // A refusal added to payments-core and not mapped yet (see `error_from.rs`).
        _ => return ApiError::internal(error.clone()),
    };
    refused(code, error.to_string())
}
