//! What every route of a kind shares, added to the generated operations so each handler's annotation names
//! only its own answers: the security schemes, and the error answers of authentication, rate limiting,
//! body reading and overload (as reusable `components.responses`, each the spec's error envelope).

use utoipa::Modify;
use utoipa::openapi::path::Operation;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, Http, HttpAuthScheme, SecurityScheme};
use utoipa::openapi::{ContentBuilder, OpenApi, Ref, RefOr, Response, ResponseBuilder};

use crate::http::admin::{CSRF_HEADER, SESSION_COOKIE};

/// Security scheme names, as the handlers' `security(...)` annotations use them.
const SUBSCRIPTION_KEY: &str = "subscription_key";
const API_KEY: &str = "api_key";
const BEARER: &str = "bearer";
const SESSION: &str = "session_cookie";
const CSRF: &str = "csrf_token";
const METRICS_TOKEN: &str = "metrics_token";
const CRON_SECRET: &str = "cron_secret";

/// Adds the security schemes the annotations refer to.
#[derive(Debug)]
pub(super) struct SecuritySchemes;

impl Modify for SecuritySchemes {
    fn modify(&self, openapi: &mut OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        let header = |name: &str, description: &str| {
            SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::with_description(name, description)))
        };
        components.add_security_scheme(
            SUBSCRIPTION_KEY,
            header(
                "X-Gateway-Subscription-Key",
                "The merchant's subscription key (`payments-server keys create`); every Dev route. Its scopes decide the routes it may call (403 forbidden otherwise).",
            ),
        );
        components.add_security_scheme(
            API_KEY,
            header(
                "x-api-key",
                "The subscription key, as the status ping also accepts it.",
            ),
        );
        components.add_security_scheme(BEARER, SecurityScheme::Http(Http::new(HttpAuthScheme::Bearer)));
        components.add_security_scheme(
            SESSION,
            SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::with_description(
                SESSION_COOKIE,
                "The admin/user session (JWT) set by POST /api/auth/login.",
            ))),
        );
        components.add_security_scheme(
            CSRF,
            header(
                CSRF_HEADER,
                "The session's CSRF token from the login answer; required on every session write.",
            ),
        );
        components.add_security_scheme(
            CRON_SECRET,
            header(
                "x-cron-secret",
                "The internal secret of the charge batch and the test clock (--cron-secret); without one configured those routes answer 404.",
            ),
        );
        components.add_security_scheme(
            METRICS_TOKEN,
            SecurityScheme::Http(Http::new(HttpAuthScheme::Bearer)),
        );
    }
}

/// The shared error answers: (status, response name, description).
const SHARED: &[(&str, &str, &str)] = &[
    (
        "400",
        "InvalidInput",
        "The request is malformed (invalid_input, with `field` when one field is at fault).",
    ),
    (
        "401",
        "Unauthorized",
        "Missing or invalid credentials: subscription key (unauthorized) or session (unauthorized, \"missing or expired session\").",
    ),
    (
        "403",
        "Forbidden",
        "The key lacks the route's scope, the session may not act on this wallet, or the CSRF token or Origin is refused (forbidden).",
    ),
    (
        "408",
        "BodyTimeout",
        "The request body did not arrive within the body timeout (body_timeout).",
    ),
    (
        "413",
        "PayloadTooLarge",
        "The request body (or uploaded image) is larger than the route's limit (payload_too_large).",
    ),
    (
        "429",
        "RateLimited",
        "The caller's quota is spent (rate_limited); retry after `resetAt` (Unix ms).",
    ),
    (
        "500",
        "Failed",
        "An unexpected error (failed); nothing about it is sent.",
    ),
    (
        "503",
        "Unavailable",
        "The datastore or chain node does not answer, or the request passed its deadline (datastore_unavailable, chain_unavailable, deadline_exceeded); nothing was changed; Retry-After says when to retry.",
    ),
];

/// Adds the shared error answers to every operation that can give them, unless its annotation already
/// describes that status; and makes operation ids unique where one handler serves several methods.
#[derive(Debug)]
pub(super) struct SharedAnswers;

impl Modify for SharedAnswers {
    fn modify(&self, openapi: &mut OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        for (_, name, description) in SHARED {
            components
                .responses
                .insert((*name).to_owned(), RefOr::T(envelope(description)));
        }
        for item in openapi.paths.paths.values_mut() {
            let operations = [
                ("Get", &mut item.get),
                ("Put", &mut item.put),
                ("Post", &mut item.post),
                ("Delete", &mut item.delete),
                ("Head", &mut item.head),
                ("Patch", &mut item.patch),
            ];
            let mut operations: Vec<(&str, &mut Operation)> = operations
                .into_iter()
                .filter_map(|(method, operation)| operation.as_mut().map(|operation| (method, operation)))
                .collect();
            let ids: Vec<Option<String>> = operations
                .iter()
                .map(|(_, operation)| operation.operation_id.clone())
                .collect();
            for (method, operation) in &mut operations {
                // One handler serving several methods (`method(get, post)`) gets one id per method.
                let shared = ids.iter().filter(|id| **id == operation.operation_id).count() > 1;
                if shared && let Some(id) = operation.operation_id.as_mut() {
                    id.push_str(method);
                }
                for status in statuses(operation) {
                    if let Some((_, name, _)) = SHARED.iter().find(|(shared, ..)| *shared == status) {
                        operation
                            .responses
                            .responses
                            .entry(status.to_owned())
                            .or_insert_with(|| RefOr::Ref(Ref::from_response_name(*name)));
                    }
                }
            }
        }
    }
}

/// The shared statuses an operation can answer: every route can fail (500, 503); an authenticated one can
/// refuse its caller (401, 403) and count it (429); one that reads a body can refuse the body (400, 408, 413).
fn statuses(operation: &Operation) -> Vec<&'static str> {
    let mut statuses = vec!["500", "503"];
    let schemes = security_schemes(operation);
    let authenticated = [SUBSCRIPTION_KEY, API_KEY, BEARER, SESSION]
        .iter()
        .any(|scheme| schemes.iter().any(|used| used == scheme));
    if authenticated {
        statuses.extend(["401", "403", "429"]);
    }
    if operation.request_body.is_some() {
        statuses.extend(["400", "408", "413"]);
    }
    statuses
}

/// The scheme names of an operation's security requirements (their fields are private; the JSON shows them).
fn security_schemes(operation: &Operation) -> Vec<String> {
    operation
        .security
        .iter()
        .flatten()
        .filter_map(|requirement| serde_json::to_value(requirement).ok())
        .filter_map(|value| {
            value
                .as_object()
                .map(|object| object.keys().cloned().collect::<Vec<_>>())
        })
        .flatten()
        .collect()
}

fn envelope(description: &str) -> Response {
    ResponseBuilder::new()
        .description(description)
        .content(
            "application/json",
            ContentBuilder::new()
                .schema(Some(Ref::from_schema_name("Error")))
                .build(),
        )
        .build()
}
