//! POST /api/receipts/status: the caller (key or admin session) is authenticated, then the core decides what
//! its authority allows on this receipt.

use payments_core::ReceiptStatus;
use serde::Serialize;

use crate::api::wire::receipt_actions::StatusPostRequest;
use crate::domain::receipt;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::{self, HttpResponse};
use crate::services::receipts::StatusOutcome;

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct StatusPostResponse {
    ok: bool,
    #[schema(value_type = crate::api::openapi::core_types::ReceiptStatus)]
    status: ReceiptStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<crate::api::openapi::core_types::ReceiptStatus>)]
    previous_status: Option<ReceiptStatus>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ignored: Option<bool>,
}

/// Posts a status: tracking statuses with a key, sensitive ones (checkout_success, refund_*) with an admin session + CSRF.
#[utoipa::path(
    post,
    path = "/api/receipts/status",
    operation_id = "postReceiptStatus",
    tag = "receipts",
    security(("subscription_key" = []), ("session_cookie" = [], "csrf_token" = [])),
    request_body = StatusPostRequest,
    responses(
        (status = 200, description = "Applied, or ignored (ignored: true) when it changes nothing.", body = StatusPostResponse),
        (status = 400, description = "missing_receipt_id, invalid_wallet, missing_status or invalid_input.", body = crate::http::error::Envelope<'static>),
        (status = 404, description = "No receipt with this id of this merchant.", body = crate::http::error::Envelope<'static>),
        (status = 409, description = "The transition is refused (invalid_transition).", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn post(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    // Which credential counts depends on the status in the body; a request with none is refused unread.
    if !ctx.has_dev_credentials() && !ctx.has_session_cookie() {
        return Err(ApiError::Unauthorized);
    }
    let request = receipt::StatusPostRequest::from(ctx.json::<StatusPostRequest>().await?);
    let poster = ctx
        .status_poster(request.named_status(), request.claims_payment())
        .await?;
    let post = request.parse()?;
    let (wallet, actor) = poster.acting_for(post.wallet)?;
    let outcome = ctx
        .state
        .services
        .receipts
        .post_status(wallet, post, actor)
        .await?;
    Ok(response::ok(&match outcome {
        StatusOutcome::Moved { from, to } => StatusPostResponse {
            ok: true,
            status: to,
            previous_status: Some(from),
            ignored: None,
        },
        StatusOutcome::Ignored { current } => StatusPostResponse {
            ok: true,
            status: current,
            previous_status: None,
            ignored: Some(true),
        },
    }))
}
