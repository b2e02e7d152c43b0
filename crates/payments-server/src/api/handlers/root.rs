//! GET / (no auth): where to go from the server's address, so a first `curl http://127.0.0.1:8080/` is not a
//! bare 404. Names the API reference (the OpenAPI document), the health route and the docs in the source.

use serde::Serialize;

use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::{self, HttpResponse};

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct ServiceIndex {
    service: &'static str,
    version: &'static str,
    /// The API reference: an OpenAPI 3.1 document of every route.
    openapi: &'static str,
    health: &'static str,
    /// Where the guides are (they ship with the source, not with the server).
    documentation: &'static str,
}

/// What this server is and where its API reference and health route are.
#[utoipa::path(
    get,
    path = "/",
    operation_id = "serviceIndex",
    tag = "health",
    responses((status = 200, description = "The service's name, version and the routes to start from.", body = ServiceIndex))
)]
pub(crate) async fn get(_ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    Ok(response::ok(&ServiceIndex {
        service: "payments-server",
        version: env!("CARGO_PKG_VERSION"),
        openapi: "/api/openapi.json",
        health: "/healthz",
        documentation: "docs/README.md in the source (the route guide is docs/openapi.md)",
    }))
}
