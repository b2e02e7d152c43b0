//! /api/inventory: list (GET), upsert (POST), delete (DELETE ?id=).

use serde::Serialize;

use crate::api::wire::inventory::InventoryItemRequest;
use crate::api::wire::inventory_answers::ShownItem;
use crate::domain::inventory::{self, InventoryQuery, ItemDraft, ProductId};
use crate::domain::scope::Scope;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::{self, Degraded, HttpResponse};

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct InventoryListResponse<'a> {
    items: Vec<ShownItem<'a>>,
    total: u64,
    page: u32,
    page_size: u32,
    /// Where the next page starts (`cursor=`); null on the last page.
    next_cursor: Option<String>,
    #[serde(flatten)]
    degraded: Option<Degraded>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct UpsertResponse<'a> {
    ok: bool,
    item: ShownItem<'a>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = DeletedResponse)]
struct OkResponse {
    ok: bool,
}

/// Lists and searches the merchant's products (inventory:read).
#[utoipa::path(
    get,
    path = "/api/inventory",
    operation_id = "listInventory",
    tag = "inventory",
    security(("subscription_key" = [])),
    params(
        ("q" = Option<String>, Query, description = "Searches name, SKU, description, category and tags."),
        ("category" = Option<String>, Query, description = "Exact category."),
        ("priceMin" = Option<f64>, Query, description = "Lowest price, USD."),
        ("priceMax" = Option<f64>, Query, description = "Highest price, USD."),
        ("tags" = Option<String>, Query, description = "Comma-separated tags."),
        ("tagsMode" = Option<String>, Query, description = "any (default) or all."),
        ("industryPack" = Option<String>, Query, description = "Industry pack filter."),
        ("taxable" = Option<bool>, Query, description = "Tax-status filter."),
        ("stock" = Option<String>, Query, description = "in, out or all (default)."),
        ("sort" = Option<String>, Query, description = "Sort field (docs/inventory.md)."),
        ("order" = Option<String>, Query, description = "asc or desc (default)."),
        ("pageSize" = Option<u32>, Query, description = "Page size, 1 to 200 (default 100)."),
        ("page" = Option<u32>, Query, description = "0-indexed page (default 0)."),
        ("cursor" = Option<String>, Query, description = "nextCursor of the previous page.")
    ),
    responses(
        (status = 200, description = "One page of products; degraded adds degraded and reason.", body = InventoryListResponse<'static>),
        (status = 400, description = "A query parameter is invalid (invalid_input).", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn list(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let caller = ctx.dev_caller(Scope::InventoryRead).await?;
    let query = InventoryQuery::parse(ctx.raw_query().len(), |name| ctx.query(name))?;
    let (page, page_size) = (query.page, query.page_size);
    let found = ctx.state.services.inventory.list(caller.wallet, query).await?;
    Ok(response::ok(&InventoryListResponse {
        items: found.items.iter().map(ShownItem::from).collect(),
        total: found.total,
        page,
        page_size,
        next_cursor: found.next.map(|key| key.encode()),
        degraded: found.degraded.then(Degraded::datastore_unavailable),
    }))
}

/// Creates or updates a product, idempotent by SKU (inventory:write).
#[utoipa::path(
    post,
    path = "/api/inventory",
    operation_id = "upsertInventoryItem",
    tag = "inventory",
    security(("subscription_key" = [])),
    request_body = InventoryItemRequest,
    responses(
        (status = 200, description = "The saved product.", body = UpsertResponse<'static>),
        (status = 404, description = "No product with this id of this merchant.", body = crate::http::error::Envelope<'static>),
        (status = 409, description = "The SKU belongs to another product (conflict).", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn upsert(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let caller = ctx.dev_caller(Scope::InventoryWrite).await?;
    let request: InventoryItemRequest = ctx.json_up_to(ctx.state.config.max_body_bytes).await?;
    let draft = ItemDraft::try_from(inventory::InventoryItemRequest::from(request))?;
    let item = ctx.state.services.inventory.upsert(&caller, draft).await?;
    Ok(response::ok(&UpsertResponse {
        ok: true,
        item: ShownItem::from(&item),
    }))
}

/// Deletes a product (inventory:write).
#[utoipa::path(
    delete,
    path = "/api/inventory",
    operation_id = "deleteInventoryItem",
    tag = "inventory",
    security(("subscription_key" = [])),
    params(
        ("id" = String, Query, description = "The product id.")
    ),
    responses(
        (status = 200, description = "Deleted.", body = OkResponse),
        (status = 400, description = "id is missing (invalid_input).", body = crate::http::error::Envelope<'static>),
        (status = 404, description = "No product with this id of this merchant.", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn delete(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let caller = ctx.dev_caller(Scope::InventoryWrite).await?;
    let id = ProductId::parse("id", ctx.required_query("id")?)?;
    ctx.state.services.inventory.delete(caller.wallet, id).await?;
    Ok(response::ok(&OkResponse { ok: true }))
}
