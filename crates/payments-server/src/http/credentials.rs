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
    let bearer = header(headers, AUTHORIZATION.as_str())
        .and_then(|value| value.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, key)| key.trim());
    header(headers, API_KEY)
        .or(bearer)
        .map_or(Credentials::Missing, |key| Credentials::Key(Secret::new(key)))
}
