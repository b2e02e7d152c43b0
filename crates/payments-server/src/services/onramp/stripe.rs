//! Stripe's fiat-to-crypto onramp: `POST /v1/crypto/onramp_sessions`, form-encoded, the secret key as a
//! Bearer token. The session's `redirect_url` is the Stripe-hosted onramp page the buyer is sent to.
//!
//! Request and answer shapes as documented at <https://docs.stripe.com/api/crypto/onramp_sessions/create>
//! and <https://docs.stripe.com/api/crypto/onramp_sessions/object>; the hosted page at
//! <https://stripe.com/docs/crypto/standalone-hosted-onramp>; errors at <https://docs.stripe.com/api/errors>.
//! Stripe's create call takes no return URL, so the receipt's redirect URL is not passed (the spec lets
//! providers without redirect support ignore it).

use async_trait::async_trait;
use payments_core::OnrampProviderKind;
use reqwest::header::AUTHORIZATION;
use serde::Deserialize;
use url::Url;

use crate::secret::Secret;
use crate::services::onramp::provider::{MintedSession, OnrampOrder, OnrampProvider, ProviderError};

const SESSIONS_PATH: &str = "/v1/crypto/onramp_sessions";

/// Creates Stripe crypto onramp sessions.
#[derive(Debug)]
pub(crate) struct StripeOnramp {
    pub(crate) client: reqwest::Client,
    pub(crate) api_url: Url,
    pub(crate) secret_key: Secret,
}

/// The parts of the CryptoOnrampSession object the server uses.
#[derive(Debug, Deserialize)]
struct SessionObject {
    id: Option<String>,
    redirect_url: Option<String>,
}

/// `{"error": {"type", "code", "message", "param"}}`.
#[derive(Debug, Deserialize)]
struct ErrorBody {
    error: Option<ErrorObject>,
}

#[derive(Debug, Deserialize)]
struct ErrorObject {
    code: Option<String>,
    #[serde(rename = "type")]
    kind: Option<String>,
    message: Option<String>,
}

impl StripeOnramp {
    /// The form fields of a session locked to `order`: one currency, one network, one wallet address the
    /// buyer cannot change, and exactly the amount due in the token (`destination_amount`, a decimal of the
    /// token's own unit: `12.65`, never a float).
    fn form(order: &OnrampOrder) -> Vec<(String, String)> {
        let currency = order.token_symbol.to_ascii_lowercase();
        let mut form = vec![
            (
                format!("wallet_addresses[{}]", order.network),
                order.address.to_checksum(),
            ),
            ("lock_wallet_address".to_owned(), "true".to_owned()),
            ("destination_currency".to_owned(), currency.clone()),
            ("destination_currencies[0]".to_owned(), currency),
            ("destination_network".to_owned(), order.network.to_owned()),
            ("destination_networks[0]".to_owned(), order.network.to_owned()),
            ("destination_amount".to_owned(), order.amount.to_usd_exact()),
            ("metadata[receipt_id]".to_owned(), order.receipt_id.clone()),
        ];
        if let Some(ip) = order.client_ip {
            form.push(("customer_ip_address".to_owned(), ip.to_string()));
        }
        form
    }
}

#[async_trait]
impl OnrampProvider for StripeOnramp {
    fn kind(&self) -> OnrampProviderKind {
        OnrampProviderKind::Stripe
    }

    async fn create_session(&self, order: &OnrampOrder) -> Result<MintedSession, ProviderError> {
        let url = self
            .api_url
            .join(SESSIONS_PATH)
            .map_err(|error| ProviderError::Malformed(error.to_string()))?;
        let response = self
            .client
            .post(url)
            .header(AUTHORIZATION, format!("Bearer {}", self.secret_key.expose()))
            .form(&StripeOnramp::form(order))
            .send()
            .await
            .map_err(|error| ProviderError::transport(&error))?;
        let status = response.status();
        let body = response
            .bytes()
            .await
            .map_err(|error| ProviderError::transport(&error))?;
        if !status.is_success() {
            let error = serde_json::from_slice::<ErrorBody>(&body)
                .ok()
                .and_then(|body| body.error);
            let code = error
                .as_ref()
                .and_then(|e| e.code.as_deref().or(e.kind.as_deref()));
            let message = error.as_ref().and_then(|e| e.message.as_deref());
            return Err(ProviderError::refused(status.as_u16(), code, message));
        }
        let session: SessionObject = serde_json::from_slice(&body)
            .map_err(|error| ProviderError::Malformed(format!("the session object: {error}")))?;
        match (session.id, session.redirect_url) {
            (Some(id), Some(url)) if !id.is_empty() && url.starts_with("https://") => {
                Ok(MintedSession { id, url })
            }
            _ => Err(ProviderError::Malformed(
                "the session has no id or no hosted redirect_url".to_owned(),
            )),
        }
    }
}
