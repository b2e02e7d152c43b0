//! `Idempotency-Key` on creating routes: the same key with the same body, for the same merchant and route,
//! within 24 hours, replays the first successful response (status and body); the same key with another body
//! is a 409 `idempotency_conflict`. Only 2xx responses are kept, so a refused request can be corrected and
//! retried under the same key. Two identical requests racing each other are not serialized: both run, and
//! the first to finish is the one kept.

use std::future::Future;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::header::HeaderValue;
use hyper::{Response, StatusCode};
use payments_core::Wallet;
use sha2::{Digest, Sha256};

use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::refusal::RefusalCode;
use crate::http::response::HttpResponse;
use crate::store::{self, IdempotentResponse};

const HEADER: &str = "idempotency-key";
/// Set on a replayed response.
const REPLAYED: &str = "idempotent-replayed";
/// How long a key is remembered.
pub(crate) const RETENTION_MS: i64 = 24 * 60 * 60 * 1000;
const MAX_KEY_LEN: usize = 255;

/// Runs `handler` once per (merchant, route, key); without the header it just runs it.
pub(crate) async fn once<F, Fut>(
    ctx: &Ctx<'_>,
    wallet: Wallet,
    scope: &'static str,
    handler: F,
) -> Result<HttpResponse, ApiError>
where
    F: FnOnce() -> Fut,
    Fut: Future<Output = Result<HttpResponse, ApiError>>,
{
    let Some(key) = idempotency_key(ctx)? else {
        return handler().await;
    };
    let state = ctx.state;
    let request_hash = hex::encode(Sha256::digest(ctx.body()));
    let now_ms = state.clock.now_ms();
    let not_before = now_ms.saturating_sub(RETENTION_MS);
    let lookup = key.clone();
    let stored = store::blocking(&state.store, move |store| {
        store.fetch_idempotent_response(wallet, scope, &lookup, not_before)
    })
    .await?;
    if let Some(stored) = stored {
        if stored.request_hash != request_hash {
            return Err(ApiError::refused(
                RefusalCode::IdempotencyConflict,
                "this Idempotency-Key was used with a different request body",
            ));
        }
        return Ok(replay(&stored));
    }
    let response = handler().await?;
    if !response.status().is_success() {
        return Ok(response);
    }
    let (parts, body) = response.into_parts();
    let bytes = body
        .collect()
        .await
        .map(|collected| collected.to_bytes())
        .unwrap_or_default();
    let saved = IdempotentResponse {
        request_hash,
        status: parts.status.as_u16(),
        body: bytes.to_vec(),
    };
    store::blocking(&state.store, move |store| {
        store.save_idempotent_response(wallet, scope, &key, &saved, now_ms, not_before)
    })
    .await?;
    Ok(Response::from_parts(parts, Full::new(bytes)))
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
    let mut response = Response::new(Full::new(Bytes::from(stored.body.clone())));
    *response.status_mut() = StatusCode::from_u16(stored.status).unwrap_or(StatusCode::OK);
    let headers = response.headers_mut();
    headers.insert(
        hyper::header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    headers.insert(REPLAYED, HeaderValue::from_static("true"));
    response
}
