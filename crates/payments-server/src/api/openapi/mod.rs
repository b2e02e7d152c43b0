//! The OpenAPI 3.1 document of the HTTP API, generated from the code: each handler carries its
//! `#[utoipa::path(...)]` (method, path, parameters, body, answers) and each wire type derives `ToSchema`;
//! this module names the handlers and adds what routes share ([`shared`]: security schemes, the common error
//! answers). Served at `GET /api/openapi.json` and committed as `docs/openapi.json` (a test keeps them equal).
//!
//! Documenting a new route: annotate its handler with `#[utoipa::path(...)]` (its own answers only) and name
//! the handler in `paths(...)` below. The tests fail while a routed path has no operation, or while
//! `docs/openapi.json` is not the generated document.

mod flattened;
mod shared;
#[cfg(test)]
mod tests;

use std::sync::LazyLock;

use utoipa::OpenApi;

pub(crate) use flattened::FailureFields;

use crate::api::handlers;
use shared::{SecuritySchemes, SharedAnswers};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Merchant payments API",
        description = "Inventory, orders, receipts, payment-status webhooks, splits, user discovery and read-only GraphQL of the merchant payments server. Amounts are USD numbers (fields ending Usd), times Unix milliseconds. Every refusal is the envelope { error, message } with a stable code.",
        license(name = "MIT OR Apache-2.0")
    ),
    paths(
        handlers::health::get,
        handlers::metrics::get,
        handlers::openapi::get,
        handlers::portal::page,
        handlers::portal::open,
        handlers::portal::simulate,
        handlers::portal_checkout::status,
        handlers::portal_checkout::event,
        handlers::portal_checkout::payment,
        handlers::portal_checkout::script,
        handlers::ping::get,
        handlers::inventory::list,
        handlers::inventory::upsert,
        handlers::inventory::delete,
        handlers::images::upload,
        handlers::images::get,
        handlers::shop::get_config,
        handlers::shop::post_config,
        handlers::platform_config::site_config,
        handlers::platform_config::get_pricing,
        handlers::platform_config::post_pricing,
        handlers::platform_config::tax_catalog,
        handlers::admin_auth::nonce,
        handlers::admin_auth::login,
        handlers::admin_auth::logout,
        handlers::admin_auth::me,
        handlers::admin_auth::revoke_sessions,
        handlers::split::get,
        handlers::split::deploy,
        handlers::split::history,
        handlers::split::withdraw,
        handlers::split::transactions::list,
        handlers::reserve::balances,
        handlers::reserve::recommend,
        handlers::orders::create,
        handlers::receipts::list,
        handlers::receipts::create,
        handlers::receipts::get,
        handlers::receipts::status,
        handlers::receipts::status::post,
        handlers::receipts::admin::refund,
        handlers::receipts::admin::terminal,
        handlers::receipts::webhooks::list,
        handlers::receipts::transfers::list,
        handlers::receipts::webhooks::redeliver,
        handlers::users::search,
        handlers::users::live,
        handlers::users::get,
        handlers::users::put_me,
        handlers::users::heartbeat,
        handlers::users::follow,
        handlers::users::unfollow,
        handlers::graphql::execute,
        handlers::billing::balance,
        handlers::subscriptions::plans::list,
        handlers::subscriptions::plans::create,
        handlers::subscriptions::plans::update,
        handlers::subscriptions::plans::delete,
        handlers::subscriptions::create,
        handlers::subscriptions::status,
        handlers::subscriptions::cancel,
        handlers::subscriptions::cron::charge,
        handlers::subscriptions::cron::charge_alias,
        handlers::subscriptions::cron::advance_clock,
    ),
    modifiers(&SecuritySchemes, &SharedAnswers),
    tags(
        (name = "health", description = "Liveness and key diagnostics."),
        (name = "inventory", description = "The product catalog (docs/inventory.md)."),
        (name = "orders", description = "Orders priced from the inventory."),
        (name = "receipts", description = "Receipts, their statuses, refunds and webhook deliveries (docs/receipts.md)."),
        (name = "split", description = "Split configuration and on-chain split transactions (docs/admin-and-split.md)."),
        (name = "reserve", description = "Refund reserve balances and advice (docs/reserve.md)."),
        (name = "shop", description = "Shop, pricing, platform and tax settings."),
        (name = "auth", description = "Admin and user sign-in with an EIP-712 signature; session cookie + CSRF."),
        (name = "users", description = "User discovery, profiles, heartbeats and follows (docs/users-and-graphql.md)."),
        (name = "graphql", description = "Read-only GraphQL."),
        (name = "subscriptions", description = "Plans, subscriptions by EIP-712 spend permission, the charge batch and the test clock (docs/subscriptions.md)."),
        (name = "billing", description = "Platform fees owed on the merchant's sales."),
        (name = "portal", description = "The hosted payment page (HTML)."),
        (name = "operations", description = "Metrics and this document."),
    )
)]
struct ApiDoc;

/// The document as pretty JSON with a final newline (the form committed as `docs/openapi.json`), built once.
static DOCUMENT: LazyLock<Result<String, String>> = LazyLock::new(|| {
    ApiDoc::openapi()
        .to_pretty_json()
        .map(|json| json + "\n")
        .map_err(|error| error.to_string())
});

/// The generated document.
///
/// # Errors
/// The serializer's message if the document cannot be written as JSON (never expected: it is plain data).
pub(crate) fn document_json() -> Result<&'static str, &'static str> {
    DOCUMENT.as_deref().map_err(String::as_str)
}
