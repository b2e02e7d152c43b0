//! Subscription keys and their ids.
//!
//! A key is `sk_live_` (issued by a server on a real chain) or `sk_test_` (a server on the in-process
//! test-mode chain, where payments are simulated) followed by 32 random bytes in unpadded base64url (43
//! characters). The prefix is the key's mode, recorded with it: the stored SHA-256 (hex) is of the whole key,
//! prefix included, so a key cannot change worlds. A server takes only the keys of its own mode (a test key
//! on a server on a real chain, or a live key on the test-mode chain, is refused before any lookup). A key
//! is found by that hash, which is all that is stored. A key carries 256 bits of entropy, so a
//! fast unsalted hash cannot be brute-forced and lets a request find its subscription with one indexed lookup.

use std::fmt;

use crate::digest::sha256_hex;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rand::RngCore;

use crate::secret::Secret;

const LIVE_PREFIX: &str = "sk_live_";
const TEST_PREFIX: &str = "sk_test_";

/// Which world issued keys belong to, shown by their prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum KeyMode {
    /// A server on a real chain (`--chain-rpc-url`): `sk_live_…`.
    Live,
    /// A server on the test-mode chain (no RPC URL; payments are simulated): `sk_test_…`.
    Test,
}

impl KeyMode {
    /// The mode of a server with (`true`) or without a chain RPC URL.
    pub fn for_chain(has_rpc_url: bool) -> Self {
        if has_rpc_url { KeyMode::Live } else { KeyMode::Test }
    }

    /// The mode a key's prefix names; `None` for a text with neither prefix (no key of ours).
    pub fn of_key(key: &str) -> Option<Self> {
        if key.starts_with(LIVE_PREFIX) {
            Some(KeyMode::Live)
        } else if key.starts_with(TEST_PREFIX) {
            Some(KeyMode::Test)
        } else {
            None
        }
    }

    /// The mode's name as a database records it (`test` or `live`).
    pub fn as_str(self) -> &'static str {
        match self {
            KeyMode::Live => "live",
            KeyMode::Test => "test",
        }
    }

    /// The mode named `text` (`test` or `live`).
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "live" => Some(KeyMode::Live),
            "test" => Some(KeyMode::Test),
            _ => None,
        }
    }

    /// What people call the world of this mode's keys.
    pub fn describe(self) -> &'static str {
        match self {
            KeyMode::Live => "a live key (sk_live_, for a server on a real chain)",
            KeyMode::Test => "a test key (sk_test_, for a server on the test-mode chain)",
        }
    }

    /// The prefix of the keys issued in this mode.
    pub fn prefix(self) -> &'static str {
        match self {
            KeyMode::Live => LIVE_PREFIX,
            KeyMode::Test => TEST_PREFIX,
        }
    }
}
const SUBSCRIPTION_ID_PREFIX: &str = "sub_";

/// A freshly generated subscription key; shown to its owner once, then only its hash is kept.
#[derive(Debug, Clone)]
pub struct NewApiKey {
    pub key: Secret,
    pub hash: KeyHash,
}

impl NewApiKey {
    pub fn generate(mode: KeyMode) -> Self {
        let mut bytes = [0u8; 32];
        rand::rng().fill_bytes(&mut bytes);
        let key = Secret::new(format!("{}{}", mode.prefix(), URL_SAFE_NO_PAD.encode(bytes)));
        let hash = KeyHash::of(key.expose());
        NewApiKey { key, hash }
    }
}

/// Hex SHA-256 of a presented or issued key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyHash(String);

impl KeyHash {
    pub fn of(key: &str) -> Self {
        KeyHash(sha256_hex(key.as_bytes()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Public id of a subscription: `sub_` + 32 hex digits.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SubscriptionId(String);

impl SubscriptionId {
    pub fn generate() -> Self {
        SubscriptionId(format!(
            "{SUBSCRIPTION_ID_PREFIX}{}",
            uuid::Uuid::new_v4().simple()
        ))
    }

    /// Wraps an id read from a header, the command line or the store; unknown ids simply match nothing.
    pub fn new(id: impl Into<String>) -> Self {
        SubscriptionId(id.into())
    }

    /// The id text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for SubscriptionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_keys_have_the_documented_shape() {
        let live = NewApiKey::generate(KeyMode::Live);
        let test = NewApiKey::generate(KeyMode::Test);

        assert!(live.key.expose().starts_with("sk_live_"));
        assert!(test.key.expose().starts_with("sk_test_"));
        assert_eq!(live.key.expose().len(), 51);
        assert_eq!(test.key.expose().len(), 51);
        assert_eq!(live.hash, KeyHash::of(live.key.expose()));
    }

    #[test]
    fn a_server_without_a_chain_rpc_url_issues_test_keys() {
        assert_eq!(KeyMode::for_chain(false), KeyMode::Test);
        assert_eq!(KeyMode::for_chain(true), KeyMode::Live);
    }

    #[test]
    fn key_hashes_are_hex_sha256() {
        assert_eq!(
            KeyHash::of("abc").as_str(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
