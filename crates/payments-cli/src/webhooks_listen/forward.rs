//! `--forward-to URL`: each verified delivery is sent on to a local endpoint (the merchant backend under
//! development) with its original body and headers, so that endpoint verifies the very same signature;
//! the endpoint's answer becomes the listener's answer, so the service's retries and delivery log show
//! what the backend did.

use std::time::{Duration, Instant};

use bytes::Bytes;
use hyper::{HeaderMap, StatusCode};
use reqwest::Url;

use crate::report::failure;

/// Longer than the service's default 5 s attempt: a slow backend shows as a slow answer, not as ours.
const FORWARD_TIMEOUT: Duration = Duration::from_secs(10);

/// Headers that belong to one connection (RFC 9110 section 7.6.1) or that the client sets itself.
const NOT_FORWARDED: &[&str] = &[
    "host",
    "content-length",
    "connection",
    "keep-alive",
    "transfer-encoding",
    "te",
    "trailer",
    "upgrade",
    "proxy-connection",
    "proxy-authorization",
];

/// Sends verified deliveries on to one URL.
#[derive(Debug)]
pub(crate) struct Forwarder {
    client: reqwest::Client,
    url: Url,
}

/// What became of one forward.
#[derive(Debug)]
pub(super) struct Forwarded {
    /// The endpoint's status, or why there was none (502 unreachable, 504 no answer in time).
    pub(super) status: StatusCode,
    /// The line to print.
    pub(super) line: String,
}

impl Forwarder {
    /// A forwarder to `url` (`http://` or `https://`). Redirects are not followed: a webhook endpoint
    /// that redirects is misconfigured, and the service would not follow it either.
    ///
    /// # Errors
    /// `invalid_url` for anything but an absolute http(s) URL.
    pub(crate) fn new(url: &str) -> anyhow::Result<Self> {
        let parsed = Url::parse(url)
            .ok()
            .filter(|parsed| matches!(parsed.scheme(), "http" | "https") && parsed.has_host())
            .ok_or_else(|| {
                failure(
                    "invalid_url",
                    format!("--forward-to {url:?} is not an http:// or https:// URL"),
                )
            })?;
        let client = reqwest::Client::builder()
            .timeout(FORWARD_TIMEOUT)
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("payments-cli/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|error| failure("invalid_config", format!("cannot build the HTTP client: {error}")))?;
        Ok(Forwarder { client, url: parsed })
    }

    /// Where deliveries go.
    pub(crate) fn url(&self) -> &Url {
        &self.url
    }

    /// POSTs `body` with the request's own headers (signatures included) to the URL.
    pub(super) async fn forward(&self, headers: &HeaderMap, body: Bytes) -> Forwarded {
        let mut request = self.client.post(self.url.clone()).body(body);
        for (name, value) in headers {
            if !NOT_FORWARDED.contains(&name.as_str()) {
                request = request.header(name.as_str(), value.as_bytes());
            }
        }
        let started = Instant::now();
        let sent = request.send().await;
        let took = started.elapsed().as_millis();
        match sent {
            Ok(response) => {
                let status =
                    StatusCode::from_u16(response.status().as_u16()).unwrap_or(StatusCode::BAD_GATEWAY);
                Forwarded {
                    status,
                    line: format!("  -> {} POST {} ({took} ms)", status.as_u16(), self.url),
                }
            }
            Err(error) => {
                let (status, why) = if error.is_timeout() {
                    (StatusCode::GATEWAY_TIMEOUT, "no answer in time".to_owned())
                } else if error.is_connect() {
                    (
                        StatusCode::BAD_GATEWAY,
                        "connection refused or unreachable".to_owned(),
                    )
                } else {
                    (StatusCode::BAD_GATEWAY, crate::report::chain(&error))
                };
                Forwarded {
                    status,
                    line: format!("  -> failed POST {}: {why} ({took} ms)", self.url),
                }
            }
        }
    }
}
