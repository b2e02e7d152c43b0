//! The shared vectors and small builders for requests made from them.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde::Deserialize;
use webhook_verify::{ApiKey, WebhookSecret};

const VECTORS: &str = include_str!("../vectors/webhook-signatures.json");

/// A delivery time for the X-Service vectors, which carry no timestamp of their own.
pub(crate) const SENT_AT_MS: u64 = 1_767_599_992_000;
pub(crate) const SENT_AT_MS_TEXT: &str = "1767599992000";

#[derive(Debug, Deserialize)]
struct VectorFile {
    vectors: Vec<Vector>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Vector {
    pub(crate) api_key: String,
    pub(crate) body_base64: String,
    pub(crate) x_service_signature: String,
    pub(crate) standard_webhooks: StandardVector,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct StandardVector {
    pub(crate) secret: String,
    pub(crate) webhook_id: String,
    pub(crate) webhook_timestamp: String,
    pub(crate) webhook_signature: String,
}

pub(crate) fn vectors() -> Vec<Vector> {
    let file: VectorFile = serde_json::from_str(VECTORS).expect("the vector file is valid JSON");
    assert!(!file.vectors.is_empty(), "the vector file has vectors");
    file.vectors
}

pub(crate) fn vector(index: usize) -> Vector {
    vectors().swap_remove(index)
}

impl Vector {
    pub(crate) fn body(&self) -> Vec<u8> {
        STANDARD.decode(&self.body_base64).expect("bodyBase64 is base64")
    }

    pub(crate) fn api_key(&self) -> ApiKey {
        ApiKey::new(&self.api_key).expect("the vector's API key is usable")
    }

    pub(crate) fn secret(&self) -> WebhookSecret {
        WebhookSecret::new(&self.standard_webhooks.secret).expect("the vector's secret is usable")
    }

    /// The vector's X-Service-Signature with a timestamp header of [`SENT_AT_MS_TEXT`].
    pub(crate) fn x_service_headers(&self) -> Vec<(String, String)> {
        vec![
            ("X-Service-Signature".to_owned(), self.x_service_signature.clone()),
            ("X-Service-Timestamp".to_owned(), SENT_AT_MS_TEXT.to_owned()),
        ]
    }

    /// The vector's Standard Webhooks headers, with the signature header replaced.
    pub(crate) fn standard_headers_with_signature(&self, signature: &str) -> Vec<(String, String)> {
        let s = &self.standard_webhooks;
        vec![
            ("webhook-id".to_owned(), s.webhook_id.clone()),
            ("webhook-timestamp".to_owned(), s.webhook_timestamp.clone()),
            ("webhook-signature".to_owned(), signature.to_owned()),
        ]
    }

    pub(crate) fn standard_headers(&self) -> Vec<(String, String)> {
        self.standard_headers_with_signature(&self.standard_webhooks.webhook_signature)
    }

    /// One second after the vector's webhook-timestamp.
    pub(crate) fn standard_now(&self) -> SystemTime {
        let secs: u64 = self
            .standard_webhooks
            .webhook_timestamp
            .parse()
            .expect("numeric timestamp");
        at_secs(secs + 1)
    }
}

pub(crate) fn at_millis(ms: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_millis(ms)
}

pub(crate) fn at_secs(secs: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(secs)
}

/// One second after [`SENT_AT_MS`].
pub(crate) fn x_service_now() -> SystemTime {
    at_millis(SENT_AT_MS + 1_000)
}

/// Replaces the value of every header named `name` (any case).
pub(crate) fn with_header(headers: &[(String, String)], name: &str, value: &str) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|(k, v)| {
            let v = if k.eq_ignore_ascii_case(name) {
                value.to_owned()
            } else {
                v.clone()
            };
            (k.clone(), v)
        })
        .collect()
}

/// Removes every header named `name` (any case).
pub(crate) fn without_header(headers: &[(String, String)], name: &str) -> Vec<(String, String)> {
    headers
        .iter()
        .filter(|(k, _)| !k.eq_ignore_ascii_case(name))
        .cloned()
        .collect()
}
