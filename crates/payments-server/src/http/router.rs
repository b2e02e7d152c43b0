//! The whole route table: one match on (method, path segments).

use hyper::Method;

use crate::handlers::{health, images, inventory, ping, shop};
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::HttpResponse;

const GET: &[Method] = &[Method::GET];
const POST: &[Method] = &[Method::POST];
const INVENTORY: &[Method] = &[Method::GET, Method::POST, Method::DELETE];

pub(crate) async fn route(ctx: &Ctx<'_>, method: &Method, path: &str) -> Result<HttpResponse, ApiError> {
    let segments: Vec<&str> = path.strip_prefix('/').unwrap_or(path).split('/').collect();
    match (method, segments.as_slice()) {
        (&Method::GET, ["healthz"]) => health::get(ctx).await,
        (&Method::GET, ["api", "status", "ping"]) => ping::get(ctx).await,
        (&Method::GET, ["api", "inventory"]) => inventory::list(ctx).await,
        (&Method::POST, ["api", "inventory"]) => inventory::upsert(ctx).await,
        (&Method::DELETE, ["api", "inventory"]) => inventory::delete(ctx).await,
        (&Method::POST, ["api", "inventory", "images"]) => images::upload(ctx).await,
        (&Method::GET, ["api", "shop", "config"]) => shop::get_config(ctx).await,
        (_, ["healthz"] | ["api", "status", "ping"] | ["api", "shop", "config"]) => not_allowed(GET),
        (_, ["api", "inventory"]) => not_allowed(INVENTORY),
        (_, ["api", "inventory", "images"]) => not_allowed(POST),
        _ => Err(ApiError::NotFound {
            message: format!("no route for {path}"),
        }),
    }
}

fn not_allowed(allow: &'static [Method]) -> Result<HttpResponse, ApiError> {
    Err(ApiError::MethodNotAllowed { allow })
}
