//! Reading the image upload form (`image` file + `sku` text). The declared content type of the file is
//! ignored on purpose: the image type is decided from its bytes.

use bytes::Bytes;
use futures_util::stream;
use hyper::header::CONTENT_TYPE;

use crate::domain::inventory::MAX_IMAGE_BYTES;
use crate::http::context::Ctx;
use crate::http::error::ApiError;

/// Room for the form's boundaries, part headers and the `sku` part around a largest image.
const FORM_OVERHEAD_BYTES: usize = 64 * 1024;

/// The form of `POST /api/inventory/images`.
#[derive(Debug, utoipa::ToSchema)]
pub(crate) struct ImageUploadForm {
    /// The product's SKU.
    pub(crate) sku: String,
    /// A JPEG, PNG or WebP file.
    #[schema(value_type = String, format = Binary)]
    pub(crate) image: Bytes,
}

fn invalid(field: &str, message: &str) -> ApiError {
    ApiError::invalid_input(Some(field.to_owned()), format!("{field}: {message}"))
}

pub(crate) async fn image_upload(ctx: &Ctx<'_>) -> Result<ImageUploadForm, ApiError> {
    let boundary = ctx
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| multer::parse_boundary(value).ok())
        .ok_or_else(|| ApiError::invalid_input(None, "expected a multipart/form-data body".to_owned()))?;
    // Read only after the content type is known to be a form: a JSON body is refused unread.
    let body = ctx
        .read_body(MAX_IMAGE_BYTES + FORM_OVERHEAD_BYTES)
        .await?
        .clone();
    let mut form = multer::Multipart::new(
        stream::once(async move { Ok::<_, std::io::Error>(body) }),
        boundary,
    );
    let (mut sku, mut image) = (None, None);
    loop {
        let field = form.next_field().await.map_err(malformed)?;
        let Some(field) = field else { break };
        match field.name() {
            Some("sku") => sku = Some(field.text().await.map_err(malformed)?),
            Some("image") => image = Some(field.bytes().await.map_err(malformed)?),
            // Other parts are ignored, as unknown JSON properties are.
            Some(_) | None => {}
        }
    }
    let image = image.ok_or_else(|| invalid("image", "a file part named image is required"))?;
    if image.len() > MAX_IMAGE_BYTES {
        return Err(ApiError::PayloadTooLarge {
            subject: "the image",
            limit: MAX_IMAGE_BYTES,
        });
    }
    let sku = sku.ok_or_else(|| invalid("sku", "a text part named sku is required"))?;
    Ok(ImageUploadForm { sku, image })
}

fn malformed(error: multer::Error) -> ApiError {
    ApiError::invalid_input(None, format!("malformed multipart body: {error}"))
}
