//! `Idempotency-Key` on creating routes: the same key with the same body, for the same merchant and route,
//! within 24 hours, replays the first successful response (status and body, byte for byte); the same key
//! with another body is a 409 `idempotency_conflict`. The key is checked inside the use case's own
//! transaction, which commits the claim with the data and returns the data; the answer is rendered here and
//! kept after the commit (a second small write), so a concurrent duplicate waits for the first and replays
//! it: never a second effect. A replay that finds the claim committed but no answer kept (the process stopped
//! in between) answers from the resource the claim names and keeps that answer. A refused request keeps
//! nothing, so it can be corrected and retried under the same key.

use crate::domain::digest::sha256_hex;
use crate::http::response_body::ResponseBody;
use hyper::header::HeaderValue;
use hyper::{Response, StatusCode};
use serde::Serialize;

use crate::domain::chain::PaymentChain;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::{self, HttpResponse};
use crate::services::idempotency::Outcome;
use crate::services::receipts::IdempotencyRequest;
use crate::store::{Committed, IdempotentResponse};

const HEADER: &str = "idempotency-key";
/// Set on a replayed response.
const REPLAYED: &str = "idempotent-replayed";
const MAX_KEY_LEN: usize = 255;

/// Renders a use case's committed value as the route's answer: status and JSON body.
pub(crate) type Renderer<T> = fn(&T, &RenderContext) -> (StatusCode, Vec<u8>);

/// What a renderer may need besides the value.
#[derive(Debug, Clone)]
pub(crate) struct RenderContext {
    pub(crate) base_url: url::Url,
    pub(crate) chain: PaymentChain,
}

/// The presented key and the hash of the request body; `None` without the header.
///
/// # Errors
/// 400 `invalid_input` for a malformed key.
pub(crate) fn claim(ctx: &Ctx<'_>) -> Result<Option<IdempotencyRequest>, ApiError> {
    let Some(key) = idempotency_key(ctx)? else {
        return Ok(None);
    };
    let request_hash = sha256_hex(ctx.body());
    Ok(Some(IdempotencyRequest { key, request_hash }))
}

pub(crate) fn render_context(ctx: &Ctx<'_>) -> RenderContext {
    RenderContext {
        base_url: ctx.state.config.base_url.clone(),
        chain: ctx.state.config.payment_chain(),
    }
}

/// The answer: the committed value rendered (and kept under the claim), or the kept bytes. A value recovered
/// from the resource an unkept claim names is a replay too.
pub(crate) async fn answer<T>(ctx: &Ctx<'_>, outcome: Outcome<T>, render: Renderer<T>) -> HttpResponse {
    let (value, replayed) = match outcome.committed {
        Committed::Fresh(value) => (value, false),
        Committed::Recovered(value) => (value, true),
        Committed::Replayed(stored) => return replay(&stored),
    };
    let (status, body) = render(&value, &render_context(ctx));
    if let Some(claim) = &outcome.claim {
        ctx.state
            .services
            .idempotency
            .keep(claim, status.as_u16(), &body)
            .await;
    }
    let mut response = bytes_response(status, body);
    if replayed {
        mark_replayed(&mut response);
    }
    response
}

/// Serializes a body for a renderer (serialization of these types cannot fail; an empty object stands in).
pub(crate) fn json_body(status: StatusCode, body: &impl Serialize) -> (StatusCode, Vec<u8>) {
    (
        status,
        serde_json::to_vec(body).unwrap_or_else(|_| b"{}".to_vec()),
    )
}

fn bytes_response(status: StatusCode, body: Vec<u8>) -> HttpResponse {
    let mut response = Response::new(ResponseBody::from(body));
    *response.status_mut() = status;
    response.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        HeaderValue::from_static(response::JSON_CONTENT_TYPE),
    );
    response
}

fn idempotency_key(ctx: &Ctx<'_>) -> Result<Option<String>, ApiError> {
    let Some(value) = ctx.headers().get(HEADER) else {
        return Ok(None);
    };
    let text = value.to_str().unwrap_or("").trim();
    if text.is_empty() || text.len() > MAX_KEY_LEN || !text.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(ApiError::invalid_input(
            Some("Idempotency-Key".to_owned()),
            format!("Idempotency-Key: must be 1 to {MAX_KEY_LEN} visible ASCII characters"),
        ));
    }
    Ok(Some(text.to_owned()))
}

fn replay(stored: &IdempotentResponse) -> HttpResponse {
    let status = StatusCode::from_u16(stored.status).unwrap_or(StatusCode::OK);
    let mut response = bytes_response(status, stored.body.clone());
    mark_replayed(&mut response);
    response
}

fn mark_replayed(response: &mut HttpResponse) {
    response
        .headers_mut()
        .insert(REPLAYED, HeaderValue::from_static("true"));
}
