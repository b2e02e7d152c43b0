//! Shared test client: requests with or without the test key, and JSON replies.

use payments_server::testing::{self, TestApp, TestOptions};
use reqwest::header::HeaderMap;
use reqwest::{Method, RequestBuilder};
use serde_json::{Value, json};

pub(crate) const KEY_HEADER: &str = "X-Gateway-Subscription-Key";

pub(crate) struct Api {
    pub(crate) app: TestApp,
    http: reqwest::Client,
}

#[derive(Debug)]
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) headers: HeaderMap,
    pub(crate) json: Value,
}

impl Reply {
    pub(crate) fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .and_then(|value| value.to_str().ok())
            .unwrap_or("")
    }
}

impl Api {
    pub(crate) async fn spawn() -> Api {
        Api::spawn_with(TestOptions::default()).await
    }

    pub(crate) async fn spawn_with(options: TestOptions) -> Api {
        Api {
            app: testing::spawn_app_with(options).await,
            http: reqwest::Client::new(),
        }
    }

    /// A client of an already running app (e.g. one returned by `TestApp::restart`).
    pub(crate) fn from_app(app: TestApp) -> Api {
        Api {
            app,
            http: reqwest::Client::new(),
        }
    }

    /// A request without credentials.
    pub(crate) fn anonymous(&self, method: Method, path: &str) -> RequestBuilder {
        self.http.request(method, self.app.url(path))
    }

    /// A request with the test merchant's all-scopes key.
    pub(crate) fn dev(&self, method: Method, path: &str) -> RequestBuilder {
        self.dev_as(&self.app.key, method, path)
    }

    pub(crate) fn dev_as(&self, key: &str, method: Method, path: &str) -> RequestBuilder {
        self.anonymous(method, path).header(KEY_HEADER, key)
    }

    pub(crate) async fn upsert(&self, body: Value) -> Value {
        let reply = send(self.dev(Method::POST, "/api/inventory").json(&body)).await;
        assert_eq!(reply.status, 200, "upsert failed: {}", reply.json);
        reply.json["item"].clone()
    }

    pub(crate) async fn list(&self, query: &str) -> Reply {
        send(self.dev(Method::GET, &format!("/api/inventory{query}"))).await
    }

    /// SKUs of a listing, in order.
    pub(crate) async fn skus(&self, query: &str) -> Vec<String> {
        let reply = self.list(query).await;
        assert_eq!(reply.status, 200, "listing failed: {}", reply.json);
        reply.json["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|item| item["sku"].as_str().unwrap().to_owned())
            .collect()
    }
}

pub(crate) async fn send(request: RequestBuilder) -> Reply {
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let bytes = response.bytes().await.unwrap();
    let json = if bytes.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&bytes).unwrap()
    };
    Reply {
        status,
        headers,
        json,
    }
}

/// The smallest valid product.
pub(crate) fn product(sku: &str) -> Value {
    json!({"sku": sku, "name": format!("Product {sku}"), "priceUsd": 10, "stockQty": 5})
}

/// `product(sku)` with `changes` merged in (a `null` change removes the field).
pub(crate) fn product_with(sku: &str, changes: Value) -> Value {
    let mut body = product(sku);
    for (key, value) in changes.as_object().unwrap() {
        if value.is_null() {
            body.as_object_mut().unwrap().remove(key);
        } else {
            body[key] = value.clone();
        }
    }
    body
}

pub(crate) const PNG: &[u8] =
    b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89";
pub(crate) const JPEG: &[u8] = b"\xff\xd8\xff\xe0\0\x10JFIF\0\x01\x01\0\0\x01\0\x01\0\0";
pub(crate) const WEBP: &[u8] =
    b"RIFF\x1a\0\0\0WEBPVP8L\x0d\0\0\0\x2f\0\0\0\x10\x07\x10\x11\x11\x88\x88\xfe\x07\0";

/// A reply as bytes: what a replay must repeat exactly.
pub(crate) struct Raw {
    pub(crate) status: u16,
    pub(crate) replayed: bool,
    pub(crate) body: Vec<u8>,
}

pub(crate) async fn send_raw(request: RequestBuilder) -> Raw {
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let replayed = response.headers().get("idempotent-replayed").is_some();
    let body = response.bytes().await.unwrap().to_vec();
    Raw {
        status,
        replayed,
        body,
    }
}
