//! The charge answers: billing events and the charge batch report, written from the domain's records
//! (`crate::domain::recurring`), which have no JSON form of their own.

use payments_core::{Cents, TokenAmount};
use serde::{Serialize, Serializer};

use crate::api::openapi::core_types::Usd;
use crate::domain::recurring as domain;

/// One recorded charge attempt (`charged` or `charge_failed`), or a plan change's `prorated_charge`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct BillingEvent<'a> {
    subscription_id: &'a str,
    period_index: u64,
    status: &'static str,
    #[schema(value_type = Usd)]
    gross_usd: Cents,
    /// The fee rounded to the cent (half up); `feeBaseUnits` is exact.
    #[schema(value_type = Usd)]
    fee_usd: Cents,
    /// `grossUsd - feeUsd`; `netBaseUnits` is exact.
    #[schema(value_type = Usd)]
    net_usd: Cents,
    /// The exact amounts in token base units (6 decimals), as decimal text.
    #[serde(serialize_with = "as_text")]
    #[schema(value_type = String)]
    gross_base_units: TokenAmount,
    #[serde(serialize_with = "as_text")]
    #[schema(value_type = String)]
    fee_base_units: TokenAmount,
    #[serde(serialize_with = "as_text")]
    #[schema(value_type = String)]
    net_base_units: TokenAmount,
    transaction_hash: Option<&'a str>,
    failure: Option<&'a str>,
    created_at: i64,
}

impl<'a> From<&'a domain::BillingEvent> for BillingEvent<'a> {
    fn from(event: &'a domain::BillingEvent) -> Self {
        BillingEvent {
            subscription_id: event.subscription_id.as_str(),
            period_index: event.period_index,
            status: event.status.as_str(),
            gross_usd: event.gross_usd,
            fee_usd: event.fee_usd,
            net_usd: event.net_usd,
            gross_base_units: event.gross_base_units,
            fee_base_units: event.fee_base_units,
            net_base_units: event.net_base_units,
            transaction_hash: event.transaction_hash.as_deref(),
            failure: event.failure.as_deref(),
            created_at: event.created_at,
        }
    }
}

/// What one claimed charge of a batch run came to.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum ChargeResultStatus {
    /// The period was charged (by this run, or found charged on chain).
    Charged,
    /// The charge was refused; nothing moved.
    Failed,
    /// The outcome is unknown (the node did not answer): left for a later run to reconcile.
    Pending,
}

impl From<domain::ChargeResultStatus> for ChargeResultStatus {
    fn from(status: domain::ChargeResultStatus) -> Self {
        match status {
            domain::ChargeResultStatus::Charged => ChargeResultStatus::Charged,
            domain::ChargeResultStatus::Failed => ChargeResultStatus::Failed,
            domain::ChargeResultStatus::Pending => ChargeResultStatus::Pending,
        }
    }
}

/// One line of the batch answer's `results`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ChargeResult<'a> {
    subscription_id: &'a str,
    period_index: u64,
    status: ChargeResultStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    transaction_hash: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
    /// The subscription's status afterwards.
    subscription_status: &'static str,
}

impl<'a> From<&'a domain::ChargeResult> for ChargeResult<'a> {
    fn from(result: &'a domain::ChargeResult) -> Self {
        ChargeResult {
            subscription_id: result.subscription_id.as_str(),
            period_index: result.period_index,
            status: result.status.into(),
            transaction_hash: result.transaction_hash.as_deref(),
            error: result.error.as_deref(),
            subscription_status: result.subscription_status.as_str(),
        }
    }
}

/// The batch answer `{ success, processed, succeeded, failed, durationMs, results }`, plus what the run did
/// besides charging: `noticesSent` (`subscription.charge_upcoming` webhooks recorded) and
/// `revokedOnChain` (subscriptions canceled because their customer revoked the permission).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct BatchReport<'a> {
    success: bool,
    processed: u64,
    succeeded: u64,
    failed: u64,
    duration_ms: u64,
    notices_sent: u64,
    revoked_on_chain: u64,
    results: Vec<ChargeResult<'a>>,
}

impl<'a> From<&'a domain::BatchReport> for BatchReport<'a> {
    fn from(report: &'a domain::BatchReport) -> Self {
        BatchReport {
            success: report.success,
            processed: report.processed,
            succeeded: report.succeeded,
            failed: report.failed,
            duration_ms: report.duration_ms,
            notices_sent: report.notices_sent,
            revoked_on_chain: report.revoked_on_chain,
            results: report.results.iter().map(ChargeResult::from).collect(),
        }
    }
}

/// A token amount as decimal text of base units (JSON numbers lose precision past 2^53).
fn as_text<S: Serializer>(amount: &TokenAmount, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(amount)
}
