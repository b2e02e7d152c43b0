//! `POST /portal/{id}/onramp`: the payment page's "Pay with card" (no authentication: the link is the
//! capability, and the page's write quota per client address applies, as for its other posts).

use hyper::StatusCode;
use hyper::header::{ACCEPT, CACHE_CONTROL, HeaderValue};
use serde::Serialize;

use crate::api::handlers::portal::link;
use crate::api::handlers::portal_checkout::count_page_write;
use crate::api::portal;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::{self, HttpResponse};
use crate::services::onramp::CardCheckout;

/// The card session to send the buyer to.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct OnrampSessionResponse {
    /// `stripe` or `coinbase`.
    provider: &'static str,
    /// The provider's session id (the receipt's and its webhooks' `onrampSessionId`).
    session_id: String,
    /// The provider's page the buyer pays on.
    url: String,
    /// The receipt's open session was handed out again (a Stripe session less than five minutes old).
    reused: bool,
}

/// Creates (or hands out again) the receipt's card-onramp session.
#[utoipa::path(
    post,
    path = "/portal/{id}/onramp",
    operation_id = "portalOnramp",
    tag = "portal",
    params(
        ("id" = String, Path, description = "The receipt id."),
        ("merchant" = Option<String>, Query, description = "The merchant wallet, from the payment link.")
    ),
    responses(
        (status = 200, description = "With `Accept: application/json` (the page's script): the session. Otherwise an HTML page linking to it.", content((OnrampSessionResponse = "application/json"), (String = "text/html; charset=utf-8"))),
        (status = 404, description = "No such receipt, or the server offers no card payments. (JSON with `Accept: application/json`, otherwise an HTML page saying why).", content((crate::http::error::Envelope<'static> = "application/json"), (String = "text/html; charset=utf-8"))),
        (status = 409, description = "`invalid_transition`: the receipt is paid, being confirmed, expired or has no deposit address. (JSON with `Accept: application/json`, otherwise an HTML page saying why).", content((crate::http::error::Envelope<'static> = "application/json"), (String = "text/html; charset=utf-8"))),
        (status = 429, description = "Too many page writes from this client address. (JSON with `Accept: application/json`, otherwise an HTML page saying why).", content((crate::http::error::Envelope<'static> = "application/json"), (String = "text/html; charset=utf-8"))),
        (status = 502, description = "`onramp_failed`: the provider refused or did not answer; `failureCategory` and `failureCode` say why. The receipt is unchanged. (JSON with `Accept: application/json`, otherwise an HTML page saying why).", content((crate::http::error::Envelope<'static> = "application/json"), (String = "text/html; charset=utf-8")))
    )
)]
pub(crate) async fn start(ctx: &Ctx<'_>, id: &str) -> Result<HttpResponse, ApiError> {
    let started = start_session(ctx, id).await;
    if wants_json(ctx) {
        let checkout = started?;
        return Ok(response::ok(&OnrampSessionResponse {
            provider: checkout.session.provider.as_str(),
            session_id: checkout.session.session_id,
            url: checkout.session.url,
            reused: checkout.reused,
        }));
    }
    // A browser without the script: a page to continue from (or saying why not), never a redirect to the
    // provider, which the page's `form-action 'self'` would block.
    let back = match ctx.raw_query() {
        "" => format!("../{id}"),
        query => format!("../{id}?{query}"),
    };
    let mut page = match started {
        Ok(checkout) => portal::html(
            StatusCode::OK,
            portal::render_card_handoff(checkout.session.provider, &checkout.session.url, &back),
        ),
        Err(error) => portal::html(
            error.status(),
            portal::render_card_refused(&error.message(), &back),
        ),
    };
    page.headers_mut()
        .insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(page)
}

async fn start_session(ctx: &Ctx<'_>, id: &str) -> Result<CardCheckout, ApiError> {
    count_page_write(ctx)?;
    let (receipt, merchant) = link(ctx, id).ok_or_else(|| ApiError::NotFound {
        message: "no such receipt".to_owned(),
    })?;
    let onramp = ctx
        .state
        .services
        .onramp
        .as_ref()
        .ok_or_else(|| ApiError::NotFound {
            message: "this server offers no card payments".to_owned(),
        })?;
    Ok(onramp.start(merchant, receipt, ctx.peer_ip()).await?)
}

fn wants_json(ctx: &Ctx<'_>) -> bool {
    ctx.headers()
        .get(ACCEPT)
        .and_then(|accept| accept.to_str().ok())
        .is_some_and(|accept| accept.contains("application/json"))
}
