//! The whole route table: one match on (method, path segments).

use hyper::Method;

use crate::api::handlers::receipts::{
    admin as receipt_admin, status as receipt_status, transfers as receipt_transfers,
    webhooks as receipt_webhooks,
};
use crate::api::handlers::split::transactions as split_transactions;
use crate::api::handlers::subscriptions::{cron as subscription_cron, plans as subscription_plans};
use crate::api::handlers::{
    admin_auth, billing, graphql, health, images, inventory, metrics, openapi, orders, ping, platform_config,
    portal_checkout, receipts, reserve, shop, split, subscriptions, users,
};
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::HttpResponse;

const GET: &[Method] = &[Method::GET];
const POST: &[Method] = &[Method::POST];
const GET_POST: &[Method] = &[Method::GET, Method::POST];
const PORTAL: &[Method] = &[Method::GET, Method::HEAD, Method::POST];
const INVENTORY: &[Method] = &[Method::GET, Method::POST, Method::DELETE];
const PUT: &[Method] = &[Method::PUT];
const POST_DELETE: &[Method] = &[Method::POST, Method::DELETE];
const PLANS: &[Method] = &[Method::GET, Method::POST, Method::PUT, Method::DELETE];

pub(crate) async fn route(ctx: &Ctx<'_>, method: &Method, path: &str) -> Result<HttpResponse, ApiError> {
    let segments: Vec<&str> = path.strip_prefix('/').unwrap_or(path).split('/').collect();
    match (method, segments.as_slice()) {
        (&Method::GET, ["healthz"]) => health::get(ctx).await,
        (&Method::GET, ["metrics"]) => metrics::get(ctx).await,
        (&Method::GET | &Method::HEAD, ["portal", id]) => crate::api::handlers::portal::page(ctx, id).await,
        (&Method::POST, ["portal", id]) => crate::api::handlers::portal::open(ctx, id).await,
        (&Method::POST, ["portal", id, "simulate"]) => crate::api::handlers::portal::simulate(ctx, id).await,
        (&Method::GET, ["portal", "assets", "checkout.js"]) => Ok(portal_checkout::script()),
        (&Method::GET, ["portal", id, "status"]) => portal_checkout::status(ctx, id).await,
        (&Method::POST, ["portal", id, "events"]) => portal_checkout::event(ctx, id).await,
        (&Method::POST, ["portal", id, "payment"]) => portal_checkout::payment(ctx, id).await,
        (_, ["portal", _]) => not_allowed(PORTAL),
        (_, ["portal", "assets", "checkout.js"] | ["portal", _, "status"]) => not_allowed(GET),
        (_, ["portal", _, "events" | "payment"]) => not_allowed(POST),
        (&Method::GET, ["api", "status", "ping"]) => ping::get(ctx).await,
        (&Method::GET, ["api", "openapi.json"]) => openapi::get(ctx).await,
        (&Method::GET, ["api", "inventory"]) => inventory::list(ctx).await,
        (&Method::POST, ["api", "inventory"]) => inventory::upsert(ctx).await,
        (&Method::DELETE, ["api", "inventory"]) => inventory::delete(ctx).await,
        (&Method::POST, ["api", "inventory", "images"]) => images::upload(ctx).await,
        (&Method::GET, ["api", "inventory", id, "images", index]) => images::get(ctx, id, index).await,
        (&Method::GET, ["api", "shop", "config"]) => shop::get_config(ctx).await,
        (&Method::POST, ["api", "shop", "config"]) => shop::post_config(ctx).await,
        (&Method::GET, ["api", "site", "config"]) => Ok(platform_config::site_config(ctx)),
        (&Method::GET, ["api", "pricing", "config"]) => platform_config::get_pricing(ctx).await,
        (&Method::POST, ["api", "pricing", "config"]) => platform_config::post_pricing(ctx).await,
        (&Method::GET, ["api", "tax", "catalog"]) => platform_config::tax_catalog(ctx).await,
        (_, ["api", "shop" | "pricing", "config"]) => not_allowed(GET_POST),
        (_, ["api", "site", "config"] | ["api", "tax", "catalog"]) => not_allowed(GET),
        (&Method::GET, ["api", "auth", "nonce"]) => admin_auth::nonce(ctx).await,
        (&Method::POST, ["api", "auth", "login"]) => admin_auth::login(ctx).await,
        (&Method::POST, ["api", "auth", "logout"]) => admin_auth::logout(ctx).await,
        (&Method::GET, ["api", "auth", "me"]) => admin_auth::me(ctx).await,
        (&Method::POST, ["api", "auth", "sessions", "revoke"]) => admin_auth::revoke_sessions(ctx).await,
        (&Method::GET, ["api", "split", "deploy"]) => split::get(ctx).await,
        (&Method::POST, ["api", "split", "deploy"]) => split::deploy(ctx).await,
        (&Method::GET, ["api", "split", "history"]) => split::history(ctx).await,
        (&Method::GET, ["api", "split", "transactions"]) => split_transactions::list(ctx).await,
        (&Method::GET, ["api", "reserve", "balances"]) => reserve::balances(ctx).await,
        (&Method::GET, ["api", "reserve", "recommend"]) => reserve::recommend(ctx).await,
        // Deprecated whatever the method: the answer tells any client where withdrawals went.
        (_, ["api", "split", "withdraw"]) => Ok(split::withdraw()),
        (_, ["api", "split", "deploy"]) => not_allowed(GET_POST),
        (_, ["api", "split", "history" | "transactions"]) => not_allowed(GET),
        (_, ["api", "reserve", "balances" | "recommend"]) => not_allowed(GET),
        (_, ["api", "auth", "nonce" | "me"]) => not_allowed(GET),
        (_, ["api", "auth", "login" | "logout"] | ["api", "auth", "sessions", "revoke"]) => not_allowed(POST),
        (_, ["healthz"] | ["metrics"] | ["api", "status", "ping"] | ["api", "openapi.json"]) => {
            not_allowed(GET)
        }
        (_, ["api", "inventory"]) => not_allowed(INVENTORY),
        (_, ["api", "inventory", "images"]) => not_allowed(POST),
        (_, ["api", "inventory", _, "images", _]) => not_allowed(GET),
        (&Method::POST, ["api", "orders"]) => orders::create(ctx).await,
        (&Method::GET, ["api", "receipts"]) => receipts::list(ctx).await,
        (&Method::POST, ["api", "receipts"]) => receipts::create(ctx).await,
        (&Method::GET, ["api", "receipts", "status"]) => receipts::status(ctx).await,
        (&Method::POST, ["api", "receipts", "status"]) => receipt_status::post(ctx).await,
        (&Method::POST, ["api", "receipts", "refund"]) => receipt_admin::refund(ctx).await,
        (&Method::POST, ["api", "receipts", "terminal"]) => receipt_admin::terminal(ctx).await,
        (&Method::GET, ["api", "receipts", id]) => receipts::get(ctx, id).await,
        (&Method::GET, ["api", "receipts", id, "transfers"]) => receipt_transfers::list(ctx, id).await,
        (&Method::GET, ["api", "receipts", id, "webhooks"]) => receipt_webhooks::list(ctx, id).await,
        (&Method::POST, ["api", "receipts", id, "webhooks", delivery, "redeliver"]) => {
            receipt_webhooks::redeliver(ctx, id, delivery).await
        }
        (_, ["api", "orders"] | ["api", "receipts", "refund" | "terminal"]) => not_allowed(POST),
        (_, ["api", "receipts"] | ["api", "receipts", "status"]) => not_allowed(GET_POST),
        (_, ["api", "receipts", _] | ["api", "receipts", _, "webhooks" | "transfers"]) => not_allowed(GET),
        (_, ["api", "receipts", _, "webhooks", _, "redeliver"]) => not_allowed(POST),
        (&Method::GET, ["api", "users", "search"]) => users::search(ctx).await,
        (&Method::GET, ["api", "users", "live"]) => users::live(ctx).await,
        (&Method::PUT, ["api", "users", "me"]) => users::put_me(ctx).await,
        (&Method::POST, ["api", "users", "heartbeat"]) => users::heartbeat(ctx).await,
        (&Method::POST, ["api", "users", "follows"]) => users::follow(ctx).await,
        (&Method::DELETE, ["api", "users", "follows"]) => users::unfollow(ctx).await,
        (_, ["api", "users", "search" | "live"]) => not_allowed(GET),
        (_, ["api", "users", "me"]) => not_allowed(PUT),
        (_, ["api", "users", "heartbeat"]) => not_allowed(POST),
        (_, ["api", "users", "follows"]) => not_allowed(POST_DELETE),
        (&Method::GET, ["api", "users", wallet]) => users::get(ctx, wallet).await,
        (_, ["api", "users", _]) => not_allowed(GET),
        (&Method::GET | &Method::POST, ["api", "graphql"]) => graphql::execute(ctx, method).await,
        (_, ["api", "graphql"]) => not_allowed(GET_POST),
        (&Method::GET, ["api", "billing", "balance"]) => billing::balance(ctx).await,
        (_, ["api", "billing", "balance"]) => not_allowed(GET),
        (&Method::GET, ["api", "subscriptions", "plans"]) => subscription_plans::list(ctx).await,
        (&Method::POST, ["api", "subscriptions", "plans"]) => subscription_plans::create(ctx).await,
        (&Method::PUT, ["api", "subscriptions", "plans"]) => subscription_plans::update(ctx).await,
        (&Method::DELETE, ["api", "subscriptions", "plans"]) => subscription_plans::delete(ctx).await,
        (&Method::POST, ["api", "subscriptions", "create"]) => subscriptions::create(ctx).await,
        (&Method::GET, ["api", "subscriptions", "status"]) => subscriptions::status(ctx).await,
        (&Method::POST, ["api", "subscriptions", "cancel"]) => subscriptions::cancel(ctx).await,
        (&Method::POST, ["api", "subscriptions", "charge"]) => subscription_cron::charge_alias(ctx).await,
        (&Method::POST, ["api", "cron", "charge-subscriptions"]) => subscription_cron::charge(ctx).await,
        (&Method::POST, ["api", "test-clock", "advance"]) => subscription_cron::advance_clock(ctx).await,
        (_, ["api", "subscriptions", "plans"]) => not_allowed(PLANS),
        (_, ["api", "subscriptions", "status"]) => not_allowed(GET),
        (_, ["api", "subscriptions", "create" | "cancel" | "charge"]) => not_allowed(POST),
        (_, ["api", "cron", "charge-subscriptions"] | ["api", "test-clock", "advance"]) => not_allowed(POST),
        _ => Err(ApiError::NotFound {
            message: format!("no route for {path}"),
        }),
    }
}

fn not_allowed(allow: &'static [Method]) -> Result<HttpResponse, ApiError> {
    Err(ApiError::MethodNotAllowed { allow })
}

/// The route pattern `path` matches, as the metrics label requests (never the raw path: ids would multiply
/// the series); `None` when no route has this path. Keep in step with [`route`].
pub(crate) fn pattern(path: &str) -> Option<&'static str> {
    let segments: Vec<&str> = path.strip_prefix('/').unwrap_or(path).split('/').collect();
    let pattern = match segments.as_slice() {
        ["healthz"] => "/healthz",
        ["metrics"] => "/metrics",
        ["portal", _] => "/portal/{id}",
        ["portal", _, "simulate"] => "/portal/{id}/simulate",
        ["portal", "assets", "checkout.js"] => "/portal/assets/checkout.js",
        ["portal", _, "status"] => "/portal/{id}/status",
        ["portal", _, "events"] => "/portal/{id}/events",
        ["portal", _, "payment"] => "/portal/{id}/payment",
        ["api", "status", "ping"] => "/api/status/ping",
        ["api", "openapi.json"] => "/api/openapi.json",
        ["api", "inventory"] => "/api/inventory",
        ["api", "inventory", "images"] => "/api/inventory/images",
        ["api", "inventory", _, "images", _] => "/api/inventory/{id}/images/{n}",
        ["api", "shop", "config"] => "/api/shop/config",
        ["api", "site", "config"] => "/api/site/config",
        ["api", "pricing", "config"] => "/api/pricing/config",
        ["api", "tax", "catalog"] => "/api/tax/catalog",
        ["api", "auth", "nonce"] => "/api/auth/nonce",
        ["api", "auth", "login"] => "/api/auth/login",
        ["api", "auth", "logout"] => "/api/auth/logout",
        ["api", "auth", "me"] => "/api/auth/me",
        ["api", "auth", "sessions", "revoke"] => "/api/auth/sessions/revoke",
        ["api", "split", "deploy"] => "/api/split/deploy",
        ["api", "split", "history"] => "/api/split/history",
        ["api", "split", "withdraw"] => "/api/split/withdraw",
        ["api", "split", "transactions"] => "/api/split/transactions",
        ["api", "reserve", "balances"] => "/api/reserve/balances",
        ["api", "reserve", "recommend"] => "/api/reserve/recommend",
        ["api", "orders"] => "/api/orders",
        ["api", "users", "search"] => "/api/users/search",
        ["api", "users", "live"] => "/api/users/live",
        ["api", "users", "me"] => "/api/users/me",
        ["api", "users", "heartbeat"] => "/api/users/heartbeat",
        ["api", "users", "follows"] => "/api/users/follows",
        ["api", "users", _] => "/api/users/{wallet}",
        ["api", "graphql"] => "/api/graphql",
        ["api", "billing", "balance"] => "/api/billing/balance",
        ["api", "subscriptions", "plans"] => "/api/subscriptions/plans",
        ["api", "subscriptions", "create"] => "/api/subscriptions/create",
        ["api", "subscriptions", "status"] => "/api/subscriptions/status",
        ["api", "subscriptions", "cancel"] => "/api/subscriptions/cancel",
        ["api", "subscriptions", "charge"] => "/api/subscriptions/charge",
        ["api", "cron", "charge-subscriptions"] => "/api/cron/charge-subscriptions",
        ["api", "test-clock", "advance"] => "/api/test-clock/advance",
        ["api", "receipts"] => "/api/receipts",
        ["api", "receipts", "status"] => "/api/receipts/status",
        ["api", "receipts", "refund"] => "/api/receipts/refund",
        ["api", "receipts", "terminal"] => "/api/receipts/terminal",
        ["api", "receipts", _] => "/api/receipts/{id}",
        ["api", "receipts", _, "webhooks"] => "/api/receipts/{id}/webhooks",
        ["api", "receipts", _, "transfers"] => "/api/receipts/{id}/transfers",
        ["api", "receipts", _, "webhooks", _, "redeliver"] => {
            "/api/receipts/{id}/webhooks/{delivery}/redeliver"
        }
        _ => return None,
    };
    Some(pattern)
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

    /// Every path shape the route table routes must have a metrics label, so a new route cannot silently be
    /// counted as `unmatched`.
    #[test]
    fn every_routed_path_shape_has_a_metrics_label() {
        let shapes = crate::api::route_shapes::routed_shapes();
        for shape in &shapes {
            assert!(
                pattern(&shape.path).is_some(),
                "{} is routed but has no metrics label",
                shape.path
            );
        }
        assert!(shapes.len() > 40, "only {} routed shapes found", shapes.len());
    }

    #[test]
    fn methods_outside_the_standard_ones_share_one_label() {
        assert_eq!(method_label(&Method::GET), "GET");
        assert_eq!(method_label(&Method::from_bytes(b"BREW").unwrap()), "other");
    }
}
