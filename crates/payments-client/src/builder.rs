//! Configuration of a [`Client`]: where, with which key, how long to wait, whether to retry.

use std::time::Duration;

use url::Url;

use crate::client::Client;
use crate::error::Error;
use crate::retry::RetryPolicy;
use crate::secret::SubscriptionKey;

/// Default time to establish a connection.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// Default time for a whole request, from sending to the end of the response body.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// Builds a [`Client`]. Start with [`Client::builder`].
///
/// ```
/// use std::time::Duration;
/// use payments_client::{Client, RetryPolicy};
/// let client = Client::builder("http://127.0.0.1:8080")
///     .subscription_key("sk_test_123")
///     .connect_timeout(Duration::from_secs(2))
///     .timeout(Duration::from_secs(10))
///     .user_agent("my-shop-sync/1.0")
///     .retries(RetryPolicy::exponential(3))
///     .build()?;
/// # Ok::<(), payments_client::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct ClientBuilder {
    base_url: String,
    key: Option<SubscriptionKey>,
    connect_timeout: Duration,
    timeout: Duration,
    user_agent: String,
    retry: RetryPolicy,
}

impl ClientBuilder {
    pub(crate) fn new(base_url: impl Into<String>) -> Self {
        ClientBuilder {
            base_url: base_url.into(),
            key: None,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            timeout: DEFAULT_TIMEOUT,
            user_agent: concat!("payments-client/", env!("CARGO_PKG_VERSION")).to_owned(),
            retry: RetryPolicy::OFF,
        }
    }

    /// The subscription key sent with every authenticated request (`X-Gateway-Subscription-Key`, and
    /// `x-api-key` for the status ping). Without one, authenticated routes answer 401.
    pub fn subscription_key(mut self, key: impl Into<SubscriptionKey>) -> Self {
        self.key = Some(key.into());
        self
    }

    /// Time to establish a connection (default 5 s).
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// Time for a whole request including the response body (default 30 s).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The `User-Agent` header (default `payments-client/<version>`).
    pub fn user_agent(mut self, user_agent: impl Into<String>) -> Self {
        self.user_agent = user_agent.into();
        self
    }

    /// Retry `GET`s and keyed creates on transport failures, 429, 503, 502 and 504 (off by default);
    /// see [`RetryPolicy`]. With retries on, every create carries an `Idempotency-Key`.
    pub fn retries(mut self, policy: RetryPolicy) -> Self {
        self.retry = policy;
        self
    }

    /// Builds the client.
    ///
    /// # Errors
    /// [`Error::Config`] when the base URL does not parse or is not `http(s)`, or the user agent is not a
    /// valid header value; [`Error::Transport`] when the TLS backend cannot be initialised.
    pub fn build(self) -> Result<Client, Error> {
        let base_url = parse_base_url(&self.base_url)?;
        let user_agent = reqwest::header::HeaderValue::from_str(&self.user_agent).map_err(|_| {
            Error::Config(format!(
                "user agent {:?} is not a valid header value",
                self.user_agent
            ))
        })?;
        if let Some(key) = &self.key {
            reqwest::header::HeaderValue::from_str(key.expose())
                .map_err(|_| Error::Config("the subscription key is not a valid header value".to_owned()))?;
        }
        let http = reqwest::Client::builder()
            .connect_timeout(self.connect_timeout)
            .timeout(self.timeout)
            .user_agent(user_agent)
            .build()?;
        Ok(Client::from_parts(http, base_url, self.key, self.retry))
    }
}

/// Parses the base URL and makes sure it ends with `/`, so that joining `api/...` keeps any path prefix.
fn parse_base_url(text: &str) -> Result<Url, Error> {
    let mut url = Url::parse(text).map_err(|err| Error::Config(format!("base URL {text:?}: {err}")))?;
    if !matches!(url.scheme(), "http" | "https") || url.cannot_be_a_base() {
        return Err(Error::Config(format!("base URL {text:?} is not an http(s) URL")));
    }
    if !url.path().ends_with('/') {
        let path = format!("{}/", url.path());
        url.set_path(&path);
    }
    url.set_query(None);
    url.set_fragment(None);
    Ok(url)
}

#[cfg(test)]
mod tests {
    use super::parse_base_url;

    #[test]
    fn a_path_prefix_is_kept_when_joining_routes() {
        let base = parse_base_url("https://gw.example.com/payments").unwrap();
        assert_eq!(
            base.join("api/inventory").unwrap().as_str(),
            "https://gw.example.com/payments/api/inventory"
        );
        let root = parse_base_url("http://127.0.0.1:8080").unwrap();
        assert_eq!(
            root.join("healthz").unwrap().as_str(),
            "http://127.0.0.1:8080/healthz"
        );
    }

    #[test]
    fn non_http_base_urls_are_refused() {
        assert!(parse_base_url("ftp://example.com").is_err());
        assert!(parse_base_url("not a url").is_err());
    }
}
