//! Admin sign-in: single-use nonces, the EIP-712 login, and the server-side sessions behind the
//! `cb_auth_token` cookie (logout and platform-admin revocation end them at once).

use payments_core::{AdminLogin, LoginError, Wallet};
use thiserror::Error;

use std::sync::Arc;

use crate::domain::admin::{
    CsrfHash, NewAdminSession, Role, SessionId, StoredAdminSession, random_token, roles_of,
};
use crate::runtime::clock::Clock;
use crate::secret::Secret;
use crate::services::session_token::{self, SessionClaims};
use crate::store::{SessionRepository, StoreError};

/// How long a sign-in nonce can be used.
pub(crate) const NONCE_TTL_MS: i64 = 5 * 60 * 1000;
/// How long a session lasts (also the cookie's Max-Age): 12 hours, within the 24 h ceiling.
pub(crate) const SESSION_TTL_SECS: i64 = 12 * 60 * 60;

#[derive(Debug, Error)]
pub(crate) enum AdminAuthError {
    #[error("missing or expired session")]
    NoSession,
    #[error("the sign-in nonce is unknown, already used or expired; request a new one")]
    NonceRejected,
    #[error("sign-in refused: {0}")]
    Login(#[from] LoginError),
    #[error("only a platform admin may do this")]
    NotPlatformAdmin,
    #[error("could not issue the session token: {0}")]
    Token(#[from] jsonwebtoken::errors::Error),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A sign-in as posted: the signed message and its 65-byte hex signature.
#[derive(Debug, Clone)]
pub(crate) struct LoginAttempt {
    pub(crate) login: AdminLogin,
    pub(crate) signature: String,
}

/// A new session: the cookie value and the CSRF token are shown to the caller this once.
#[derive(Debug)]
pub(crate) struct SessionGranted {
    pub(crate) token: Secret,
    pub(crate) csrf_token: Secret,
    pub(crate) wallet: Wallet,
    pub(crate) roles: Vec<Role>,
}

/// A live session resolved from a cookie.
#[derive(Debug, Clone)]
pub(crate) struct LiveSession {
    pub(crate) stored: StoredAdminSession,
    pub(crate) roles: Vec<Role>,
}

/// Admin sign-in and sessions over the session repository.
#[derive(Debug, Clone)]
pub(crate) struct AdminAuthService {
    pub(crate) sessions: Arc<dyn SessionRepository>,
    pub(crate) clock: Arc<dyn Clock>,
    /// Chain id of the sign-in message's EIP-712 domain.
    pub(crate) chain_id: u64,
    pub(crate) jwt_secret: Secret,
    pub(crate) platform_admins: Vec<Wallet>,
}

impl AdminAuthService {
    pub(crate) async fn issue_nonce(&self, wallet: Wallet) -> Result<Secret, StoreError> {
        let nonce = random_token();
        let now_ms = self.clock.now_ms();
        self.sessions
            .issue_nonce(wallet, nonce.expose(), now_ms + NONCE_TTL_MS, now_ms)
            .await?;
        Ok(nonce)
    }

    /// Verifies the signature and freshness first (pure), then consumes the nonce and opens the session in
    /// one store transaction, so a nonce yields at most one session.
    pub(crate) async fn login(&self, attempt: LoginAttempt) -> Result<SessionGranted, AdminAuthError> {
        let now_ms = self.clock.now_ms();
        let now_secs = u64::try_from(now_ms / 1000).unwrap_or(0);
        let wallet = attempt
            .login
            .verify(&attempt.signature, self.chain_id, now_secs)?;
        let csrf_token = random_token();
        let session = NewAdminSession {
            id: SessionId::generate(),
            wallet,
            csrf_hash: CsrfHash::of(csrf_token.expose()),
            created_at_ms: now_ms,
            expires_at_ms: now_ms + SESSION_TTL_SECS * 1000,
        };
        let claims = SessionClaims {
            sid: session.id.as_str().to_owned(),
            wallet,
            iat: now_ms / 1000,
            exp: session.expires_at_ms / 1000,
        };
        let token = session_token::encode(&self.jwt_secret, &claims)?;
        let opened = self.sessions.open_session(&attempt.login.nonce, &session).await?;
        if !opened {
            return Err(AdminAuthError::NonceRejected);
        }
        Ok(SessionGranted {
            token,
            csrf_token,
            wallet,
            roles: roles_of(wallet, &self.platform_admins),
        })
    }

    /// The live session a cookie names: a valid, unexpired token whose session row is still live.
    pub(crate) async fn resolve(&self, token: Option<&str>) -> Result<LiveSession, AdminAuthError> {
        let now_ms = self.clock.now_ms();
        let claims = token
            .and_then(|token| session_token::decode(&self.jwt_secret, token, now_ms / 1000))
            .ok_or(AdminAuthError::NoSession)?;
        let id = claims.session_id();
        let stored = self
            .sessions
            .fetch_live(&id, now_ms)
            .await?
            .filter(|stored| stored.wallet == claims.wallet)
            .ok_or(AdminAuthError::NoSession)?;
        let roles = roles_of(stored.wallet, &self.platform_admins);
        Ok(LiveSession { stored, roles })
    }

    pub(crate) async fn logout(&self, id: SessionId) -> Result<(), StoreError> {
        self.sessions.end(&id, self.clock.now_ms()).await?;
        Ok(())
    }

    /// Ends every session of `wallet` (a compromised admin token); platform admins only.
    pub(crate) async fn revoke_sessions(
        &self,
        roles: &[Role],
        wallet: Wallet,
    ) -> Result<u64, AdminAuthError> {
        if !roles.contains(&Role::PlatformAdmin) {
            return Err(AdminAuthError::NotPlatformAdmin);
        }
        Ok(self.sessions.revoke_wallet(wallet, self.clock.now_ms()).await?)
    }
}
