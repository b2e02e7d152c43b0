//! The one route table: each entry is a method set, a path pattern and the handler that answers it, with the
//! handler's OpenAPI operation. Dispatch, 405 + `Allow`, the metrics label and the OpenAPI `paths` are all
//! derived from [`ROUTES`], so a route is declared once (as axum derives 405 from one method router).
//!
//! Matching: the first entry (in table order) whose pattern fits the path decides the path's route; the entries
//! with that pattern decide the method: one that lists it answers, else 405 with the union of their methods. A
//! literal pattern is listed before a `{param}` one that could also fit (`/api/receipts/status` before
//! `/api/receipts/{id}`).

use std::future::Future;
use std::pin::Pin;
use std::sync::LazyLock;

use hyper::Method;

use crate::api::handlers::receipts::{
    admin as receipt_admin, status as receipt_status, transfers as receipt_transfers,
    webhooks as receipt_webhooks,
};
use crate::api::handlers::split::transactions as split_transactions;
use crate::api::handlers::subscriptions::{
    change as subscription_change, cron as subscription_cron, permission as subscription_permission,
    plan_webhooks as subscription_plan_webhooks, plans as subscription_plans,
};
use crate::api::handlers::{
    admin_auth, billing, exports, graphql, health, images, inventory, metrics, openapi as openapi_handler,
    orders, ping, platform_config, portal, portal_checkout, portal_onramp, receipts, reconcile, reserve,
    root, shop, split, subscribe_page, subscriptions, test_fund, users, webhook_endpoints,
};
use crate::api::openapi::{Operation, operation};
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::HttpResponse;

/// A handler's answer, boxed so every handler fits one table.
pub(crate) type Answer<'r> = Pin<Box<dyn Future<Output = Result<HttpResponse, ApiError>> + Send + 'r>>;
/// Calls one handler with the request's context and the path's parameters.
pub(crate) type Handler = for<'r> fn(&'r Ctx<'r>, Params<'r>) -> Answer<'r>;

/// One route: `methods` (empty: every method) on `pattern` answered by `handler`, documented by `operation`.
pub(crate) struct Route {
    pub(crate) methods: &'static [Method],
    /// Literal segments and `{name}` parameters; also the metrics label and the OpenAPI path.
    pub(crate) pattern: &'static str,
    pub(crate) handler: Handler,
    /// Adds the handler's `#[utoipa::path]` operation (and the schemas it names) to the document.
    pub(crate) operation: Operation,
}

/// The request method and the values of the pattern's `{}` segments, in order.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Params<'r> {
    pub(crate) method: &'r Method,
    values: [&'r str; 2],
}

impl<'r> Params<'r> {
    /// The value of the pattern's `index`th parameter (empty past the last).
    pub(crate) fn at(&self, index: usize) -> &'r str {
        self.values.get(index).copied().unwrap_or_default()
    }
}

const GET: &[Method] = &[Method::GET];
const GET_HEAD: &[Method] = &[Method::GET, Method::HEAD];
const POST: &[Method] = &[Method::POST];
const PUT: &[Method] = &[Method::PUT];
const DELETE: &[Method] = &[Method::DELETE];
const PATCH: &[Method] = &[Method::PATCH];
const GET_POST: &[Method] = &[Method::GET, Method::POST];
/// Every method: the deprecated withdraw answers whatever it is asked, to tell clients where withdrawals went.
const ANY: &[Method] = &[];

/// One entry of [`ROUTES`]: `route!(METHODS "/pattern", |ctx, params| handler call, handler's utoipa path)`.
macro_rules! route {
    ($methods:ident $pattern:literal, |$ctx:pat_param, $params:pat_param| $call:expr, $doc:path) => {
        Route {
            methods: $methods,
            pattern: $pattern,
            handler: |$ctx, $params| Box::pin($call),
            operation: operation::<$doc>,
        }
    };
}

/// The route table.
#[rustfmt::skip]
pub(crate) static ROUTES: &[Route] = &[
    route!(GET "/", |ctx, _| root::get(ctx), root::__path_get),
    route!(GET "/healthz", |ctx, _| health::get(ctx), health::__path_get),
    route!(GET "/metrics", |ctx, _| metrics::get(ctx), metrics::__path_get),
    route!(GET_HEAD "/portal/{id}", |ctx, p| portal::page(ctx, p.at(0)), portal::__path_page),
    route!(POST "/portal/{id}", |ctx, p| portal::open(ctx, p.at(0)), portal::__path_open),
    route!(POST "/portal/{id}/simulate", |ctx, p| portal::simulate(ctx, p.at(0)), portal::__path_simulate),
    route!(GET "/subscribe/assets/subscribe.js", |_, _| async { Ok(subscribe_page::script()) }, subscribe_page::__path_script),
    route!(GET "/subscribe/{planId}", |ctx, p| subscribe_page::page(ctx, p.at(0)), subscribe_page::__path_page),
    route!(GET "/portal/assets/wallet.js", |_, _| async { Ok(subscribe_page::wallet_script()) }, subscribe_page::__path_wallet_script),
    route!(GET "/portal/assets/checkout.js", |_, _| async { Ok(portal_checkout::script()) }, portal_checkout::__path_script),
    route!(GET "/portal/{id}/status", |ctx, p| portal_checkout::status(ctx, p.at(0)), portal_checkout::__path_status),
    route!(POST "/portal/{id}/events", |ctx, p| portal_checkout::event(ctx, p.at(0)), portal_checkout::__path_event),
    route!(POST "/portal/{id}/payment", |ctx, p| portal_checkout::payment(ctx, p.at(0)), portal_checkout::__path_payment),
    route!(POST "/portal/{id}/onramp", |ctx, p| portal_onramp::start(ctx, p.at(0)), portal_onramp::__path_start),
    route!(GET "/api/status/ping", |ctx, _| ping::get(ctx), ping::__path_get),
    route!(GET "/api/openapi.json", |ctx, _| openapi_handler::get(ctx), openapi_handler::__path_get),
    route!(GET "/api/inventory", |ctx, _| inventory::list(ctx), inventory::__path_list),
    route!(POST "/api/inventory", |ctx, _| inventory::upsert(ctx), inventory::__path_upsert),
    route!(DELETE "/api/inventory", |ctx, _| inventory::delete(ctx), inventory::__path_delete),
    route!(POST "/api/inventory/images", |ctx, _| images::upload(ctx), images::__path_upload),
    route!(GET "/api/inventory/{id}/images/{n}", |ctx, p| images::get(ctx, p.at(0), p.at(1)), images::__path_get),
    route!(GET "/api/shop/config", |ctx, _| shop::get_config(ctx), shop::__path_get_config),
    route!(POST "/api/shop/config", |ctx, _| shop::post_config(ctx), shop::__path_post_config),
    route!(GET "/api/site/config", |ctx, _| async move { Ok(platform_config::site_config(ctx)) }, platform_config::__path_site_config),
    route!(GET "/api/pricing/config", |ctx, _| platform_config::get_pricing(ctx), platform_config::__path_get_pricing),
    route!(POST "/api/pricing/config", |ctx, _| platform_config::post_pricing(ctx), platform_config::__path_post_pricing),
    route!(GET "/api/tax/catalog", |ctx, _| platform_config::tax_catalog(ctx), platform_config::__path_tax_catalog),
    route!(GET "/api/auth/nonce", |ctx, _| admin_auth::nonce(ctx), admin_auth::__path_nonce),
    route!(POST "/api/auth/login", |ctx, _| admin_auth::login(ctx), admin_auth::__path_login),
    route!(POST "/api/auth/logout", |ctx, _| admin_auth::logout(ctx), admin_auth::__path_logout),
    route!(GET "/api/auth/me", |ctx, _| admin_auth::me(ctx), admin_auth::__path_me),
    route!(POST "/api/auth/sessions/revoke", |ctx, _| admin_auth::revoke_sessions(ctx), admin_auth::__path_revoke_sessions),
    route!(GET "/api/split/deploy", |ctx, _| split::get(ctx), split::__path_get),
    route!(POST "/api/split/deploy", |ctx, _| split::deploy(ctx), split::__path_deploy),
    route!(GET "/api/split/history", |ctx, _| split::history(ctx), split::__path_history),
    route!(ANY "/api/split/withdraw", |_, _| async { Ok(split::withdraw()) }, split::__path_withdraw),
    route!(GET "/api/split/transactions", |ctx, _| split_transactions::list(ctx), split_transactions::__path_list),
    route!(GET "/api/reserve/balances", |ctx, _| reserve::balances(ctx), reserve::__path_balances),
    route!(GET "/api/reserve/recommend", |ctx, _| reserve::recommend(ctx), reserve::__path_recommend),
    route!(GET "/api/admin/reconcile", |ctx, _| reconcile::get(ctx), reconcile::__path_get),
    route!(POST "/api/orders", |ctx, _| orders::create(ctx), orders::__path_create),
    route!(GET "/api/receipts", |ctx, _| receipts::list(ctx), receipts::__path_list),
    route!(POST "/api/receipts", |ctx, _| receipts::create(ctx), receipts::__path_create),
    route!(GET "/api/receipts/status", |ctx, _| receipts::status(ctx), receipts::__path_status),
    route!(POST "/api/receipts/status", |ctx, _| receipt_status::post(ctx), receipt_status::__path_post),
    route!(POST "/api/receipts/refund", |ctx, _| receipt_admin::refund(ctx), receipt_admin::__path_refund),
    route!(POST "/api/receipts/terminal", |ctx, _| receipt_admin::terminal(ctx), receipt_admin::__path_terminal),
    route!(GET "/api/receipts/{id}", |ctx, p| receipts::get(ctx, p.at(0)), receipts::__path_get),
    route!(GET "/api/receipts/{id}/transfers", |ctx, p| receipt_transfers::list(ctx, p.at(0)), receipt_transfers::__path_list),
    route!(GET "/api/receipts/{id}/webhooks", |ctx, p| receipt_webhooks::list(ctx, p.at(0)), receipt_webhooks::__path_list),
    route!(POST "/api/receipts/{id}/webhooks/{delivery}/redeliver", |ctx, p| receipt_webhooks::redeliver(ctx, p.at(0), p.at(1)), receipt_webhooks::__path_redeliver),
    route!(GET "/api/users/search", |ctx, _| users::search(ctx), users::__path_search),
    route!(GET "/api/users/live", |ctx, _| users::live(ctx), users::__path_live),
    route!(PUT "/api/users/me", |ctx, _| users::put_me(ctx), users::__path_put_me),
    route!(POST "/api/users/heartbeat", |ctx, _| users::heartbeat(ctx), users::__path_heartbeat),
    route!(POST "/api/users/follows", |ctx, _| users::follow(ctx), users::__path_follow),
    route!(DELETE "/api/users/follows", |ctx, _| users::unfollow(ctx), users::__path_unfollow),
    route!(GET "/api/users/{wallet}", |ctx, p| users::get(ctx, p.at(0)), users::__path_get),
    route!(GET_POST "/api/graphql", |ctx, p| graphql::execute(ctx, p.method), graphql::__path_execute),
    route!(GET "/api/billing/balance", |ctx, _| billing::balance(ctx), billing::__path_balance),
    route!(GET "/api/exports/ledger", |ctx, _| exports::ledger(ctx), exports::__path_ledger),
    route!(GET "/api/subscriptions/plans", |ctx, _| subscription_plans::list(ctx), subscription_plans::__path_list),
    route!(POST "/api/subscriptions/plans", |ctx, _| subscription_plans::create(ctx), subscription_plans::__path_create),
    route!(PUT "/api/subscriptions/plans", |ctx, _| subscription_plans::update(ctx), subscription_plans::__path_update),
    route!(DELETE "/api/subscriptions/plans", |ctx, _| subscription_plans::delete(ctx), subscription_plans::__path_delete),
    route!(GET "/api/subscriptions/plans/{planId}/permission", |ctx, p| subscription_permission::permission(ctx, p.at(0)), subscription_permission::__path_permission),
    route!(GET "/api/subscriptions/plans/{planId}/webhooks", |ctx, p| subscription_plan_webhooks::list(ctx, p.at(0)), subscription_plan_webhooks::__path_list),
    route!(POST "/api/subscriptions/plans/{planId}/webhooks/{delivery}/redeliver", |ctx, p| subscription_plan_webhooks::redeliver(ctx, p.at(0), p.at(1)), subscription_plan_webhooks::__path_redeliver),
    route!(POST "/api/subscriptions/create", |ctx, _| subscriptions::create(ctx), subscriptions::__path_create),
    route!(GET "/api/subscriptions/status", |ctx, _| subscriptions::status(ctx), subscriptions::__path_status),
    route!(POST "/api/subscriptions/cancel", |ctx, _| subscriptions::cancel(ctx), subscriptions::__path_cancel),
    route!(POST "/api/subscriptions/change", |ctx, _| subscription_change::change(ctx), subscription_change::__path_change),
    route!(POST "/api/subscriptions/charge", |ctx, _| subscription_cron::charge_alias(ctx), subscription_cron::__path_charge_alias),
    route!(POST "/api/cron/charge-subscriptions", |ctx, _| subscription_cron::charge(ctx), subscription_cron::__path_charge),
    route!(POST "/api/test-clock/advance", |ctx, _| subscription_cron::advance_clock(ctx), subscription_cron::__path_advance_clock),
    route!(POST "/api/test/fund", |ctx, _| test_fund::fund(ctx), test_fund::__path_fund),
    route!(GET "/api/webhook-endpoints", |ctx, _| webhook_endpoints::list(ctx), webhook_endpoints::__path_list),
    route!(POST "/api/webhook-endpoints", |ctx, _| webhook_endpoints::create(ctx), webhook_endpoints::__path_create),
    route!(POST "/api/webhook-endpoints/test-event", |ctx, _| webhook_endpoints::test_event(ctx), webhook_endpoints::__path_test_event),
    route!(GET "/api/webhook-endpoints/{id}", |ctx, p| webhook_endpoints::get(ctx, p.at(0)), webhook_endpoints::__path_get),
    route!(PATCH "/api/webhook-endpoints/{id}", |ctx, p| webhook_endpoints::update(ctx, p.at(0)), webhook_endpoints::__path_update),
    route!(DELETE "/api/webhook-endpoints/{id}", |ctx, p| webhook_endpoints::delete(ctx, p.at(0)), webhook_endpoints::__path_delete),
    route!(POST "/api/webhook-endpoints/{id}/rotate", |ctx, p| webhook_endpoints::rotate(ctx, p.at(0)), webhook_endpoints::__path_rotate),
    route!(POST "/api/webhook-endpoints/{id}/recover", |ctx, p| webhook_endpoints::recover(ctx, p.at(0)), webhook_endpoints::__path_recover),
    route!(GET "/api/webhook-endpoints/{id}/deliveries", |ctx, p| webhook_endpoints::deliveries(ctx, p.at(0)), webhook_endpoints::__path_deliveries),
    route!(POST "/api/webhook-endpoints/{id}/deliveries/{deliveryId}/redeliver", |ctx, p| webhook_endpoints::redeliver(ctx, p.at(0), p.at(1)), webhook_endpoints::__path_redeliver),
];

/// Splits a path (or a pattern) into its segments: `/api/receipts/r1` -> `api`, `receipts`, `r1`.
fn segments(path: &str) -> impl Iterator<Item = &str> {
    path.strip_prefix('/').unwrap_or(path).split('/')
}

/// A pattern split into its segments: a literal, or `None` for a `{param}`.
type Compiled = Vec<Option<&'static str>>;

fn compile(pattern: &'static str) -> Compiled {
    segments(pattern)
        .map(|segment| (!segment.starts_with('{')).then_some(segment))
        .collect()
}

/// Every route's pattern split once, in table order: a request splits only its own path (matching used to
/// split every pattern it tried, twice per request, a tenth of a cached `GET`'s time; docs/benchmarks.md).
static COMPILED: LazyLock<Vec<Compiled>> =
    LazyLock::new(|| ROUTES.iter().map(|route| compile(route.pattern)).collect());

/// No pattern has more segments than this, so a longer path fits none.
const MOST_SEGMENTS: usize = 8;

/// The values of `pattern`'s parameters if the path's segments `given` fit it, `None` otherwise.
fn fit<'p>(pattern: &[Option<&str>], given: &[&'p str]) -> Option<[&'p str; 2]> {
    if pattern.len() != given.len() {
        return None;
    }
    let mut values = [""; 2];
    let mut found = 0;
    for (wanted, segment) in pattern.iter().zip(given) {
        match wanted {
            None => {
                if let Some(slot) = values.get_mut(found) {
                    *slot = segment;
                }
                found += 1;
            }
            Some(literal) if literal == segment => {}
            Some(_) => return None,
        }
    }
    Some(values)
}

/// The first route whose pattern `path` fits, with the parameters' values.
fn first_fit(path: &str) -> Option<(&'static Route, [&str; 2])> {
    let mut given = [""; MOST_SEGMENTS];
    let mut count = 0;
    for segment in segments(path) {
        *given.get_mut(count)? = segment;
        count += 1;
    }
    let given = given.get(..count)?;
    ROUTES
        .iter()
        .zip(COMPILED.iter())
        .find_map(|(route, pattern)| fit(pattern, given).map(|values| (route, values)))
}

/// Answers a request by the table: its handler, a 405 naming the path's methods, or a 404.
pub(crate) async fn route(ctx: &Ctx<'_>, method: &Method, path: &str) -> Result<HttpResponse, ApiError> {
    let Some((first, values)) = first_fit(path) else {
        return Err(ApiError::NotFound {
            message: format!("no route for {path}"),
        });
    };
    let same_path = || ROUTES.iter().filter(|route| route.pattern == first.pattern);
    let Some(route) = same_path().find(|route| route.methods.is_empty() || route.methods.contains(method))
    else {
        return Err(ApiError::MethodNotAllowed {
            allow: same_path()
                .flat_map(|route| route.methods.iter().cloned())
                .collect(),
        });
    };
    (route.handler)(ctx, Params { method, values }).await
}

/// The route pattern `path` fits, as the metrics label requests (never the raw path: ids would multiply the
/// series); `None` when no route has this path.
pub(crate) fn pattern(path: &str) -> Option<&'static str> {
    first_fit(path).map(|(route, _)| route.pattern)
}

/// The method as the metrics label it: the standard ones by name, any other token as `other`.
pub(crate) fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::HEAD => "HEAD",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::PATCH => "PATCH",
        Method::OPTIONS => "OPTIONS",
        _ => "other",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_labelled_by_their_route_pattern_and_unknown_paths_by_none() {
        for (path, expected) in [
            ("/api/receipts/order-1001", Some("/api/receipts/{id}")),
            ("/api/receipts/status", Some("/api/receipts/status")),
            (
                "/api/receipts/r1/webhooks/d1/redeliver",
                Some("/api/receipts/{id}/webhooks/{delivery}/redeliver"),
            ),
            (
                "/api/inventory/prod_1/images/2",
                Some("/api/inventory/{id}/images/{n}"),
            ),
            ("/portal/abc", Some("/portal/{id}")),
            ("/portal/abc/simulate", Some("/portal/{id}/simulate")),
            ("/metrics", Some("/metrics")),
            ("/api/receipts/a/b", None),
            ("/wp-login.php", None),
        ] {
            assert_eq!(pattern(path), expected, "{path}");
        }
    }

    /// Whether `path` fits `pattern`, with the parameters' values.
    fn fit_path<'p>(pattern: &'static str, path: &'p str) -> Option<[&'p str; 2]> {
        fit(&compile(pattern), &segments(path).collect::<Vec<_>>())
    }

    #[test]
    fn a_pattern_gives_its_parameters_in_order() {
        assert_eq!(
            fit_path("/api/inventory/{id}/images/{n}", "/api/inventory/p1/images/2"),
            Some(["p1", "2"])
        );
        assert_eq!(
            fit_path("/api/inventory/{id}/images/{n}", "/api/inventory/p1/images"),
            None
        );
        assert_eq!(fit_path("/healthz", "/healthz/x"), None);
        assert_eq!(fit_path("/healthz", "/healthz/"), None);
    }

    #[test]
    fn no_pattern_is_longer_than_a_path_can_be_and_a_longer_path_fits_none() {
        assert!(COMPILED.iter().all(|pattern| pattern.len() <= MOST_SEGMENTS));
        assert_eq!(pattern(&"/api".repeat(MOST_SEGMENTS + 1)), None);
        assert_eq!(pattern("/"), Some("/"));
    }

    /// A literal path listed after a `{param}` pattern it fits would never be reached.
    #[test]
    fn no_route_is_shadowed_by_an_earlier_pattern() {
        for (index, route) in ROUTES.iter().enumerate() {
            let concrete = route.pattern.replace("{", "x-").replace("}", "");
            let first = ROUTES
                .iter()
                .position(|other| fit_path(other.pattern, &concrete).is_some());
            let own = ROUTES.iter().position(|other| other.pattern == route.pattern);
            assert_eq!(first, own, "{} (entry {index}) is shadowed", route.pattern);
        }
    }

    #[test]
    fn methods_outside_the_standard_ones_share_one_label() {
        assert_eq!(method_label(&Method::GET), "GET");
        assert_eq!(method_label(&Method::from_bytes(b"BREW").unwrap()), "other");
    }
}
