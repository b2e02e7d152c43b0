//! /api/split: configure (Admin), read and history (Dev, split:read), and the deprecated withdraw.

pub(crate) mod transactions;

use payments_core::{ErrorCode, SplitRecipient, Wallet};
use serde::{Deserialize, Serialize};

use crate::domain::scope::Scope;
use crate::domain::split::{ArchivedSplit, SplitSaved, StoredSplit};
use crate::http::context::Ctx;
use crate::http::error::{ApiError, status_of};
use crate::http::response::{self, HttpResponse};
use crate::services::split::SplitDraft;

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct DeployRequest {
    #[schema(value_type = Option<crate::api::openapi::core_types::Wallet>)]
    split_address: Option<Wallet>,
    #[schema(value_type = Option<Vec<crate::api::openapi::core_types::SplitRecipient>>)]
    recipients: Option<Vec<SplitRecipient>>,
    #[serde(default)]
    replace: bool,
    /// Only a platform admin may name a wallet other than its own.
    #[schema(value_type = Option<crate::api::openapi::core_types::Wallet>)]
    wallet: Option<Wallet>,
}

/// The spec's SplitConfig: `address` null and no recipients when unconfigured.
#[derive(Debug, Serialize, utoipa::ToSchema)]
struct SplitConfig<'a> {
    #[schema(value_type = Option<crate::api::openapi::core_types::Wallet>)]
    address: Option<Wallet>,
    #[schema(value_type = Vec<crate::api::openapi::core_types::SplitRecipient>)]
    recipients: &'a [SplitRecipient],
}

impl<'a> From<Option<&'a StoredSplit>> for SplitConfig<'a> {
    fn from(stored: Option<&'a StoredSplit>) -> Self {
        SplitConfig {
            address: stored.map(|stored| stored.address),
            recipients: stored.map_or(&[], |stored| stored.split.recipients()),
        }
    }
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct DeployResponse<'a> {
    ok: bool,
    split: SplitConfig<'a>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    idempotent: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    replaced: bool,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct HistoryEntry<'a> {
    #[schema(value_type = crate::api::openapi::core_types::Wallet)]
    address: Wallet,
    #[schema(value_type = Vec<crate::api::openapi::core_types::SplitRecipient>)]
    recipients: &'a [SplitRecipient],
    created_at: i64,
    archived_at: i64,
}

impl<'a> From<&'a ArchivedSplit> for HistoryEntry<'a> {
    fn from(archived: &'a ArchivedSplit) -> Self {
        HistoryEntry {
            address: archived.split.address,
            recipients: archived.split.split.recipients(),
            created_at: archived.created_at_ms,
            archived_at: archived.archived_at_ms,
        }
    }
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct SplitResponse<'a> {
    split: SplitConfig<'a>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct SplitHistoryResponse<'a> {
    history: Vec<HistoryEntry<'a>>,
}

/// The deprecated withdraw's answer: the error envelope plus the reason.
#[derive(Debug, Serialize, utoipa::ToSchema)]
struct WithdrawGone {
    /// `deprecated`.
    error: &'static str,
    /// `use_connected_wallet`.
    reason: &'static str,
    message: &'static str,
}

/// Configures the split (idempotent; replace: true to change it) (admin session + CSRF).
#[utoipa::path(
    post,
    path = "/api/split/deploy",
    operation_id = "deploySplit",
    tag = "split",
    security(("session_cookie" = [], "csrf_token" = [])),
    request_body = DeployRequest,
    responses(
        (status = 200, description = "The split; idempotent: true when it already existed.", body = DeployResponse<'static>),
        (status = 400, description = "The recipients or address are refused (invalid_input, platform_recipient_not_configured).", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn deploy(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let admin = ctx.admin_session(true).await?;
    let request: DeployRequest = ctx.json().await?;
    let wallet = admin.acting_for(request.wallet)?;
    let draft = SplitDraft {
        split_address: request.split_address,
        recipients: request.recipients,
        replace: request.replace,
    };
    let (stored, idempotent, replaced) = match ctx.state.services.split.deploy(wallet, draft).await? {
        SplitSaved::Created(stored) => (stored, false, false),
        SplitSaved::Existing(stored) => (stored, true, false),
        SplitSaved::Replaced(stored) => (stored, false, true),
    };
    Ok(response::ok(&DeployResponse {
        ok: true,
        split: SplitConfig::from(Some(&stored)),
        idempotent,
        replaced,
    }))
}

/// The merchant's split configuration; address null and no recipients when unconfigured (split:read).
#[utoipa::path(
    get,
    path = "/api/split/deploy",
    operation_id = "getSplit",
    tag = "split",
    security(("subscription_key" = [])),
    responses(
        (status = 200, description = "The split.", body = SplitResponse<'static>)
    )
)]
pub(crate) async fn get(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let caller = ctx.dev_caller(Scope::SplitRead).await?;
    let stored = ctx.state.services.split.fetch(caller.wallet).await?;
    Ok(response::ok(&SplitResponse {
        split: SplitConfig::from(stored.as_ref()),
    }))
}

/// Splits the merchant replaced, newest first (split:read).
#[utoipa::path(
    get,
    path = "/api/split/history",
    operation_id = "splitHistory",
    tag = "split",
    security(("subscription_key" = [])),
    responses(
        (status = 200, description = "The archived splits.", body = SplitHistoryResponse<'static>)
    )
)]
pub(crate) async fn history(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let caller = ctx.dev_caller(Scope::SplitRead).await?;
    let archived = ctx.state.services.split.history(caller.wallet).await?;
    let entries: Vec<HistoryEntry<'_>> = archived.iter().map(HistoryEntry::from).collect();
    Ok(response::ok(&SplitHistoryResponse { history: entries }))
}

/// Deprecated: withdrawals are made on chain by the recipient wallet (any method answers 410).
#[utoipa::path(
    post,
    path = "/api/split/withdraw",
    operation_id = "splitWithdraw",
    tag = "split",
    responses(
        (status = 410, description = "Deprecated.", body = WithdrawGone)
    )
)]
pub(crate) fn withdraw() -> HttpResponse {
    let code = ErrorCode::Deprecated;
    response::json(
        status_of(code),
        &WithdrawGone {
            error: code.as_str(),
            reason: "use_connected_wallet",
            message: "withdrawals are made by calling the split contract's release function from the recipient wallet",
        },
    )
}
