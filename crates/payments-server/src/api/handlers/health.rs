//! GET /healthz (no auth). Always 200: `{"status":"ok","datastore":"ok"}`, or
//! `{"status":"degraded","datastore":"unavailable"}` when the datastore does not answer, so load balancers keep
//! a degraded instance (it can still answer some routes) while monitors see the problem.

use serde::Serialize;

use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::{self, HttpResponse};

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct HealthResponse {
    status: &'static str,
    datastore: &'static str,
}

impl HealthResponse {
    fn from_datastore(available: bool) -> Self {
        match available {
            true => HealthResponse {
                status: "ok",
                datastore: "ok",
            },
            false => HealthResponse {
                status: "degraded",
                datastore: "unavailable",
            },
        }
    }
}

/// Liveness and datastore health; always 200 (a degraded datastore is reported in the body).
#[utoipa::path(
    get,
    path = "/healthz",
    operation_id = "health",
    tag = "health",
    responses(
        (status = 200, description = "ok, or degraded when the datastore does not answer.", body = HealthResponse)
    )
)]
pub(crate) async fn get(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let available = ctx.state.services.health.datastore_available().await;
    Ok(response::ok(&HealthResponse::from_datastore(available)))
}
