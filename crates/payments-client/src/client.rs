//! The [`Client`] and the request plumbing its endpoint methods share.

use reqwest::RequestBuilder;
use reqwest::header::{HeaderMap, HeaderValue};
use serde::de::DeserializeOwned;
use url::Url;

use crate::builder::ClientBuilder;
use crate::error::Error;
use crate::response::{RawBody, read_json, read_json_with_headers, read_raw};
use crate::retry::{RetryPolicy, new_idempotency_key};
use crate::secret::SubscriptionKey;

const SUBSCRIPTION_KEY_HEADER: &str = "X-Gateway-Subscription-Key";
const API_KEY_HEADER: &str = "x-api-key";
const IDEMPOTENCY_KEY_HEADER: &str = "Idempotency-Key";

/// A typed async client of the merchant payments service.
///
/// Cheap to clone (the connection pool is shared). Endpoint methods live next to their models:
/// [`Client::health`], [`Client::ping`], [`Client::list_inventory`], [`Client::upsert_inventory_item`],
/// [`Client::delete_inventory_item`], [`Client::upload_inventory_image`], [`Client::inventory_image`], the
/// receipt and order routes ([`Client::create_order`], ...), configuration reads ([`Client::split`], ...),
/// and the admin routes,
/// which take an [`AdminSession`](crate::AdminSession) ([`Client::admin_login`],
/// [`Client::deploy_split`], [`Client::refund_receipt`], [`Client::terminal_sale`], ...).
#[derive(Debug, Clone)]
pub struct Client {
    http: reqwest::Client,
    base_url: Url,
    key: Option<SubscriptionKey>,
    retry: RetryPolicy,
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
        retry: RetryPolicy,
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

    /// Sends a `GET`, retrying as the [`RetryPolicy`] allows (a `GET` is safe to repeat).
    pub(crate) async fn get_json<T: DeserializeOwned>(&self, url: Url, auth: Auth) -> Result<T, Error> {
        let request = self.authorize(self.http.get(url), auth);
        self.send(request, Replay::Safe).await
    }

    /// [`Client::get_json`], also returning the response headers.
    pub(crate) async fn get_json_with_headers<T: DeserializeOwned>(
        &self,
        url: Url,
        auth: Auth,
    ) -> Result<(T, HeaderMap), Error> {
        let request = self.authorize(self.http.get(url), auth);
        self.send_reading(request, Replay::Safe, read_json_with_headers)
            .await
    }

    /// Sends a `GET` whose success body is not JSON (an image), retrying as [`Client::get_json`] does.
    pub(crate) async fn get_raw(&self, url: Url, auth: Auth) -> Result<RawBody, Error> {
        let request = self.authorize(self.http.get(url), auth);
        self.send_reading(request, Replay::Safe, read_raw).await
    }

    /// Sends a write once: without an idempotency key, a repeat could do the work twice.
    pub(crate) async fn send_json<T: DeserializeOwned>(&self, request: RequestBuilder) -> Result<T, Error> {
        self.send(request, Replay::Once).await
    }

    /// Sends a create under an `Idempotency-Key`: the caller's, else (when retries are on) one made for
    /// this call and kept across its attempts, so that a retry of a create that did reach the service is
    /// answered with the first result instead of creating again. With retries off and no key, the
    /// request goes without one and is sent once.
    pub(crate) async fn send_keyed<T: DeserializeOwned>(
        &self,
        request: RequestBuilder,
        key: Option<&str>,
    ) -> Result<T, Error> {
        let key = match key {
            Some(key) => key.to_owned(),
            None if self.retry.is_enabled() => new_idempotency_key(),
            None => return self.send(request, Replay::Once).await,
        };
        let value = HeaderValue::from_str(&key)
            .map_err(|_| Error::Config("the idempotency key is not a valid header value".to_owned()))?;
        self.send(request.header(IDEMPOTENCY_KEY_HEADER, value), Replay::Safe)
            .await
    }

    async fn send<T: DeserializeOwned>(&self, request: RequestBuilder, replay: Replay) -> Result<T, Error> {
        self.send_reading(request, replay, read_json).await
    }

    /// The attempt loop: one attempt, then as many retries as the policy grants for the failure; `read`
    /// turns an answer into the result (or its typed error).
    async fn send_reading<T, Answer>(
        &self,
        request: RequestBuilder,
        replay: Replay,
        read: impl Fn(reqwest::Response) -> Answer,
    ) -> Result<T, Error>
    where
        Answer: Future<Output = Result<T, Error>>,
    {
        let request = request.build()?;
        let mut retry = 0;
        loop {
            // A streamed body cannot be cloned, hence not resent: such a request gets one attempt.
            let Some(attempt) = request.try_clone() else {
                return read(self.http.execute(request).await?).await;
            };
            let result = match self.http.execute(attempt).await {
                Ok(response) => read(response).await,
                Err(error) => Err(Error::from(error)),
            };
            let delay = match (&result, replay) {
                (Err(error), Replay::Safe) => self.retry.delay(retry, error),
                _ => None,
            };
            let Some(delay) = delay else {
                return result;
            };
            retry += 1;
            tokio::time::sleep(delay).await;
        }
    }

    pub(crate) fn http(&self) -> &reqwest::Client {
        &self.http
    }
}

/// Whether a failed request may be sent again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Replay {
    /// A `GET`, or a write under an idempotency key: repeating it cannot do the work twice.
    Safe,
    /// A write without a key: sent exactly once.
    Once,
}
