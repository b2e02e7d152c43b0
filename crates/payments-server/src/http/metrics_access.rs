//! Who may read `GET /metrics`. With a configured token (`--metrics-token`): whoever presents it as
//! `Authorization: Bearer <token>`, on any listener. Without one: only requests that reached a loopback
//! listener directly, with no proxy header (`Forwarded`, `X-Forwarded-For`, `X-Real-IP`), so a reverse proxy
//! in front of a loopback listener does not publish the metrics. Everyone else gets 404, as if there were
//! no such route.

use std::net::IpAddr;

use hyper::HeaderMap;
use hyper::header::AUTHORIZATION;

use crate::http::context::Ctx;
use crate::http::error::ApiError;

/// The local address of the listener a request arrived on (set by `serve`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ListenerAddr(pub(crate) IpAddr);

const PROXY_HEADERS: [&str; 3] = ["forwarded", "x-forwarded-for", "x-real-ip"];

/// # Errors
/// 401 `unauthorized` when a token is configured and not presented; 404 `not_found` without a token
/// outside a direct loopback request.
pub(crate) fn check(ctx: &Ctx<'_>) -> Result<(), ApiError> {
    match &ctx.state.config.metrics_token {
        Some(token) => match bearer(ctx.headers()) {
            Some(presented) if token.matches(presented) => Ok(()),
            Some(_) | None => Err(ApiError::AdminUnauthorized {
                message: "GET /metrics needs the metrics token as Authorization: Bearer <token>".to_owned(),
            }),
        },
        None => {
            let loopback = ctx.listener_ip().is_some_and(|ip| ip.is_loopback());
            let proxied = PROXY_HEADERS.iter().any(|name| ctx.headers().contains_key(*name));
            if loopback && !proxied {
                Ok(())
            } else {
                Err(ApiError::NotFound {
                    message: "no route for /metrics".to_owned(),
                })
            }
        }
    }
}

fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
}
