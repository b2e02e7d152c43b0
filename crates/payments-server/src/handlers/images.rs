//! POST /api/inventory/images: multipart `image` + `sku`; the image is attached to that product.

use serde::Serialize;

use crate::domain::inventory::{ImageDataUrl, Sku};
use crate::domain::scope::Scope;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::multipart;
use crate::http::response::{self, HttpResponse};

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ImageUploadResponse<'a> {
    ok: bool,
    image_url: &'a str,
}

pub(crate) async fn upload(ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let caller = ctx.dev_caller(Scope::InventoryWrite).await?;
    let form = multipart::image_upload(ctx).await?;
    let sku = Sku::parse("sku", &form.sku)?;
    let image = ImageDataUrl::from_bytes(&form.image)?;
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
