//! Coinbase Onramp: `POST /platform/v2/onramp/sessions` on the CDP API, JSON, authenticated by a short-lived
//! JWT signed with the CDP Secret API key. The answer's `session.onrampUrl` is a single-use Coinbase-hosted
//! page; its `sessionToken` parameter is the session's id (the API returns no other).
//!
//! Request and answer shapes as documented at
//! <https://docs.cdp.coinbase.com/api-reference/v2/rest-api/onramp/create-an-onramp-session>; the JWT at
//! <https://docs.cdp.coinbase.com/api-reference/authentication> (header `kid` + `nonce`, claims `sub`,
//! `iss: "cdp"`, `nbf`, `exp` two minutes later, `uri: "POST host/path"`).

use std::time::{SystemTime, UNIX_EPOCH};

use async_trait::async_trait;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use payments_core::OnrampProviderKind;
use reqwest::header::AUTHORIZATION;
use serde::{Deserialize, Serialize};
use serde_json::json;
use url::Url;

use crate::runtime::onramp::CdpSigningKey;
use crate::services::onramp::provider::{MintedSession, OnrampOrder, OnrampProvider, ProviderError};

const SESSIONS_PATH: &str = "/platform/v2/onramp/sessions";
/// How long a request's JWT is valid (the CDP SDKs' default).
const JWT_LIFETIME_SECS: u64 = 120;

/// Creates Coinbase Onramp sessions.
#[derive(Debug)]
pub(crate) struct CoinbaseOnramp {
    pub(crate) client: reqwest::Client,
    pub(crate) api_url: Url,
    pub(crate) key_id: String,
    pub(crate) signing_key: CdpSigningKey,
}

/// The documented request body.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct CreateSessionRequest<'a> {
    purchase_currency: &'a str,
    destination_network: &'a str,
    destination_address: String,
    /// The crypto amount (fee-exclusive): the buyer pays the fees on top, the deposit receives exactly this.
    purchase_amount: String,
    payment_currency: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    redirect_url: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    client_ip: Option<String>,
    partner_user_ref: &'a str,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CreateSessionResponse {
    session: Option<SessionBody>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct SessionBody {
    onramp_url: Option<String>,
}

/// `{"errorType", "errorMessage", "correlationId", "errorLink"}`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ErrorBody {
    error_type: Option<String>,
    error_message: Option<String>,
}

impl CoinbaseOnramp {
    /// The Bearer token of one `POST` to `url`, valid from `now_secs` for two minutes.
    fn bearer(&self, url: &Url, now_secs: u64) -> Result<String, ProviderError> {
        let host = match (url.host_str(), url.port()) {
            (Some(host), Some(port)) => format!("{host}:{port}"),
            (Some(host), None) => host.to_owned(),
            (None, _) => return Err(ProviderError::Malformed("the API URL has no host".to_owned())),
        };
        let header = json!({
            "alg": self.signing_key.algorithm,
            "kid": self.key_id,
            "typ": "JWT",
            // A fresh nonce per token: CDP refuses a replayed one.
            "nonce": hex::encode(rand::random::<[u8; 16]>()),
        });
        let claims = json!({
            "sub": self.key_id,
            "iss": "cdp",
            "nbf": now_secs,
            "exp": now_secs + JWT_LIFETIME_SECS,
            "uri": format!("POST {host}{}", url.path()),
        });
        let message = format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(header.to_string()),
            URL_SAFE_NO_PAD.encode(claims.to_string())
        );
        let signature = jsonwebtoken::crypto::sign(
            message.as_bytes(),
            &self.signing_key.encoding_key(),
            self.signing_key.algorithm,
        )
        .map_err(|error| ProviderError::Malformed(format!("signing the CDP token: {error}")))?;
        Ok(format!("{message}.{signature}"))
    }
}

#[async_trait]
impl OnrampProvider for CoinbaseOnramp {
    fn kind(&self) -> OnrampProviderKind {
        OnrampProviderKind::Coinbase
    }

    async fn create_session(&self, order: &OnrampOrder) -> Result<MintedSession, ProviderError> {
        let url = self
            .api_url
            .join(SESSIONS_PATH)
            .map_err(|error| ProviderError::Malformed(error.to_string()))?;
        // The JWT's validity is the provider's clock's business: wall time, not the server's test clock.
        let now_secs = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.as_secs());
        let bearer = self.bearer(&url, now_secs)?;
        let request = CreateSessionRequest {
            purchase_currency: order.token_symbol,
            destination_network: order.network,
            destination_address: order.address.to_checksum(),
            purchase_amount: order.amount.to_usd_exact(),
            payment_currency: "USD",
            redirect_url: order.redirect_url.as_deref(),
            client_ip: order.client_ip.map(|ip| ip.to_string()),
            partner_user_ref: &order.receipt_id,
        };
        let response = self
            .client
            .post(url)
            .header(AUTHORIZATION, format!("Bearer {bearer}"))
            .json(&request)
            .send()
            .await
            .map_err(|error| ProviderError::transport(&error))?;
        let status = response.status();
        let body = response
            .bytes()
            .await
            .map_err(|error| ProviderError::transport(&error))?;
        if !status.is_success() {
            let error = serde_json::from_slice::<ErrorBody>(&body).ok();
            return Err(ProviderError::refused(
                status.as_u16(),
                error.as_ref().and_then(|e| e.error_type.as_deref()),
                error.as_ref().and_then(|e| e.error_message.as_deref()),
            ));
        }
        let answer: CreateSessionResponse = serde_json::from_slice(&body)
            .map_err(|error| ProviderError::Malformed(format!("the session: {error}")))?;
        let onramp_url = answer
            .session
            .and_then(|session| session.onramp_url)
            .filter(|url| url.starts_with("https://"))
            .ok_or_else(|| ProviderError::Malformed("the answer has no https onrampUrl".to_owned()))?;
        let id = Url::parse(&onramp_url)
            .ok()
            .and_then(|parsed| {
                parsed
                    .query_pairs()
                    .find(|(name, _)| name == "sessionToken")
                    .map(|(_, token)| token.into_owned())
            })
            .filter(|token| !token.is_empty())
            .ok_or_else(|| ProviderError::Malformed("the onrampUrl carries no sessionToken".to_owned()))?;
        Ok(MintedSession { id, url: onramp_url })
    }
}
