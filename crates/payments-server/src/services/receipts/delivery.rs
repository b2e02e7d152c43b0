//! Webhook attempts over HTTP. Outside development mode the target must be HTTPS and every address its name
//! resolves to must be public.

use std::fmt;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use crate::domain::receipt::{TargetError, TargetPolicy};
use crate::services::receipts::attempt_error::AttemptError;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use reqwest::header::{CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue, USER_AGENT};

const USER_AGENT_VALUE: &str = "Service-Webhook/1.0";

/// A signed request ready to send.
#[derive(Debug, Clone)]
pub(super) struct Outgoing {
    pub(super) url: String,
    pub(super) headers: Vec<(&'static str, String)>,
    pub(super) body: Vec<u8>,
}

/// Sends webhook attempts through one HTTP client, so connections to a merchant's endpoint are reused.
///
/// Host names are resolved by [`CheckedResolver`], which refuses names with any internal address and hands
/// the client only checked addresses (pinned), so a DNS answer that changes between the check and the connect
/// (rebinding) cannot reach an internal host. Literal addresses never reach a resolver; `TargetPolicy::check`
/// refuses the internal ones first.
#[derive(Debug, Clone)]
pub(super) struct WebhookSender {
    policy: TargetPolicy,
    client: reqwest::Client,
}

impl WebhookSender {
    /// # Errors
    /// When the TLS backend cannot start.
    pub(super) fn new(policy: TargetPolicy, timeout: Duration) -> Result<Self, reqwest::Error> {
        let client = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(timeout)
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .dns_resolver(Arc::new(CheckedResolver { policy, timeout }))
            .build()?;
        Ok(WebhookSender { policy, client })
    }

    /// Sends one attempt: `Ok(status)` for any HTTP answer, `Err(why)` for refusals, network errors and
    /// timeouts.
    pub(super) async fn send(&self, outgoing: Outgoing) -> Result<u16, AttemptError> {
        let url = self.policy.check(&outgoing.url).map_err(refused)?;
        if url.host().is_none() {
            return Err(refused(TargetError::Malformed));
        }
        let mut headers = HeaderMap::new();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        headers.insert(USER_AGENT, HeaderValue::from_static(USER_AGENT_VALUE));
        for (name, value) in outgoing.headers {
            let value = HeaderValue::from_str(&value).map_err(|error| AttemptError::BadHeader {
                name,
                reason: error.to_string(),
            })?;
            headers.insert(HeaderName::from_static(name), value);
        }
        let response = self
            .client
            .post(url)
            .headers(headers)
            .body(outgoing.body)
            .send()
            .await
            .map_err(describe)?;
        Ok(response.status().as_u16())
    }
}

fn refused(error: TargetError) -> AttemptError {
    AttemptError::TargetRefused {
        reason: error.to_string(),
    }
}

/// A name whose resolution the policy refused; found again in the request error's source chain.
#[derive(Debug)]
struct TargetRefused(String);

impl fmt::Display for TargetRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "target refused: {}", self.0)
    }
}

impl std::error::Error for TargetRefused {}

/// The system resolver, then the policy over every address of the answer.
#[derive(Debug)]
struct CheckedResolver {
    policy: TargetPolicy,
    timeout: Duration,
}

impl Resolve for CheckedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let (policy, timeout) = (self.policy, self.timeout);
        Box::pin(async move {
            let addresses = resolve_checked(policy, name.as_str(), timeout).await?;
            let addresses: Addrs = Box::new(addresses.into_iter());
            Ok(addresses)
        })
    }
}

/// Resolves `name` and refuses it unless every address is allowed. The port is the URL's; the client sets it.
async fn resolve_checked(
    policy: TargetPolicy,
    name: &str,
    timeout: Duration,
) -> Result<Vec<SocketAddr>, Box<dyn std::error::Error + Send + Sync>> {
    let lookup = tokio::time::timeout(timeout, tokio::net::lookup_host((name, 0)))
        .await
        .map_err(|_| "dns lookup timed out".to_owned())?
        .map_err(|error| format!("dns lookup failed: {error}"))?;
    let addresses: Vec<SocketAddr> = lookup.collect();
    if let Some(internal) = addresses
        .iter()
        .find(|address| !policy.allows_address(address.ip()))
    {
        let reason = format!(
            "{name} resolves to {} ({})",
            internal.ip(),
            TargetError::InternalAddress
        );
        return Err(Box::new(TargetRefused(reason)));
    }
    if addresses.is_empty() {
        return Err(Box::new(TargetRefused(TargetError::Unresolved.to_string())));
    }
    Ok(addresses)
}

/// The attempt's error as stored and logged: never the URL, whose query string or user info may carry a
/// receiver's secret token (reqwest's message would include it).
fn describe(error: reqwest::Error) -> AttemptError {
    let error = error.without_url();
    let mut source = std::error::Error::source(&error);
    while let Some(cause) = source {
        if let Some(TargetRefused(reason)) = cause.downcast_ref::<TargetRefused>() {
            return AttemptError::TargetRefused {
                reason: reason.clone(),
            };
        }
        source = cause.source();
    }
    if error.is_timeout() {
        AttemptError::TimedOut
    } else if error.is_connect() {
        AttemptError::ConnectionFailed {
            reason: error.to_string(),
        }
    } else {
        AttemptError::RequestFailed {
            reason: error.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outgoing(url: &str) -> Outgoing {
        Outgoing {
            url: url.to_owned(),
            headers: Vec::new(),
            body: b"{}".to_vec(),
        }
    }

    #[tokio::test]
    async fn the_resolver_refuses_a_name_with_an_internal_address_outside_dev_mode() {
        let production = TargetPolicy { dev_mode: false };
        let dev = TargetPolicy { dev_mode: true };

        let refused = resolve_checked(production, "localhost", Duration::from_secs(2))
            .await
            .unwrap_err();
        let allowed = resolve_checked(dev, "localhost", Duration::from_secs(2))
            .await
            .unwrap();

        assert!(
            refused
                .to_string()
                .starts_with("target refused: localhost resolves to "),
            "{refused}"
        );
        assert!(
            allowed.iter().all(|address| address.ip().is_loopback()),
            "{allowed:?}"
        );
    }

    #[tokio::test]
    async fn a_production_sender_refuses_plain_http_before_connecting() {
        let sender = WebhookSender::new(TargetPolicy { dev_mode: false }, Duration::from_secs(2)).unwrap();

        let refused = sender
            .send(outgoing("http://shop.example.com/hook"))
            .await
            .unwrap_err();

        assert!(matches!(refused, AttemptError::TargetRefused { .. }), "{refused}");
        assert!(
            refused.to_string().starts_with("target refused: must use https"),
            "{refused}"
        );
    }

    #[tokio::test]
    async fn a_failed_attempt_never_reports_the_urls_token_or_credentials() {
        // Nothing listens on port 1: the connection is refused.
        let sender = WebhookSender::new(TargetPolicy { dev_mode: true }, Duration::from_secs(2)).unwrap();

        let failed = sender
            .send(outgoing("http://127.0.0.1:1/hook?token=s3cret-token"))
            .await
            .unwrap_err()
            .to_string();

        assert!(failed.starts_with("connection failed"), "{failed}");
        assert!(
            !failed.contains("s3cret-token") && !failed.contains("/hook"),
            "{failed}"
        );
    }
}
