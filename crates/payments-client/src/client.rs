//! The [`Client`] and the request plumbing its endpoint methods share.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use reqwest::RequestBuilder;
use serde::de::DeserializeOwned;
use url::Url;

use crate::builder::{ClientBuilder, RateLimitRetry};
use crate::error::{Error, ErrorCode};
use crate::response::read_json;
use crate::secret::SubscriptionKey;

const SUBSCRIPTION_KEY_HEADER: &str = "X-Gateway-Subscription-Key";
const API_KEY_HEADER: &str = "x-api-key";

/// A typed async client of the merchant payments service.
///
/// Cheap to clone (the connection pool is shared). Endpoint methods live next to their models:
/// [`Client::health`], [`Client::ping`], [`Client::list_inventory`], [`Client::upsert_inventory_item`],
/// [`Client::delete_inventory_item`], [`Client::upload_inventory_image`], the receipt and order routes
/// ([`Client::create_order`], ...), configuration reads ([`Client::split`], ...), and the admin routes,
/// which take an [`AdminSession`](crate::AdminSession) ([`Client::admin_login`],
/// [`Client::deploy_split`], [`Client::refund_receipt`], [`Client::terminal_sale`], ...).
#[derive(Debug, Clone)]
pub struct Client {
    http: reqwest::Client,
    base_url: Url,
    key: Option<SubscriptionKey>,
    retry: RateLimitRetry,
}

/// Which credential header a route wants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Auth {
    /// Open route.
    None,
    /// `X-Gateway-Subscription-Key` (developer routes).
    Subscription,
    /// `x-api-key` (the status ping).
    ApiKey,
}

impl Client {
    /// Starts configuring a client for the service at `base_url` (e.g. `http://127.0.0.1:8080`).
    pub fn builder(base_url: impl Into<String>) -> ClientBuilder {
        ClientBuilder::new(base_url)
    }

    pub(crate) fn from_parts(
        http: reqwest::Client,
        base_url: Url,
        key: Option<SubscriptionKey>,
        retry: RateLimitRetry,
    ) -> Self {
        Client {
            http,
            base_url,
            key,
            retry,
        }
    }

    /// The base URL requests are sent to (always ending with `/`).
    pub fn base_url(&self) -> &Url {
        &self.base_url
    }

    /// The URL of a route, `path` relative to the base (no leading `/`).
    pub(crate) fn url(&self, path: &str) -> Result<Url, Error> {
        self.base_url
            .join(path)
            .map_err(|err| Error::Config(format!("route {path:?}: {err}")))
    }

    /// Adds the credential header a route wants, when the client has a key.
    pub(crate) fn authorize(&self, request: RequestBuilder, auth: Auth) -> RequestBuilder {
        match (auth, &self.key) {
            (Auth::None, _) | (_, None) => request,
            (Auth::Subscription, Some(key)) => request.header(SUBSCRIPTION_KEY_HEADER, key.expose()),
            (Auth::ApiKey, Some(key)) => request.header(API_KEY_HEADER, key.expose()),
        }
    }

    /// Sends a `GET`, retrying a 429 as configured by [`RateLimitRetry`] (GETs are safe to repeat).
    pub(crate) async fn get_json<T: DeserializeOwned>(&self, url: Url, auth: Auth) -> Result<T, Error> {
        let mut retries_left = self.retry.max_retries;
        loop {
            let request = self.authorize(self.http.get(url.clone()), auth);
            match read_json(request.send().await?).await {
                Err(Error::Api(api)) if api.code == ErrorCode::RateLimited && retries_left > 0 => {
                    let wait = wait_until(api.reset_at);
                    if wait > self.retry.max_wait {
                        return Err(Error::Api(api));
                    }
                    retries_left -= 1;
                    tokio::time::sleep(wait).await;
                }
                other => return other,
            }
        }
    }

    /// Sends a request once: writes are never retried by the client.
    pub(crate) async fn send_json<T: DeserializeOwned>(&self, request: RequestBuilder) -> Result<T, Error> {
        read_json(request.send().await?).await
    }

    pub(crate) fn http(&self) -> &reqwest::Client {
        &self.http
    }
}

/// Time until `reset_at` (Unix ms); one second when the server named no reset time.
fn wait_until(reset_at: Option<u64>) -> Duration {
    let Some(reset_at) = reset_at else {
        return Duration::from_secs(1);
    };
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    Duration::from_millis(reset_at).saturating_sub(now)
}
