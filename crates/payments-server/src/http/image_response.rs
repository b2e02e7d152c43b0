//! The answer of `GET /api/inventory/{id}/images/{n}`: the image's bytes with its type, its content hash as
//! `ETag`, and caching headers; `304 Not Modified` without a body when the caller already has it.

use crate::http::response_body::ResponseBody;
use bytes::Bytes;
use hyper::header::{CACHE_CONTROL, CONTENT_TYPE, ETAG, HeaderValue, X_CONTENT_TYPE_OPTIONS};
use hyper::{Response, StatusCode};

use crate::domain::inventory::{ImageFetch, ImageMeta};
use crate::http::response::HttpResponse;

/// A URL whose `v` is the image's current version changes whenever the image does, so it may be kept
/// long. `private`: the route needs a merchant's key, so shared caches must not keep it.
const CACHE_VERSIONED: &str = "private, max-age=31536000, immutable";
/// Without `v` (or with an outdated one) the same URL may later name another image: kept a minute, then
/// revalidated with `If-None-Match` (a 304 reads no image bytes).
const CACHE_UNVERSIONED: &str = "private, max-age=60";
/// Stored types are always one of the three image types; anything else is served as opaque bytes.
const FALLBACK_CONTENT_TYPE: &str = "application/octet-stream";

/// `requested_version`: the request's `v` query value, if any.
pub(crate) fn image(fetched: ImageFetch, requested_version: Option<&str>) -> HttpResponse {
    let (status, meta, body) = match fetched {
        ImageFetch::Unchanged(meta) => (StatusCode::NOT_MODIFIED, meta, Bytes::new()),
        ImageFetch::Fetched(image) => (StatusCode::OK, image.meta, Bytes::from(image.bytes)),
    };
    let mut response = Response::new(ResponseBody::from(body));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    if let Ok(etag) = HeaderValue::from_str(&meta.sha256.etag()) {
        headers.insert(ETAG, etag);
    }
    headers.insert(
        CACHE_CONTROL,
        HeaderValue::from_static(cache_control(&meta, requested_version)),
    );
    if status == StatusCode::OK {
        let content_type = HeaderValue::from_str(&meta.content_type)
            .unwrap_or(HeaderValue::from_static(FALLBACK_CONTENT_TYPE));
        headers.insert(CONTENT_TYPE, content_type);
        // The bytes are a merchant's upload: never let a browser guess another type for them.
        headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    }
    response
}

fn cache_control(meta: &ImageMeta, requested_version: Option<&str>) -> &'static str {
    if requested_version == Some(meta.sha256.version()) {
        CACHE_VERSIONED
    } else {
        CACHE_UNVERSIONED
    }
}
