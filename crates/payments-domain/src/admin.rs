//! Admin sessions: a wallet that signed the EIP-712 login, its roles, and the ids and tokens that tie a
//! cookie and a CSRF header to one server-side session row.

use std::fmt;

use crate::digest::sha256_hex;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use payments_core::Wallet;
use rand::RngCore;
use subtle::ConstantTimeEq;

use crate::secret::Secret;

const SESSION_ID_PREFIX: &str = "ses_";

/// What a signed-in wallet may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Acts on its own wallet.
    Merchant,
    /// Named in the server config; may act on any wallet and revoke sessions.
    PlatformAdmin,
}

/// The roles of a wallet: every wallet is a merchant of itself; platform admins come from the config.
pub fn roles_of(wallet: Wallet, platform_admins: &[Wallet]) -> Vec<Role> {
    let mut roles = vec![Role::Merchant];
    if platform_admins.contains(&wallet) {
        roles.push(Role::PlatformAdmin);
    }
    roles
}

/// Public id of a session (`ses_` + 32 hex digits), carried in the JWT as `sid`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SessionId(String);

impl SessionId {
    pub fn generate() -> Self {
        SessionId(format!("{SESSION_ID_PREFIX}{}", uuid::Uuid::new_v4().simple()))
    }

    /// Wraps an id from a token or the store; an unknown id simply matches no session.
    pub fn new(id: impl Into<String>) -> Self {
        SessionId(id.into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for SessionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A random token: sign-in nonces and CSRF tokens (32 bytes, unpadded base64url).
pub fn random_token() -> Secret {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    Secret::new(URL_SAFE_NO_PAD.encode(bytes))
}

/// Hex SHA-256 of a session's CSRF token: only the hash is stored (256 random bits, so unsalted is fine).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CsrfHash(String);

impl CsrfHash {
    pub fn of(token: &str) -> Self {
        CsrfHash(sha256_hex(token.as_bytes()))
    }

    /// Wraps a hash read from the store.
    pub fn from_stored(hash: String) -> Self {
        CsrfHash(hash)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Constant-time comparison with the hash of a presented token.
    pub fn matches(&self, presented: &str) -> bool {
        self.0
            .as_bytes()
            .ct_eq(CsrfHash::of(presented).0.as_bytes())
            .into()
    }
}

/// A session about to be opened.
#[derive(Debug, Clone)]
pub struct NewAdminSession {
    pub id: SessionId,
    pub wallet: Wallet,
    pub csrf_hash: CsrfHash,
    pub created_at_ms: i64,
    pub expires_at_ms: i64,
}

/// A live session as stored (not revoked, not expired when it was read).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredAdminSession {
    pub id: SessionId,
    pub wallet: Wallet,
    pub csrf_hash: CsrfHash,
    pub expires_at_ms: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_csrf_hash_matches_only_its_own_token() {
        let hash = CsrfHash::of("token-a");

        assert!(hash.matches("token-a"));
        assert!(!hash.matches("token-b"));
    }

    #[test]
    fn platform_admins_are_merchants_too() {
        let wallet = Wallet::parse("0x2222222222222222222222222222222222222222").unwrap();

        assert_eq!(roles_of(wallet, &[]), vec![Role::Merchant]);
        assert_eq!(
            roles_of(wallet, &[wallet]),
            vec![Role::Merchant, Role::PlatformAdmin]
        );
    }
}
