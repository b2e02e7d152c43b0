//! Product images: `POST /api/inventory/images` (multipart `image` + `sku`; the image is attached to that
//! product) and `GET /api/inventory/{id}/images/{n}` (one stored image, with `ETag` and caching headers).

use hyper::header::IF_NONE_MATCH;
use serde::Serialize;

use crate::domain::inventory::{ContentHash, ImageKey, NewImage, ProductId, Sku, parse_index};
use crate::domain::scope::Scope;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::{self, HttpResponse};
use crate::http::{image_response, multipart};

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct ImageUploadResponse<'a> {
    ok: bool,
    image_url: &'a str,
}

/// Attaches an image (JPEG, PNG or WebP) to the product with this SKU (inventory:write).
#[utoipa::path(
    post,
    path = "/api/inventory/images",
    operation_id = "uploadInventoryImage",
    tag = "inventory",
    security(("subscription_key" = [])),
    request_body(content = crate::http::multipart::ImageUploadForm, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "The stored image's URL.", body = ImageUploadResponse<'static>),
        (status = 404, description = "No product with this SKU of this merchant.", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn upload(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let caller = ctx.dev_caller(Scope::InventoryWrite).await?;
    let form = multipart::image_upload(ctx).await?;
    let sku = Sku::parse("sku", &form.sku)?;
    let image = NewImage::from_bytes(form.image)?;
    let attached = ctx
        .state
        .services
        .inventory
        .attach_image(caller.wallet, sku, image)
        .await?;
    Ok(response::ok(&ImageUploadResponse {
        ok: true,
        image_url: attached.as_str(),
    }))
}

/// One stored product image, with ETag and caching headers (inventory:read).
#[utoipa::path(
    get,
    path = "/api/inventory/{id}/images/{n}",
    operation_id = "getInventoryImage",
    tag = "inventory",
    security(("subscription_key" = [])),
    params(
        ("id" = String, Path, description = "The product id."),
        ("n" = String, Path, description = "The image index, from 0."),
        ("v" = Option<String>, Query, description = "Cache-busting content hash from the image URL."),
        ("If-None-Match" = Option<String>, Header, description = "A previously served ETag.")
    ),
    responses(
        (status = 200, description = "The image bytes.", content((Vec<u8> = "image/jpeg"), (Vec<u8> = "image/png"), (Vec<u8> = "image/webp"))),
        (status = 304, description = "Unchanged since the If-None-Match ETag."),
        (status = 404, description = "No such image of this merchant.", body = crate::http::error::Envelope<'static>)
    )
)]
pub(crate) async fn get(ctx: &Ctx<'_>, id: &str, index: &str) -> Result<HttpResponse, ApiError> {
    let caller = ctx.dev_caller(Scope::InventoryRead).await?;
    let key = image_key(id, index)?;
    let known = ctx
        .headers()
        .get(IF_NONE_MATCH)
        .and_then(|value| value.to_str().ok())
        .map(ContentHash::from_if_none_match)
        .unwrap_or_default();
    let fetched = ctx
        .state
        .services
        .inventory
        .image(caller.wallet, key, &known)
        .await?;
    Ok(image_response::image(fetched, ctx.query("v")))
}

/// A path that cannot name an image is answered like an image that does not exist.
fn image_key(id: &str, index: &str) -> Result<ImageKey, ApiError> {
    let product = ProductId::parse("id", id).ok();
    match (product, parse_index(index)) {
        (Some(product), Some(index)) => Ok(ImageKey { product, index }),
        _ => Err(ApiError::NotFound {
            message: format!("no image {index} of product {id}"),
        }),
    }
}
