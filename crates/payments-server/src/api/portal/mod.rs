//! The hosted payment page (`GET /portal/{receiptId}`): server-rendered HTML with no script and no external
//! asset. [`render_page`] is a pure function of a [`PortalView`]; [`html`] adds the security headers.

mod card;
mod escape;
mod live;
mod open;
mod page;
mod qr;
mod style;
mod subscribe;
mod view;

use crate::http::response_body::ResponseBody;
use bytes::Bytes;
use hyper::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, HeaderValue, LOCATION, REFERRER_POLICY,
    X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
};
use hyper::{Response, StatusCode};

use crate::http::response::HttpResponse;

pub(crate) use card::{render_card_handoff, render_card_refused};
pub(crate) use live::{LiveStatus, live_status};
pub(crate) use open::{record_opened, simulate_payment, view};
pub(crate) use page::{render_not_found, render_page};
pub(crate) use subscribe::{SubscribeView, render_plan_not_found, render_subscribe_page};

/// An HTML response with the portal's headers: the page may not load or run anything but its own
/// stylesheet, may not be framed, sniffed, cached, or leak its URL (which names the receipt) as a referrer.
pub(crate) fn html(status: StatusCode, page: String) -> HttpResponse {
    let mut response = Response::new(ResponseBody::from(Bytes::from(page)));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    if let Ok(policy) = HeaderValue::from_str(&style::CONTENT_SECURITY_POLICY) {
        headers.insert(CONTENT_SECURITY_POLICY, policy);
    }
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    response
}

/// The page's script (`/portal/assets/checkout.js`): first-party, same origin, so the page's CSP allows it by
/// `'self'` with no CDN and no inline code.
pub(crate) const CHECKOUT_SCRIPT: &str = include_str!("checkout.js");

/// What both pages' scripts share (`/portal/assets/wallet.js`): wallet discovery, JSON requests, errors.
pub(crate) const WALLET_SCRIPT: &str = include_str!("wallet.js");

/// The subscribe page's script (`/subscribe/assets/subscribe.js`), first-party like the checkout's.
pub(crate) const SUBSCRIBE_SCRIPT: &str = include_str!("subscribe.js");

/// The checkout script with the headers of [`script_response`].
pub(crate) fn script() -> HttpResponse {
    script_response(CHECKOUT_SCRIPT)
}

/// A script with headers that keep it from being sniffed as anything else; browsers revalidate it, so a
/// new server version's script is picked up.
pub(crate) fn script_response(body: &'static str) -> HttpResponse {
    let mut response = Response::new(ResponseBody::from(Bytes::from_static(body.as_bytes())));
    let headers = response.headers_mut();
    headers.insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/javascript; charset=utf-8"),
    );
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// 303 See Other to `location` (after the page's form posts: reloading the page does not post again).
pub(crate) fn see_other(location: &str) -> HttpResponse {
    let mut response = Response::new(ResponseBody::from(Bytes::new()));
    *response.status_mut() = StatusCode::SEE_OTHER;
    if let Ok(value) = HeaderValue::from_str(location) {
        response.headers_mut().insert(LOCATION, value);
    }
    response
        .headers_mut()
        .insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_responses_carry_the_security_headers() {
        let response = html(StatusCode::NOT_FOUND, render_not_found());
        assert_eq!(response.status(), StatusCode::NOT_FOUND);
        let header = |name| {
            response
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
        };
        assert_eq!(header(CONTENT_TYPE), "text/html; charset=utf-8");
        assert!(header(CONTENT_SECURITY_POLICY).starts_with("default-src 'none'"));
        assert_eq!(header(X_CONTENT_TYPE_OPTIONS), "nosniff");
        assert_eq!(header(REFERRER_POLICY), "no-referrer");
        assert_eq!(header(CACHE_CONTROL), "no-store");
    }
}
