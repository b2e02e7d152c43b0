//! Settings from the environment: which key verifies deliveries, and where to listen.

use std::fmt;
use std::net::SocketAddr;

use webhook_verify::{ApiKey, KeyError, Verifier, WebhookSecret};

const DEFAULT_LISTEN: &str = "127.0.0.1:4000";

/// What the receiver needs to start.
#[derive(Debug)]
pub(crate) struct Config {
    pub(crate) verifier: Verifier,
    pub(crate) listen: SocketAddr,
}

/// A setting that is missing or unusable.
#[derive(Debug)]
pub(crate) enum ConfigError {
    MissingKey,
    BadKey { var: &'static str, reason: KeyError },
    BadListen(String),
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::MissingKey => f.write_str("set MERCHANT_API_KEY (or MERCHANT_WEBHOOK_SECRET=whsec_...)"),
            Self::BadKey { var, reason } => write!(f, "{var}: {reason}"),
            Self::BadListen(value) => write!(f, "LISTEN={value:?} is not an address like {DEFAULT_LISTEN}"),
        }
    }
}

impl Config {
    /// Reads `MERCHANT_WEBHOOK_SECRET` (Standard Webhooks, preferred when set) or `MERCHANT_API_KEY`
    /// (X-Service-Signature), the optional `MERCHANT_API_KEY_PREVIOUS` (accepted too, during a key rotation),
    /// and `LISTEN`.
    pub(crate) fn from_env() -> Result<Self, ConfigError> {
        Ok(Self {
            verifier: verifier_from_env()?,
            listen: listen_from_env()?,
        })
    }
}

fn verifier_from_env() -> Result<Verifier, ConfigError> {
    if let Some(secret) = var("MERCHANT_WEBHOOK_SECRET") {
        let secret = WebhookSecret::new(secret).map_err(|reason| ConfigError::BadKey {
            var: "MERCHANT_WEBHOOK_SECRET",
            reason,
        })?;
        return Ok(Verifier::standard_webhooks(secret));
    }
    let mut keys = Vec::new();
    for name in ["MERCHANT_API_KEY", "MERCHANT_API_KEY_PREVIOUS"] {
        if let Some(key) = var(name) {
            keys.push(ApiKey::new(key).map_err(|reason| ConfigError::BadKey { var: name, reason })?);
        }
    }
    if var("MERCHANT_API_KEY").is_none() {
        return Err(ConfigError::MissingKey);
    }
    Verifier::from_api_keys(keys).map_err(|_| ConfigError::MissingKey)
}

fn listen_from_env() -> Result<SocketAddr, ConfigError> {
    let listen = var("LISTEN").unwrap_or_else(|| DEFAULT_LISTEN.to_owned());
    listen.parse().map_err(|_| ConfigError::BadListen(listen))
}

/// A set, non-empty environment variable.
fn var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|value| !value.is_empty())
}
