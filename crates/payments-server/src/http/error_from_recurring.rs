//! Recurring billing refusals: each [`RecurringError`] and plan-fit failure to its status and code.

use payments_core::{CancelError, PermissionError, PlanFitError};

use crate::http::error::ApiError;
use crate::http::refusal::RefusalCode;
use crate::services::recurring::{RecurringError, SubscribeError};

fn refused(code: RefusalCode, message: String) -> ApiError {
    ApiError::Refused { code, message }
}

impl From<RecurringError> for ApiError {
    fn from(error: RecurringError) -> Self {
        let message = error.to_string();
        match error {
            RecurringError::NotConfigured => refused(RefusalCode::SubscriptionsNotConfigured, message),
            RecurringError::PlatformRecipientNotConfigured => ApiError::PlatformRecipientNotConfigured,
            RecurringError::PlanNotFound(_) | RecurringError::SubscriptionNotFound(_) => {
                ApiError::NotFound { message }
            }
            RecurringError::PlanUnknown(_) => refused(RefusalCode::PlanNotFound, message),
            RecurringError::PlanInactive(_) => refused(RefusalCode::PlanInactive, message),
            RecurringError::InvalidPermission(permission) => permission_field(&permission),
            RecurringError::AccountMismatch => refused(RefusalCode::AccountMismatch, message),
            RecurringError::InvalidSignature(_) => refused(RefusalCode::InvalidSignature, message),
            RecurringError::SignerMismatch => refused(RefusalCode::SignerMismatch, message),
            RecurringError::PermissionDoesNotFit(fit) => plan_fit(&fit),
            RecurringError::PermissionReused => refused(RefusalCode::PermissionReused, message),
            RecurringError::NotAllowed => ApiError::Forbidden { message },
            RecurringError::CancelSignature(CancelError::Signature(_)) => {
                refused(RefusalCode::InvalidSignature, message)
            }
            RecurringError::CancelSignature(CancelError::SignerMismatch { .. }) => {
                ApiError::Forbidden { message }
            }
            RecurringError::IdempotencyConflict => refused(RefusalCode::IdempotencyConflict, message),
            RecurringError::WebhookRequiresKey => refused(RefusalCode::WebhookRequiresKey, message),
            RecurringError::NoMasterKey => ApiError::internal(message),
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
    };
    ApiError::InvalidInput {
        message: format!("{field}: {error}"),
        field: Some(field),
    }
}

fn plan_fit(error: &PlanFitError) -> ApiError {
    let code = match error {
        PlanFitError::WrongToken { .. } => RefusalCode::TokenMismatch,
        PlanFitError::WrongSpender { .. } => RefusalCode::SpenderMismatch,
        PlanFitError::WrongPeriod { .. } => RefusalCode::PeriodMismatch,
        PlanFitError::NegativePrice { .. } | PlanFitError::AllowanceBelowPrice { .. } => {
            RefusalCode::AllowanceInsufficient
        }
        PlanFitError::NotStarted { .. } => RefusalCode::PermissionNotStarted,
        PlanFitError::Ended { .. } => RefusalCode::PermissionExpired,
        PlanFitError::EndsBeforeNextCharge { .. } => RefusalCode::PermissionEndsBeforeNextCharge,
    };
    refused(code, error.to_string())
}
