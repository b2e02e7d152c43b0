//! Admin sign-in and session routes: `GET /api/auth/nonce`, `POST /api/auth/login`, `GET /api/auth/me`,
//! `POST /api/auth/logout` and `POST /api/auth/sessions/revoke`.
//!
//! Signing in takes three steps because the wallet's key may live anywhere (a hardware wallet, a browser
//! extension, a KMS): fetch a nonce with [`Client::admin_nonce`], sign
//! [`AdminLogin::signing_hash`](payments_core::AdminLogin::signing_hash) under the server's chain id
//! ([`Client::site_config`]), then post it with [`Client::admin_login`]. With a local key and the
//! `admin-signing` feature, `Client::sign_in_with_key` does all three.

use payments_core::{AdminLogin, Wallet};
use reqwest::Method;
use serde::{Deserialize, Serialize};

use crate::client::{Auth, Client};
use crate::error::Error;
use crate::response::{correlation_id, read_json};
use crate::session::{AdminRole, AdminSession, session_cookie};

/// `POST /api/auth/login` body: the wallet's signature over the EIP-712
/// `Login(address wallet,string nonce,uint256 issuedAt)` message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct LoginRequest {
    /// The wallet asking for a session.
    pub wallet: Wallet,
    /// The single-use nonce from [`Client::admin_nonce`] (valid 5 minutes).
    pub nonce: String,
    /// When the wallet signed, Unix **seconds**; must be within 5 minutes of the server's clock.
    pub issued_at: u64,
    /// 65-byte `r || s || v` signature, `0x`-prefixed hex.
    pub signature: String,
}

impl LoginRequest {
    /// The request for `login`, signed elsewhere with `signature` over
    /// `login.signing_hash(chain_id)`.
    pub fn new(login: &AdminLogin, signature: impl Into<String>) -> Self {
        LoginRequest {
            wallet: login.wallet,
            nonce: login.nonce.clone(),
            issued_at: login.issued_at_secs,
            signature: signature.into(),
        }
    }
}

/// Who a session belongs to (`GET /api/auth/me`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct AdminIdentity {
    /// The signed-in wallet.
    pub wallet: Wallet,
    /// Its roles.
    pub roles: Vec<AdminRole>,
    /// When the session ends, Unix ms.
    pub expires_at: i64,
}

#[derive(Debug, Deserialize)]
struct NonceReply {
    nonce: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct LoginReply {
    wallet: Wallet,
    #[serde(default)]
    roles: Vec<AdminRole>,
    csrf_token: String,
}

#[derive(Debug, Deserialize)]
struct Acknowledged {}

#[derive(Debug, Deserialize)]
struct RevokeReply {
    revoked: u64,
}

impl Client {
    /// A single-use sign-in nonce for `wallet` (`GET /api/auth/nonce`, no key needed), valid 5 minutes.
    ///
    /// # Errors
    /// [`Error::Api`] (e.g. 429 `rate_limited`); [`Error::Transport`] or [`Error::Decode`] as for every call.
    pub async fn admin_nonce(&self, wallet: Wallet) -> Result<String, Error> {
        let mut url = self.url("api/auth/nonce")?;
        url.query_pairs_mut().append_pair("wallet", &wallet.to_string());
        let reply: NonceReply = self.get_json(url, Auth::None).await?;
        Ok(reply.nonce)
    }

    /// Signs in (`POST /api/auth/login`): the session cookie and CSRF token, as an [`AdminSession`].
    ///
    /// Sent once, never retried: the nonce is consumed by the first attempt that reaches the server.
    ///
    /// # Errors
    /// [`Error::Api`] 401 `unauthorized` for a used or expired nonce, a signature by another key or an
    /// `issuedAt` too far from the server's clock (the message says which); [`Error::Protocol`] when the
    /// answer carries no `cb_auth_token` cookie.
    pub async fn admin_login(&self, login: &LoginRequest) -> Result<AdminSession, Error> {
        let response = self
            .http()
            .post(self.url("api/auth/login")?)
            .json(login)
            .send()
            .await?;
        let status = response.status().as_u16();
        let cookie = session_cookie(response.headers());
        let correlation = correlation_id(response.headers());
        let reply: LoginReply = read_json(response).await?;
        let protocol = |message: String| Error::Protocol {
            status,
            message,
            correlation_id: correlation.clone(),
        };
        let token = cookie.ok_or_else(|| protocol("the sign-in set no cb_auth_token cookie".to_owned()))?;
        AdminSession::from_tokens(reply.wallet, reply.roles, token, reply.csrf_token)
            .map_err(|error| protocol(format!("the sign-in returned an unusable session: {error}")))
    }

    /// Who `session` belongs to and when it ends (`GET /api/auth/me`); a cheap check that it is live.
    ///
    /// # Errors
    /// [`Error::Api`] 401 `unauthorized` when the session is expired or ended.
    pub async fn admin_me(&self, session: &AdminSession) -> Result<AdminIdentity, Error> {
        let request = self.admin_request(session, Method::GET, "api/auth/me")?;
        self.send_json(request).await
    }

    /// Ends `session` server-side (`POST /api/auth/logout`): its cookie stops working at once.
    ///
    /// # Errors
    /// [`Error::Api`] 401 `unauthorized` when it already ended; 403 `forbidden` for a wrong CSRF token.
    pub async fn admin_logout(&self, session: &AdminSession) -> Result<(), Error> {
        let request = self.admin_request(session, Method::POST, "api/auth/logout")?;
        let _: Acknowledged = self.send_json(request).await?;
        Ok(())
    }

    /// Ends every live session of `wallet` (`POST /api/auth/sessions/revoke`, platform admins only), e.g.
    /// after a token was stolen; returns how many were ended.
    ///
    /// # Errors
    /// [`Error::Api`] 403 `forbidden` when `session` is not a platform admin's.
    pub async fn revoke_admin_sessions(&self, session: &AdminSession, wallet: Wallet) -> Result<u64, Error> {
        let request = self
            .admin_request(session, Method::POST, "api/auth/sessions/revoke")?
            .json(&serde_json::json!({ "wallet": wallet }));
        let reply: RevokeReply = self.send_json(request).await?;
        Ok(reply.revoked)
    }
}
