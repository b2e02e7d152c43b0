//! One webhook attempt over HTTP. Outside development mode the target must be HTTPS and every address its
//! name resolves to must be public; the connection then goes to the checked address (pinned), so a DNS answer
//! that changes between the check and the connect (rebinding) cannot reach an internal host.

use std::net::SocketAddr;
use std::time::Duration;

use reqwest::header::{CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue, USER_AGENT};
use url::Host;

use crate::domain::receipt::{TargetError, TargetPolicy};

const USER_AGENT_VALUE: &str = "Service-Webhook/1.0";

/// A signed request ready to send.
#[derive(Debug, Clone)]
pub(super) struct Outgoing {
    pub(super) url: String,
    pub(super) headers: Vec<(&'static str, String)>,
    pub(super) body: Vec<u8>,
}

/// Sends one attempt: `Ok(status)` for any HTTP answer, `Err(reason)` for refusals, network errors and
/// timeouts.
pub(super) async fn send(policy: TargetPolicy, timeout: Duration, outgoing: Outgoing) -> Result<u16, String> {
    let url = policy
        .check(&outgoing.url)
        .map_err(|error| format!("target refused: {error}"))?;
    let mut builder = reqwest::Client::builder()
        .timeout(timeout)
        .connect_timeout(timeout)
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy();
    let port = url.port_or_known_default().unwrap_or(443);
    match url.host() {
        Some(Host::Domain(name)) => {
            let address = resolve_checked(policy, name, port, timeout).await?;
            builder = builder.resolve(name, address);
        }
        Some(Host::Ipv4(_) | Host::Ipv6(_)) => {} // literal addresses were checked by `policy.check`
        None => return Err(format!("target refused: {}", TargetError::Malformed)),
    }
    let client = builder.build().map_err(|error| format!("http client: {error}"))?;
    let mut headers = HeaderMap::new();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    headers.insert(USER_AGENT, HeaderValue::from_static(USER_AGENT_VALUE));
    for (name, value) in outgoing.headers {
        let value = HeaderValue::from_str(&value).map_err(|error| format!("header {name}: {error}"))?;
        headers.insert(HeaderName::from_static(name), value);
    }
    let response = client
        .post(url)
        .headers(headers)
        .body(outgoing.body)
        .send()
        .await
        .map_err(|error| describe(&error))?;
    Ok(response.status().as_u16())
}

/// Resolves `name` and refuses it unless every address is allowed; returns the first.
async fn resolve_checked(
    policy: TargetPolicy,
    name: &str,
    port: u16,
    timeout: Duration,
) -> Result<SocketAddr, String> {
    let lookup = tokio::time::timeout(timeout, tokio::net::lookup_host((name, port)))
        .await
        .map_err(|_| "dns lookup timed out".to_owned())?
        .map_err(|error| format!("dns lookup failed: {error}"))?;
    let addresses: Vec<SocketAddr> = lookup.collect();
    if let Some(internal) = addresses
        .iter()
        .find(|address| !policy.allows_address(address.ip()))
    {
        return Err(format!(
            "target refused: {name} resolves to {} ({})",
            internal.ip(),
            TargetError::InternalAddress
        ));
    }
    addresses
        .first()
        .copied()
        .ok_or_else(|| format!("target refused: {}", TargetError::Unresolved))
}

fn describe(error: &reqwest::Error) -> String {
    if error.is_timeout() {
        "timed out".to_owned()
    } else if error.is_connect() {
        format!("connection failed: {error}")
    } else {
        format!("request failed: {error}")
    }
}
