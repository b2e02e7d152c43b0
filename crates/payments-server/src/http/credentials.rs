//! Reading credentials from headers. Client-sent identity headers (`x-wallet`, `wallet`, and
//! `x-subscription-id` outside the edge path) are never read: identity comes from the key alone.

use hyper::HeaderMap;
use hyper::header::AUTHORIZATION;

use crate::domain::api_key::SubscriptionId;
use crate::secret::Secret;
use crate::services::auth::Credentials;

const SUBSCRIPTION_KEY: &str = "x-gateway-subscription-key";
const EDGE_SECRET: &str = "x-edge-secret";
const EDGE_SUBSCRIPTION_ID: &str = "x-subscription-id";
const API_KEY: &str = "x-api-key";

fn header<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers
        .get(name)
        .and_then(|value| value.to_str().ok())
        .map(str::trim)
        .filter(|value| !value.is_empty())
}

/// Dev routes. With an edge secret configured, a request carrying `x-edge-secret` is judged by the edge path
/// only (a wrong secret is not rescued by a key). Without one, `x-edge-secret` is ignored.
pub(crate) fn dev(headers: &HeaderMap, edge_configured: bool) -> Credentials {
    if edge_configured && let Some(secret) = header(headers, EDGE_SECRET) {
        return Credentials::Edge {
            secret: Secret::new(secret),
            subscription_id: header(headers, EDGE_SUBSCRIPTION_ID).map(SubscriptionId::new),
        };
    }
    header(headers, SUBSCRIPTION_KEY).map_or(Credentials::Missing, |key| Credentials::Key(Secret::new(key)))
}

/// The status ping: `x-api-key` or `Authorization: Bearer <key>`.
pub(crate) fn api_key(headers: &HeaderMap) -> Credentials {
    header(headers, API_KEY)
        .or_else(|| bearer(headers))
        .map_or(Credentials::Missing, |key| Credentials::Key(Secret::new(key)))
}

/// The token of an `Authorization: Bearer <token>` header.
fn bearer(headers: &HeaderMap) -> Option<&str> {
    header(headers, AUTHORIZATION.as_str())
        .and_then(|value| value.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token.trim())
        .filter(|token| !token.is_empty())
}

/// Whether a request without the key header carries `Authorization: Bearer`, as Stripe-style clients send
/// keys: its 401 then says where the key goes instead of only that it is missing.
pub(crate) fn presents_bearer_instead_of_key(headers: &HeaderMap) -> bool {
    header(headers, SUBSCRIPTION_KEY).is_none() && bearer(headers).is_some()
}
