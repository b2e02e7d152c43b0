//! The admin caller: a `cb_auth_token` session cookie, plus CSRF and Origin checks on writes.
//!
//! Any admin handler starts with one call:
//!
//! ```text
//! let admin = ctx.admin_session(true).await?;      // true on writes: CSRF + Origin checked
//! let wallet = admin.acting_for(request.wallet)?;   // a body `wallet` of another merchant: 403
//! ```
//!
//! Failures: no cookie, a bad or expired token, or a logged-out/revoked session -> 401 `unauthorized`
//! ("missing or expired session"), whatever subscription key is also sent; a missing or wrong
//! `x-csrf-token`, or an `Origin` other than the configured base URL's -> 403 `forbidden`. Both happen
//! before the handler reads its body, so nothing is written.

use hyper::header::{COOKIE, HeaderValue, ORIGIN, SET_COOKIE};
use payments_core::Wallet;

use crate::domain::admin::{Role, SessionId};
use crate::http::context::Ctx;
use crate::http::error::ApiError;
use crate::http::rate_limit::RateKey;
use crate::http::response::HttpResponse;
use crate::secret::Secret;
use crate::services::admin_auth::SESSION_TTL_SECS;

/// Name of the session cookie.
pub(crate) const SESSION_COOKIE: &str = "cb_auth_token";
/// Header carrying the session's CSRF token (double submit: the login response hands it out).
pub(crate) const CSRF_HEADER: &str = "x-csrf-token";

/// A signed-in admin caller, from [`Ctx::admin_session`].
#[derive(Debug, Clone)]
pub(crate) struct AdminSession {
    /// The wallet that signed in.
    pub(crate) wallet: Wallet,
    /// `merchant` always; `platform_admin` when the config names the wallet.
    pub(crate) roles: Vec<Role>,
    /// The server-side session (the JWT's `sid`).
    pub(crate) session_id: SessionId,
    /// When the session ends, unix ms.
    pub(crate) expires_at_ms: i64,
}

impl AdminSession {
    pub(crate) fn is_platform_admin(&self) -> bool {
        self.roles.contains(&Role::PlatformAdmin)
    }

    /// The merchant a write acts on: the body's `wallet` when it names one, else the caller's own.
    /// Naming another merchant is allowed to platform admins only.
    ///
    /// # Errors
    /// 403 `forbidden` when a merchant names another wallet.
    pub(crate) fn acting_for(&self, requested: Option<Wallet>) -> Result<Wallet, ApiError> {
        match requested {
            Some(wallet) if wallet != self.wallet && !self.is_platform_admin() => Err(ApiError::Forbidden {
                message: format!("a merchant session may act only on its own wallet, not {wallet}"),
            }),
            Some(wallet) => Ok(wallet),
            None => Ok(self.wallet),
        }
    }
}

impl Ctx<'_> {
    /// Resolves the admin session from the cookie; with `require_csrf` (every admin write) also checks
    /// the `x-csrf-token` header against the session and the `Origin` header, when present, against the
    /// configured base URL. Subscription keys are never looked at.
    pub(crate) async fn admin_session(&self, require_csrf: bool) -> Result<AdminSession, ApiError> {
        let live = self
            .state
            .services
            .admin_auth
            .resolve(self.session_cookie())
            .await?;
        // One quota per wallet across its sessions, the same size as a subscription key's.
        self.count_against(&self.state.rate_limits, &RateKey::AdminWallet(live.stored.wallet))?;
        if require_csrf {
            self.check_origin()?;
            let presented = self
                .headers()
                .get(CSRF_HEADER)
                .and_then(|value| value.to_str().ok())
                .unwrap_or("");
            if presented.is_empty() || !live.stored.csrf_hash.matches(presented) {
                return Err(ApiError::Forbidden {
                    message: format!("missing or invalid {CSRF_HEADER} header"),
                });
            }
        }
        Ok(AdminSession {
            wallet: live.stored.wallet,
            roles: live.roles,
            session_id: live.stored.id,
            expires_at_ms: live.stored.expires_at_ms,
        })
    }

    /// A signed-in wallet writing about itself as a plain user (`/api/users/me`, heartbeats, follows): any
    /// wallet may sign in, and these writes take the same session, CSRF and Origin checks as every admin
    /// write. Roles are not looked at: a user acts only on its own wallet.
    pub(crate) async fn user_session(&self) -> Result<Wallet, ApiError> {
        Ok(self.admin_session(true).await?.wallet)
    }

    /// Whether the request carries a session cookie (valid or not).
    pub(crate) fn has_session_cookie(&self) -> bool {
        self.session_cookie().is_some()
    }

    /// The `cb_auth_token` value from the `Cookie` header(s).
    fn session_cookie(&self) -> Option<&str> {
        self.headers()
            .get_all(COOKIE)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|header| header.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .find(|(name, _)| *name == SESSION_COOKIE)
            .map(|(_, value)| value)
    }

    fn check_origin(&self) -> Result<(), ApiError> {
        let Some(origin) = self.headers().get(ORIGIN) else {
            return Ok(());
        };
        let expected = self.state.config.base_url.origin().ascii_serialization();
        if origin.to_str().is_ok_and(|origin| origin == expected) {
            Ok(())
        } else {
            Err(ApiError::Forbidden {
                message: format!("cross-origin admin writes are refused; expected Origin {expected}"),
            })
        }
    }
}

/// Sets the session cookie (HttpOnly, SameSite=Lax, Path=/, Secure unless in development mode).
pub(crate) fn set_session_cookie(response: &mut HttpResponse, token: &Secret, dev_mode: bool) {
    let secure = if dev_mode { "" } else { "; Secure" };
    let cookie = format!(
        "{SESSION_COOKIE}={}; HttpOnly; SameSite=Lax; Path=/; Max-Age={SESSION_TTL_SECS}{secure}",
        token.expose()
    );
    insert_cookie(response, &cookie);
}

/// Clears the session cookie in the browser (the session row is already ended server-side).
pub(crate) fn clear_session_cookie(response: &mut HttpResponse, dev_mode: bool) {
    let secure = if dev_mode { "" } else { "; Secure" };
    let cookie = format!("{SESSION_COOKIE}=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0{secure}");
    insert_cookie(response, &cookie);
}

fn insert_cookie(response: &mut HttpResponse, cookie: &str) {
    // A JWT is base64url with dots, always a valid header value; stay total anyway.
    if let Ok(value) = HeaderValue::from_str(cookie) {
        response.headers_mut().insert(SET_COOKIE, value);
    }
}
