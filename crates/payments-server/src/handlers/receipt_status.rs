//! POST /api/receipts/status: who may post a status is decided by the status (`posting_authority`).

use payments_core::{PostingAuthority, ReceiptStatus};
use serde::Serialize;

use crate::domain::receipt::StatusPostRequest;
use crate::domain::scope::Scope;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::{self, HttpResponse};
use crate::services::receipts::{ReceiptError, StatusOutcome};

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct StatusPostResponse {
    ok: bool,
    status: ReceiptStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    previous_status: Option<ReceiptStatus>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ignored: Option<bool>,
}

pub(crate) async fn post(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let request: StatusPostRequest = ctx.json()?;
    let authority = request
        .status
        .as_deref()
        .and_then(|status| status.trim().parse::<ReceiptStatus>().ok())
        .map_or(
            PostingAuthority::SubscriptionKey,
            ReceiptStatus::posting_authority,
        );
    let outcome = match authority {
        PostingAuthority::SubscriptionKey | PostingAuthority::NotPostable => {
            let caller = ctx.dev_caller(Scope::ReceiptsWrite).await?;
            let post = request.parse()?;
            if post.wallet != caller.wallet {
                return Err(ReceiptError::WalletMismatch.into());
            }
            let actor = format!("key:{}", caller.subscription_id.as_str());
            ctx.state
                .services
                .receipts
                .post_status(caller.wallet, post, None, actor)
                .await?
        }
        PostingAuthority::AdminSession | PostingAuthority::PaymentProof => {
            let admin = ctx.admin_session(true).await?;
            let post = request.parse()?;
            let wallet = admin.acting_for(Some(post.wallet))?;
            let actor = format!("admin:{}", admin.wallet);
            ctx.state
                .services
                .receipts
                .post_status(wallet, post, Some(admin.wallet), actor)
                .await?
        }
    };
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
