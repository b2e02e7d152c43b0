//! GET /api/openapi.json (no key): the OpenAPI 3.1 document of this API, generated from the handlers.

use crate::http::response_body::ResponseBody;
use bytes::Bytes;
use hyper::Response;
use hyper::header::{CACHE_CONTROL, CONTENT_TYPE, HeaderValue};

use crate::api::openapi;
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::response::{HttpResponse, JSON_CONTENT_TYPE};

/// This document (OpenAPI 3.1), generated from the code.
#[utoipa::path(
    get,
    path = "/api/openapi.json",
    operation_id = "openapi",
    tag = "operations",
    responses((status = 200, description = "The OpenAPI document.", body = serde_json::Value))
)]
pub(crate) async fn get(_ctx: &Ctx<'_>) -> Result<HttpResponse, ApiError> {
    let document = openapi::document_json().map_err(ApiError::internal)?;
    let mut response = Response::new(ResponseBody::from(Bytes::from_static(document.as_bytes())));
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(JSON_CONTENT_TYPE));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("public, max-age=300"));
    Ok(response)
}
