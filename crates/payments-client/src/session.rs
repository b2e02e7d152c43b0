//! The admin session: what a sign-in hands out and how admin requests carry it.
//!
//! The server identifies an admin by the `cb_auth_token` cookie and guards every admin write with a
//! double-submit CSRF token (`x-csrf-token`). This client keeps no cookie jar: the session is an explicit
//! value passed to each admin method, so one [`Client`] can act for several admins and a session can be
//! stored and restored ([`AdminSession::from_tokens`]). No `Origin` header is sent: the server checks it
//! only when present, and a non-browser client has no origin to claim.

use std::fmt;

use payments_core::Wallet;
use reqwest::header::{COOKIE, HeaderMap, HeaderValue, SET_COOKIE};
use reqwest::{Method, RequestBuilder};
use serde::{Deserialize, Serialize};

use crate::client::Client;
use crate::error::Error;

/// Name of the session cookie the sign-in sets.
pub(crate) const SESSION_COOKIE: &str = "cb_auth_token";
/// Header carrying the session's CSRF token on admin writes.
pub(crate) const CSRF_HEADER: &str = "x-csrf-token";

/// What a signed-in wallet may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum AdminRole {
    /// Acts on its own wallet (every wallet is a merchant of itself).
    Merchant,
    /// Named in the server's configuration: may act for any merchant and revoke sessions.
    PlatformAdmin,
    /// A role this version of the client does not know.
    #[serde(other)]
    Unknown,
}

/// A signed-in admin: the session cookie and CSRF token from `POST /api/auth/login`.
///
/// Pass it to the admin methods ([`Client::deploy_split`], [`Client::refund_receipt`], ...). Both tokens
/// are bearer credentials, so `Debug` prints `[redacted]` for them and they are sent as sensitive headers
/// (kept out of HTTP debug logs); read them deliberately with [`AdminSession::expose_session_token`] and
/// [`AdminSession::expose_csrf_token`]. A session lasts 12 hours unless ended by
/// [`Client::admin_logout`], a revocation or a server restart in development mode.
#[derive(Clone)]
pub struct AdminSession {
    wallet: Wallet,
    roles: Vec<AdminRole>,
    session_token: String,
    csrf_token: String,
}

impl AdminSession {
    /// Restores a session from its parts (e.g. stored by an earlier run).
    ///
    /// # Errors
    /// [`Error::Config`] when a token is empty or cannot be sent as a header value.
    pub fn from_tokens(
        wallet: Wallet,
        roles: Vec<AdminRole>,
        session_token: impl Into<String>,
        csrf_token: impl Into<String>,
    ) -> Result<Self, Error> {
        let session = AdminSession {
            wallet,
            roles,
            session_token: session_token.into(),
            csrf_token: csrf_token.into(),
        };
        // Checked once here so that building a request from the session cannot fail later. A `;` or
        // space would end the cookie early and send a different token than the one stored.
        let token = &session.session_token;
        if token.is_empty() || token.contains([';', ' ']) || session.csrf_token.is_empty() {
            return Err(Error::Config(
                "the session or CSRF token is empty or malformed".to_owned(),
            ));
        }
        session.cookie_header()?;
        session.csrf_header()?;
        Ok(session)
    }

    /// The wallet that signed in.
    pub fn wallet(&self) -> Wallet {
        self.wallet
    }

    /// The roles the server granted at sign-in.
    pub fn roles(&self) -> &[AdminRole] {
        &self.roles
    }

    /// Whether the wallet may act for other merchants.
    pub fn is_platform_admin(&self) -> bool {
        self.roles.contains(&AdminRole::PlatformAdmin)
    }

    /// The value of the `cb_auth_token` cookie (a JWT), for storing the session.
    pub fn expose_session_token(&self) -> &str {
        &self.session_token
    }

    /// The CSRF token sent as `x-csrf-token` on admin writes.
    pub fn expose_csrf_token(&self) -> &str {
        &self.csrf_token
    }

    fn cookie_header(&self) -> Result<HeaderValue, Error> {
        sensitive(
            &format!("{SESSION_COOKIE}={}", self.session_token),
            "session token",
        )
    }

    fn csrf_header(&self) -> Result<HeaderValue, Error> {
        sensitive(&self.csrf_token, "CSRF token")
    }
}

impl fmt::Debug for AdminSession {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AdminSession")
            .field("wallet", &self.wallet)
            .field("roles", &self.roles)
            .field("session_token", &"[redacted]")
            .field("csrf_token", &"[redacted]")
            .finish()
    }
}

/// A header value marked sensitive, or [`Error::Config`] naming `what` when it is not a valid one.
fn sensitive(text: &str, what: &str) -> Result<HeaderValue, Error> {
    let mut value = HeaderValue::from_str(text)
        .map_err(|_| Error::Config(format!("the {what} is not a valid header value")))?;
    value.set_sensitive(true);
    Ok(value)
}

/// The `cb_auth_token` value among the response's `Set-Cookie` headers (an empty value clears it).
pub(crate) fn session_cookie(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(SET_COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .filter_map(|cookie| cookie.split(';').next())
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, value)| *name == SESSION_COOKIE && !value.is_empty())
        .map(|(_, value)| value.to_owned())
}

impl Client {
    /// A request to an admin route carrying the session cookie and CSRF token (the server ignores the
    /// CSRF header on reads, so every admin request carries both).
    pub(crate) fn admin_request(
        &self,
        session: &AdminSession,
        method: Method,
        path: &str,
    ) -> Result<RequestBuilder, Error> {
        Ok(self
            .http()
            .request(method, self.url(path)?)
            .header(COOKIE, session.cookie_header()?)
            .header(CSRF_HEADER, session.csrf_header()?))
    }
}

#[cfg(test)]
mod tests {
    use payments_core::Wallet;
    use reqwest::header::{HeaderMap, HeaderValue, SET_COOKIE};

    use super::{AdminRole, AdminSession, session_cookie};

    fn wallet() -> Wallet {
        Wallet::parse("0x2c7536e3605d9c16a7a3d7b1898e529396a65c23").unwrap()
    }

    #[test]
    fn debug_never_shows_the_tokens() {
        let session =
            AdminSession::from_tokens(wallet(), vec![AdminRole::Merchant], "jwt-secret", "csrf-secret")
                .unwrap();

        let printed = format!("{session:?}");

        assert!(!printed.contains("jwt-secret"), "{printed}");
        assert!(!printed.contains("csrf-secret"), "{printed}");
        assert!(printed.contains("[redacted]"), "{printed}");
        assert!(
            printed.contains("0x2c7536e3605d9c16a7a3d7b1898e529396a65c23"),
            "{printed}"
        );
    }

    #[test]
    fn tokens_that_cannot_be_headers_are_refused() {
        assert!(AdminSession::from_tokens(wallet(), vec![], "", "csrf").is_err());
        assert!(AdminSession::from_tokens(wallet(), vec![], "a; b=c", "csrf").is_err());
        assert!(AdminSession::from_tokens(wallet(), vec![], "jwt", "").is_err());
        assert!(AdminSession::from_tokens(wallet(), vec![], "jwt", "bad\nvalue").is_err());
    }

    #[test]
    fn the_session_cookie_is_found_among_other_cookies() {
        let mut headers = HeaderMap::new();
        headers.append(SET_COOKIE, HeaderValue::from_static("other=1; Path=/"));
        headers.append(
            SET_COOKIE,
            HeaderValue::from_static("cb_auth_token=a.b.c; HttpOnly; SameSite=Lax; Path=/; Max-Age=43200"),
        );

        assert_eq!(session_cookie(&headers).as_deref(), Some("a.b.c"));
    }

    #[test]
    fn a_cleared_cookie_is_no_session() {
        let mut headers = HeaderMap::new();
        headers.append(
            SET_COOKIE,
            HeaderValue::from_static("cb_auth_token=; Path=/; Max-Age=0"),
        );

        assert_eq!(session_cookie(&headers), None);
    }

    #[test]
    fn unknown_roles_are_kept_as_unknown() {
        let roles: Vec<AdminRole> =
            serde_json::from_str(r#"["merchant","platform_admin","auditor"]"#).unwrap();

        assert_eq!(
            roles,
            [AdminRole::Merchant, AdminRole::PlatformAdmin, AdminRole::Unknown]
        );
    }
}
