//! The `cb_auth_token` cookie value: an HS256 JWT naming a server-side session.
//!
//! The token alone never grants access: the session row it names must still be live, so logout and
//! revocation take effect at once. Expiry is checked against the app's [`crate::Clock`], not the
//! system time, so tests can move past it.

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use payments_core::Wallet;
use serde::{Deserialize, Serialize};

use crate::domain::admin::SessionId;
use crate::secret::Secret;

/// What the token carries. `exp`/`iat` are unix seconds (RFC 7519).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct SessionClaims {
    pub(crate) sid: String,
    pub(crate) wallet: Wallet,
    pub(crate) iat: i64,
    pub(crate) exp: i64,
}

impl SessionClaims {
    pub(crate) fn session_id(&self) -> SessionId {
        SessionId::new(self.sid.as_str())
    }
}

pub(crate) fn encode(secret: &Secret, claims: &SessionClaims) -> Result<Secret, jsonwebtoken::errors::Error> {
    let key = EncodingKey::from_secret(secret.expose().as_bytes());
    jsonwebtoken::encode(&Header::new(Algorithm::HS256), claims, &key).map(Secret::new)
}

/// The claims of a token signed with `secret` that has not expired at `now_secs`; `None` for anything
/// else (bad signature, other algorithm, malformed, expired), which all answer the same 401.
pub(crate) fn decode(secret: &Secret, token: &str, now_secs: i64) -> Option<SessionClaims> {
    let key = DecodingKey::from_secret(secret.expose().as_bytes());
    let mut validation = Validation::new(Algorithm::HS256);
    // The library would compare with the system clock; the app's clock decides below.
    validation.validate_exp = false;
    let claims = jsonwebtoken::decode::<SessionClaims>(token, &key, &validation)
        .ok()?
        .claims;
    (claims.exp > now_secs).then_some(claims)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claims(exp: i64) -> SessionClaims {
        SessionClaims {
            sid: "ses_1".to_owned(),
            wallet: Wallet::parse("0x2222222222222222222222222222222222222222").unwrap(),
            iat: 100,
            exp,
        }
    }

    #[test]
    fn a_token_reads_back_with_its_own_secret_only() {
        let secret = Secret::new("secret-a");
        let token = encode(&secret, &claims(200)).unwrap();

        assert_eq!(decode(&secret, token.expose(), 150), Some(claims(200)));
        assert_eq!(decode(&Secret::new("secret-b"), token.expose(), 150), None);
    }

    #[test]
    fn a_token_is_refused_from_its_expiry_on() {
        let secret = Secret::new("secret-a");
        let token = encode(&secret, &claims(200)).unwrap();

        assert_eq!(decode(&secret, token.expose(), 200), None);
    }
}
