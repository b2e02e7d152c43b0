//! The OpenAPI 3.1 document of the HTTP API, generated from the code: each handler carries its
//! `#[utoipa::path(...)]` (method, path, parameters, body, answers) and each wire type derives `ToSchema`;
//! the route table names the operations and this module adds what routes share ([`shared`]: security
//! schemes, the common error answers). Served at `GET /api/openapi.json` and committed as `docs/openapi.json` (a test keeps them equal).
//!
//! Documenting a new route: annotate its handler with `#[utoipa::path(...)]` (its own answers only); its entry
//! in the route table ([`crate::api::routes`]) names the generated operation, and the document's `paths` are
//! built from the table. The tests fail while a route and the document disagree, or while `docs/openapi.json`
//! is not the generated document.

pub(crate) mod core_types;
mod flattened;
mod shared;
#[cfg(test)]
mod tests;

use std::marker::PhantomData;
use std::sync::LazyLock;

use utoipa::openapi::path::{HttpMethod, PathsBuilder};
use utoipa::openapi::schema::Schema;
use utoipa::openapi::{Components, RefOr};
use utoipa::{Modify as _, OpenApi};

pub(crate) use flattened::{BalanceFields, FailureFields};

use crate::api::routes::ROUTES;
use shared::{SecuritySchemes, SharedAnswers};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Merchant payments API",
        description = "Inventory, orders, receipts, payment-status webhooks, splits, user discovery and read-only GraphQL of the merchant payments server. Amounts are USD numbers (fields ending Usd), times Unix milliseconds. Every refusal is the envelope { error, message } with a stable code.",
        license(name = "MIT OR Apache-2.0")
    ),
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
        (name = "webhooks", description = "Webhook endpoints per merchant: every receipt and subscription event, Standard Webhooks signatures, delivery log, recover (docs/webhooks.md)."),
        (name = "portal", description = "The hosted payment page (HTML)."),
        (name = "operations", description = "Metrics, reconciliation with the chain (docs/money.md) and this document."),
    )
)]
struct ApiDoc;

/// The document as pretty JSON with a final newline (the form committed as `docs/openapi.json`), built once.
static DOCUMENT: LazyLock<Result<String, String>> = LazyLock::new(|| {
    build()
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

/// The schemas an operation names, gathered for the document's `components`.
pub(crate) type Schemas = Vec<(String, RefOr<Schema>)>;

/// Adds one handler's operation to the paths (and its schemas): a route table entry's `operation`.
pub(crate) type Operation = fn(PathsBuilder, &mut Schemas) -> PathsBuilder;

/// The [`Operation`] of the handler whose `#[utoipa::path]` generated `P`: what the `paths(...)` list of the
/// derive does for each handler it names, done for each route of the table instead.
pub(crate) fn operation<P>(paths: PathsBuilder, schemas: &mut Schemas) -> PathsBuilder
where
    P: utoipa::Path + for<'t> utoipa::__dev::Tags<'t> + utoipa::__dev::SchemaReferences,
{
    P::schemas(schemas);
    paths.path_from::<Tagged<P>>()
}

/// `P`'s operation with the tags of its `tag = ...` (the derive adds them the same way).
struct Tagged<P>(PhantomData<P>);

impl<P> utoipa::__dev::PathConfig for Tagged<P>
where
    P: utoipa::Path + for<'t> utoipa::__dev::Tags<'t>,
{
    fn path() -> String {
        P::path()
    }

    fn methods() -> Vec<HttpMethod> {
        P::methods()
    }

    fn tags_and_operation() -> (Vec<&'static str>, utoipa::openapi::path::Operation) {
        (<P as utoipa::__dev::Tags<'static>>::tags(), P::operation())
    }
}

/// The document: the derive's info and tags, the paths of every route of the table, then the shared parts.
fn build() -> utoipa::openapi::OpenApi {
    let mut document = ApiDoc::openapi();
    let mut schemas = Schemas::new();
    let paths = ROUTES.iter().fold(PathsBuilder::new(), |paths, route| {
        (route.operation)(paths, &mut schemas)
    });
    document.paths = paths.build();
    document
        .components
        .get_or_insert_with(Components::new)
        .schemas
        .extend(schemas);
    SecuritySchemes.modify(&mut document);
    SharedAnswers.modify(&mut document);
    document
}
