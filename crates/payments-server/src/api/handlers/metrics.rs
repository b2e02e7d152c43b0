//! `GET /metrics`: the Prometheus text format, with the webhook queue depth read at scrape time.

use crate::http::response_body::ResponseBody;
use hyper::Response;
use hyper::header::{CACHE_CONTROL, CONTENT_TYPE, HeaderValue};

use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::metrics_access;
use crate::http::response::HttpResponse;

/// Prometheus text exposition format 0.0.4.
const CONTENT_TYPE_PROMETHEUS: &str = "text/plain; version=0.0.4; charset=utf-8";

/// Prometheus metrics (text exposition format 0.0.4); open on loopback, else behind the metrics token.
#[utoipa::path(
    get,
    path = "/metrics",
    operation_id = "metrics",
    tag = "operations",
    security((), ("metrics_token" = [])),
    responses(
        (status = 200, description = "The metrics.", body = String, content_type = "text/plain; version=0.0.4; charset=utf-8"),
        (status = 401, description = "A metrics token is configured and the request did not present it.", body = crate::http::error::Envelope<'static>),
        (status = 404, description = "Metrics are not served to this client (not loopback and no token configured).", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn get(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    metrics_access::check(ctx)?;
    let metrics = &ctx.state.metrics;
    match ctx.state.services.dispatcher.depth().await {
        Ok(depth) => metrics.webhook_queue(depth),
        // The gauges keep their last value; the scrape still answers.
        Err(error) => tracing::warn!(error = %error, "webhook queue depth not read for /metrics"),
    }
    metrics.run_upkeep();
    let mut response = Response::new(ResponseBody::from(metrics.render().into_bytes()));
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(CONTENT_TYPE_PROMETHEUS));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}
