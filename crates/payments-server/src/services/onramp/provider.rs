//! The one small trait every card-onramp adapter implements, and what goes in and out of it.

use std::fmt;
use std::net::IpAddr;

use async_trait::async_trait;
use payments_core::{
    OnrampAnswer, OnrampFailure, OnrampProviderKind, TokenAmount, Wallet, classify_onramp_refusal,
};

/// What a session must buy: exactly `amount` of the server's token, delivered to `address` on `network`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OnrampOrder {
    /// The receipt the session pays (the provider's reference/metadata, for reconciliation).
    pub(crate) receipt_id: String,
    /// The amount due, in the token's base units (6 decimals).
    pub(crate) amount: TokenAmount,
    /// The token's symbol as providers name it (`USDC`).
    pub(crate) token_symbol: &'static str,
    /// The provider's name of the server's chain (`base`, `ethereum`, ...).
    pub(crate) network: &'static str,
    /// The receipt's own deposit address: the watcher pays the receipt when the tokens arrive there.
    pub(crate) address: Wallet,
    /// Where the provider sends the buyer back after paying, where it supports one (HTTPS only).
    pub(crate) redirect_url: Option<String>,
    /// The buyer's address, for the provider's region checks.
    pub(crate) client_ip: Option<IpAddr>,
}

/// A session the provider created.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MintedSession {
    /// The provider's id of the session.
    pub(crate) id: String,
    /// The provider's page to send the buyer to.
    pub(crate) url: String,
}

/// Why a provider created no session, as read from its answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ProviderError {
    /// No answer within the timeout, or no connection.
    Unreachable(String),
    /// An HTTP error status with the provider's error code and message, when its body had them.
    Refused {
        status: u16,
        code: Option<String>,
        message: String,
    },
    /// A success status without a usable session in the body.
    Malformed(String),
}

impl ProviderError {
    /// The failure category and `PORTAL_ONRAMP_…` code this means for the buyer (decided in payments-core).
    pub(crate) fn failure(&self) -> OnrampFailure {
        classify_onramp_refusal(match self {
            ProviderError::Unreachable(_) => OnrampAnswer::Unreachable,
            ProviderError::Refused { status, code, .. } => OnrampAnswer::Refused {
                status: *status,
                code: code.as_deref(),
            },
            ProviderError::Malformed(_) => OnrampAnswer::Malformed,
        })
    }

    /// Reads an error status's body: `code` and `message` from wherever the provider puts them.
    pub(crate) fn refused(status: u16, code: Option<&str>, message: Option<&str>) -> ProviderError {
        ProviderError::Refused {
            status,
            code: code.map(str::to_owned),
            message: message.unwrap_or("no message").chars().take(300).collect(),
        }
    }

    /// A transport error: a timeout or a failed connection.
    pub(crate) fn transport(error: &reqwest::Error) -> ProviderError {
        ProviderError::Unreachable(if error.is_timeout() {
            "no answer in time".to_owned()
        } else {
            "connection failed".to_owned()
        })
    }
}

impl fmt::Display for ProviderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProviderError::Unreachable(why) => write!(f, "unreachable: {why}"),
            ProviderError::Refused {
                status,
                code,
                message,
            } => write!(f, "HTTP {status} {}: {message}", code.as_deref().unwrap_or("-")),
            ProviderError::Malformed(why) => write!(f, "unreadable answer: {why}"),
        }
    }
}

/// A card-onramp provider: creates a hosted session that buys exactly what an order says.
#[async_trait]
pub(crate) trait OnrampProvider: Send + Sync + fmt::Debug {
    /// Which provider this is.
    fn kind(&self) -> OnrampProviderKind;

    /// Creates a session for `order`.
    ///
    /// # Errors
    /// [`ProviderError`] when the provider refuses, does not answer, or answers without a session.
    async fn create_session(&self, order: &OnrampOrder) -> Result<MintedSession, ProviderError>;
}
