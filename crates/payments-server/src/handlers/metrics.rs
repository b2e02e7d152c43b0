//! `GET /metrics`: the Prometheus text format, with the webhook queue depth read at scrape time.

use bytes::Bytes;
use http_body_util::Full;
use hyper::Response;
use hyper::header::{CACHE_CONTROL, CONTENT_TYPE, HeaderValue};

use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::metrics_access;
use crate::http::response::HttpResponse;

/// Prometheus text exposition format 0.0.4.
const CONTENT_TYPE_PROMETHEUS: &str = "text/plain; version=0.0.4; charset=utf-8";

pub(crate) async fn get(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    metrics_access::check(ctx)?;
    let metrics = &ctx.state.metrics;
    match ctx.state.services.dispatcher.depth().await {
        Ok(depth) => metrics.webhook_queue(depth),
        // The gauges keep their last value; the scrape still answers.
        Err(error) => tracing::warn!(error = %error, "webhook queue depth not read for /metrics"),
    }
    metrics.run_upkeep();
    let mut response = Response::new(Full::new(Bytes::from(metrics.render())));
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(CONTENT_TYPE_PROMETHEUS));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}
