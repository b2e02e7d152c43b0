//! GET /api/status/ping: key diagnostics, with the key as `x-api-key` or `Authorization: Bearer`.

use payments_core::Wallet;
use serde::Serialize;

use crate::domain::scope::Scope;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::{self, HttpResponse};

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct PingResponse<'a> {
    ok: bool,
    #[schema(value_type = crate::api::openapi::core_types::Wallet)]
    merchant: Wallet,
    subscription_id: &'a str,
    #[schema(value_type = Vec<String>)]
    scopes: Vec<&'static str>,
    server_time: i64,
    version: &'static str,
}

/// Key diagnostics: which merchant and scopes a key acts with.
#[utoipa::path(
    get,
    path = "/api/status/ping",
    operation_id = "statusPing",
    tag = "health",
    security(("api_key" = []), ("bearer" = [])),
    responses(
        (status = 200, description = "The key is valid.", body = PingResponse<'static>)
    )
)]
pub(crate) async fn get(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let caller = ctx.api_key_caller().await?;
    Ok(response::ok(&PingResponse {
        ok: true,
        merchant: caller.wallet,
        subscription_id: caller.subscription_id.as_str(),
        scopes: caller.scopes.iter().map(Scope::as_str).collect(),
        server_time: ctx.state.clock.now_ms(),
        version: env!("CARGO_PKG_VERSION"),
    }))
}
