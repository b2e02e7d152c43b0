//! The schemas of the charge answers: billing events and the charge batch report.
//!
//! The domain's own `Serialize` writes these answers (the services build them), so the types here are
//! documentation only: never built, same names and fields as `crate::domain::recurring`'s.

// Read only by the `ToSchema` derives: their fields and variants are never built or read.
#![allow(dead_code, reason = "documentation-only schema types")]

use crate::api::openapi::core_types::Usd;

/// One recorded charge attempt (`charged` or `charge_failed`), or a plan change's `prorated_charge`.
#[derive(Debug, utoipa::ToSchema)]
#[schema(rename_all = "camelCase")]
pub(crate) struct BillingEvent {
    subscription_id: String,
    period_index: u64,
    status: String,
    gross_usd: Usd,
    /// The fee rounded to the cent (half up); `feeBaseUnits` is exact.
    fee_usd: Usd,
    /// `grossUsd - feeUsd`; `netBaseUnits` is exact.
    net_usd: Usd,
    /// The exact amounts in token base units (6 decimals), as decimal text.
    gross_base_units: String,
    fee_base_units: String,
    net_base_units: String,
    transaction_hash: Option<String>,
    failure: Option<String>,
    created_at: i64,
}

/// What one claimed charge of a batch run came to.
#[derive(Debug, utoipa::ToSchema)]
#[schema(rename_all = "lowercase")]
pub(crate) enum ChargeResultStatus {
    /// The period was charged (by this run, or found charged on chain).
    Charged,
    /// The charge was refused; nothing moved.
    Failed,
    /// The outcome is unknown (the node did not answer): left for a later run to reconcile.
    Pending,
}

/// One line of the batch answer's `results`.
#[derive(Debug, utoipa::ToSchema)]
#[schema(rename_all = "camelCase")]
pub(crate) struct ChargeResult {
    subscription_id: String,
    period_index: u64,
    status: ChargeResultStatus,
    transaction_hash: Option<String>,
    error: Option<String>,
    /// The subscription's status afterwards.
    subscription_status: String,
}

/// The batch answer `{ success, processed, succeeded, failed, durationMs, results }`, plus what the run did
/// besides charging: `noticesSent` (`subscription.charge_upcoming` webhooks recorded) and
/// `revokedOnChain` (subscriptions canceled because their customer revoked the permission).
#[derive(Debug, utoipa::ToSchema)]
#[schema(rename_all = "camelCase")]
pub(crate) struct BatchReport {
    success: bool,
    processed: u64,
    succeeded: u64,
    failed: u64,
    duration_ms: u64,
    notices_sent: u64,
    revoked_on_chain: u64,
    results: Vec<ChargeResult>,
}
