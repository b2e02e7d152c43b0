//! The internal routes behind `x-cron-secret`: the charge batch (`POST /api/cron/charge-subscriptions`,
//! and its alias `POST /api/subscriptions/charge`) and, in development mode, the test clock
//! (`POST /api/test-clock/advance`). Without a configured secret they answer 404, as if absent.

use serde::{Deserialize, Serialize};

use crate::api::wire::charges::BatchReport;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::{self, HttpResponse};
use crate::runtime::clock::ClockRefusal;

const CRON_SECRET_HEADER: &str = "x-cron-secret";

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct AdvanceRequest {
    /// Unix ms; never before the clock's current time. Exactly one of `to` and `byMs`.
    to: Option<i64>,
    /// Milliseconds to move the clock forward from its current time (`payments test-clock advance --days N`).
    by_ms: Option<i64>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct AdvanceResponse {
    success: bool,
    now_ms: i64,
}

/// Charges every due subscription once per period (internal; x-cron-secret).
#[utoipa::path(
    post,
    path = "/api/cron/charge-subscriptions",
    operation_id = "chargeSubscriptions",
    tag = "subscriptions",
    security(("cron_secret" = [])),
    responses(
        (status = 200, description = "The batch report.", body = BatchReport<'static>),
        (status = 401, description = "A missing or wrong x-cron-secret.", body = crate::http::error::Envelope<'static>),
        (status = 404, description = "No cron secret is configured.", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn charge(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    require_cron_secret(ctx, ctx.state.config.cron_secret.is_some())?;
    let report = ctx.state.services.recurring.run_batch().await?;
    Ok(response::ok(&BatchReport::from(&report)))
}

/// The same batch under the subscriptions path (internal; x-cron-secret).
#[utoipa::path(
    post,
    path = "/api/subscriptions/charge",
    operation_id = "chargeSubscriptionsAlias",
    tag = "subscriptions",
    security(("cron_secret" = [])),
    responses(
        (status = 200, description = "The batch report.", body = BatchReport<'static>),
        (status = 401, description = "A missing or wrong x-cron-secret.", body = crate::http::error::Envelope<'static>),
        (status = 404, description = "No cron secret is configured.", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn charge_alias(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    charge(ctx).await
}

/// Moves the development server's clock forward (development mode only; x-cron-secret).
#[utoipa::path(
    post,
    path = "/api/test-clock/advance",
    operation_id = "advanceTestClock",
    tag = "subscriptions",
    security(("cron_secret" = [])),
    request_body = AdvanceRequest,
    responses(
        (status = 200, description = "The clock's new time.", body = AdvanceResponse),
        (status = 401, description = "A missing or wrong x-cron-secret.", body = crate::http::error::Envelope<'static>),
        (status = 404, description = "Not in development mode, or no cron secret is configured.", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn advance_clock(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    require_cron_secret(ctx, ctx.state.config.dev_mode)?;
    let request: AdvanceRequest = ctx.json().await?;
    let to = match (request.to, request.by_ms) {
        (Some(to), None) => to,
        (None, Some(by_ms)) if by_ms >= 0 => ctx.state.clock.now_ms().saturating_add(by_ms),
        (None, Some(_)) => {
            return Err(ApiError::invalid_input(
                Some("byMs".to_owned()),
                "byMs: the clock never goes back".to_owned(),
            ));
        }
        _ => {
            return Err(ApiError::invalid_input(
                Some("to".to_owned()),
                "to: exactly one of to (Unix ms) and byMs is required".to_owned(),
            ));
        }
    };
    let now_ms = ctx.state.clock.advance_to(to).map_err(|refusal| match refusal {
        ClockRefusal::Backwards { .. } => ApiError::invalid_input(Some("to".to_owned()), refusal.to_string()),
        ClockRefusal::Fixed => not_found(),
    })?;
    Ok(response::ok(&AdvanceResponse {
        success: true,
        now_ms,
    }))
}

/// 404 unless the route is `available` and a secret is configured; 401 unless the header matches it
/// (compared in constant time).
fn require_cron_secret(ctx: &Ctx<'_>, available: bool) -> Result<(), ApiError> {
    let Some(secret) = ctx.state.config.cron_secret.as_ref().filter(|_| available) else {
        return Err(not_found());
    };
    let presented = ctx
        .headers()
        .get(CRON_SECRET_HEADER)
        .and_then(|value| value.to_str().ok())
        .unwrap_or("");
    if secret.matches(presented) {
        Ok(())
    } else {
        Err(ApiError::AdminUnauthorized {
            message: format!("missing or invalid {CRON_SECRET_HEADER} header"),
        })
    }
}

fn not_found() -> ApiError {
    ApiError::NotFound {
        message: "no such route".to_owned(),
    }
}
