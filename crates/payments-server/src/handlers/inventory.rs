//! /api/inventory: list (GET), upsert (POST), delete (DELETE ?id=).

use serde::Serialize;

use crate::domain::inventory::{InventoryItem, InventoryItemRequest, InventoryQuery, ItemDraft, ProductId};
use crate::domain::scope::Scope;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::{self, Degraded, HttpResponse};

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct InventoryListResponse<'a> {
    items: &'a [InventoryItem],
    total: u64,
    page: u32,
    page_size: u32,
    /// Where the next page starts (`cursor=`); null on the last page.
    next_cursor: Option<String>,
    #[serde(flatten)]
    degraded: Option<Degraded>,
}

#[derive(Debug, Serialize)]
struct UpsertResponse<'a> {
    ok: bool,
    item: &'a InventoryItem,
}

#[derive(Debug, Serialize)]
struct OkResponse {
    ok: bool,
}

pub(crate) async fn list(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let caller = ctx.dev_caller(Scope::InventoryRead).await?;
    let query = InventoryQuery::parse(ctx.raw_query().len(), |name| ctx.query(name))?;
    let (page, page_size) = (query.page, query.page_size);
    let found = ctx.state.services.inventory.list(caller.wallet, query).await?;
    Ok(response::ok(&InventoryListResponse {
        items: &found.page.items,
        total: found.page.total,
        page,
        page_size,
        next_cursor: found.page.next.map(|key| key.encode()),
        degraded: found.degraded.then(Degraded::datastore_unavailable),
    }))
}

pub(crate) async fn upsert(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let caller = ctx.dev_caller(Scope::InventoryWrite).await?;
    let request: InventoryItemRequest = ctx.json_up_to(ctx.state.config.max_body_bytes).await?;
    let draft = ItemDraft::try_from(request)?;
    let item = ctx.state.services.inventory.upsert(&caller, draft).await?;
    Ok(response::ok(&UpsertResponse {
        ok: true,
        item: &item,
    }))
}

pub(crate) async fn delete(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let caller = ctx.dev_caller(Scope::InventoryWrite).await?;
    let id = ProductId::parse("id", ctx.required_query("id")?)?;
    ctx.state.services.inventory.delete(caller.wallet, id).await?;
    Ok(response::ok(&OkResponse { ok: true }))
}
