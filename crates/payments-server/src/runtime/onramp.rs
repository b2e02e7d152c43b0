//! `--onramp`: the card path's provider, its credentials (never logged: `Debug` redacts them) and where its
//! API answers (tests point it at a mock). docs/configuration.md lists the flags; docs/payment-page.md says
//! what the buyer sees.

use std::fmt;
use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use payments_core::OnrampProviderKind;
use url::Url;

use crate::secret::Secret;

/// Stripe's API (`POST /v1/crypto/onramp_sessions`).
pub const STRIPE_API_URL: &str = "https://api.stripe.com";
/// Coinbase Developer Platform's API (`POST /platform/v2/onramp/sessions`).
pub const COINBASE_API_URL: &str = "https://api.cdp.coinbase.com";
/// Time a provider has to create a session before the page is told to try again.
pub const DEFAULT_ONRAMP_TIMEOUT: Duration = Duration::from_secs(10);

/// The card path's provider and how to reach it.
#[derive(Debug, Clone)]
pub struct OnrampConfig {
    pub(crate) credentials: OnrampCredentials,
    /// The provider's API origin, without a path.
    pub(crate) api_url: Url,
    pub(crate) timeout: Duration,
}

/// What authenticates the server to its provider.
#[derive(Debug, Clone)]
pub(crate) enum OnrampCredentials {
    /// A Stripe secret key (`sk_live_…`, `sk_test_…`), sent as a Bearer token.
    Stripe { secret_key: Secret },
    /// A CDP Secret API key: its id (the JWT's `kid` and `sub`) and its private key.
    Coinbase {
        key_id: String,
        signing_key: CdpSigningKey,
    },
}

impl OnrampConfig {
    /// Stripe with `secret_key`, at `api_url` (default [`STRIPE_API_URL`]).
    pub fn stripe(secret_key: Secret, api_url: Option<Url>) -> Result<OnrampConfig, String> {
        if secret_key.expose().trim().is_empty() {
            return Err("the Stripe secret key is empty".to_owned());
        }
        Ok(OnrampConfig {
            credentials: OnrampCredentials::Stripe { secret_key },
            api_url: api_url_or(api_url, STRIPE_API_URL)?,
            timeout: DEFAULT_ONRAMP_TIMEOUT,
        })
    }

    /// Coinbase with the CDP key `key_id` whose private key is `secret` (Ed25519 as base64, or an EC P-256
    /// key as PEM), at `api_url` (default [`COINBASE_API_URL`]).
    ///
    /// # Errors
    /// When the key id is empty or the private key is neither form (the message never quotes the key).
    pub fn coinbase(key_id: &str, secret: &Secret, api_url: Option<Url>) -> Result<OnrampConfig, String> {
        if key_id.trim().is_empty() {
            return Err("Coinbase needs the CDP API key id (--onramp-key-id)".to_owned());
        }
        Ok(OnrampConfig {
            credentials: OnrampCredentials::Coinbase {
                key_id: key_id.trim().to_owned(),
                signing_key: CdpSigningKey::parse(secret.expose())?,
            },
            api_url: api_url_or(api_url, COINBASE_API_URL)?,
            timeout: DEFAULT_ONRAMP_TIMEOUT,
        })
    }

    /// The same provider answering within `timeout`.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> OnrampConfig {
        self.timeout = timeout;
        self
    }

    /// Which provider this is.
    pub fn provider(&self) -> OnrampProviderKind {
        match self.credentials {
            OnrampCredentials::Stripe { .. } => OnrampProviderKind::Stripe,
            OnrampCredentials::Coinbase { .. } => OnrampProviderKind::Coinbase,
        }
    }

    /// The provider's network name of `chain_id`.
    ///
    /// # Errors
    /// When the provider delivers nothing on that chain (the test-mode chain among them): the server then
    /// refuses to start rather than show a button that always fails.
    pub fn network_for(&self, chain_id: u64) -> Result<&'static str, String> {
        let provider = self.provider();
        provider.network(chain_id).ok_or_else(|| {
            format!(
                "{} delivers no tokens on chain {chain_id}; the card path needs a chain it supports (Ethereum, \
                 Base, Polygon, OP Mainnet{})",
                provider.display_name(),
                if provider == OnrampProviderKind::Coinbase { ", Arbitrum" } else { "" }
            )
        })
    }
}

fn api_url_or(api_url: Option<Url>, default: &str) -> Result<Url, String> {
    match api_url {
        Some(url) if matches!(url.scheme(), "http" | "https") && url.host().is_some() => Ok(url),
        Some(_) => Err("--onramp-api-url must be an http(s) origin".to_owned()),
        None => Url::parse(default).map_err(|error| error.to_string()),
    }
}

/// A CDP API key's private key, as PKCS#8 DER for the JWT signer. CDP hands out Ed25519 keys as base64 of
/// the 32-byte seed followed by the 32-byte public key (the portal's default), and ECDSA keys as SEC1 PEM
/// (`BEGIN EC PRIVATE KEY`); a PKCS#8 PEM (`BEGIN PRIVATE KEY`) of either is accepted too. The signer is
/// `ring` through `jsonwebtoken`, already in the build for admin sessions: no new crypto crate.
#[derive(Clone)]
pub(crate) struct CdpSigningKey {
    pub(crate) algorithm: jsonwebtoken::Algorithm,
    pub(crate) pkcs8_der: Vec<u8>,
}

impl fmt::Debug for CdpSigningKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CdpSigningKey({:?}, [redacted])", self.algorithm)
    }
}

/// PKCS#8 v1 prefix of an Ed25519 private key (RFC 8410): SEQUENCE, version 0, the Ed25519 algorithm, and the
/// OCTET STRING holding the 32-byte seed that follows.
const ED25519_PKCS8_PREFIX: [u8; 16] = [
    0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
];
/// The Ed25519 algorithm identifier's OID bytes (1.3.101.112).
const ED25519_OID: [u8; 5] = [0x06, 0x03, 0x2b, 0x65, 0x70];
/// `AlgorithmIdentifier { id-ecPublicKey, prime256v1 }`, wrapped around a SEC1 key to make it PKCS#8.
const EC_P256_ALGORITHM: [u8; 21] = [
    0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce,
    0x3d, 0x03, 0x01, 0x07,
];

impl CdpSigningKey {
    /// Reads a CDP key secret (see the type's documentation).
    ///
    /// # Errors
    /// When the text is none of the accepted forms; the message never quotes it.
    pub(crate) fn parse(text: &str) -> Result<CdpSigningKey, String> {
        // Key files and environment variables often carry the PEM's newlines as `\n`.
        let text = text.trim().replace("\\n", "\n");
        if let Some(der) = pem_body(&text, "EC PRIVATE KEY") {
            return Ok(CdpSigningKey {
                algorithm: jsonwebtoken::Algorithm::ES256,
                pkcs8_der: sec1_to_pkcs8(&der),
            });
        }
        if let Some(der) = pem_body(&text, "PRIVATE KEY") {
            let is_ed25519 = der.windows(ED25519_OID.len()).any(|w| w == ED25519_OID);
            return Ok(CdpSigningKey {
                algorithm: if is_ed25519 {
                    jsonwebtoken::Algorithm::EdDSA
                } else {
                    jsonwebtoken::Algorithm::ES256
                },
                pkcs8_der: der,
            });
        }
        match STANDARD.decode(text.as_bytes()) {
            Ok(bytes) if bytes.len() == 64 || bytes.len() == 32 => {
                let mut der = ED25519_PKCS8_PREFIX.to_vec();
                der.extend_from_slice(&bytes[..32]);
                Ok(CdpSigningKey {
                    algorithm: jsonwebtoken::Algorithm::EdDSA,
                    pkcs8_der: der,
                })
            }
            _ => Err(
                "the CDP API key secret is neither an Ed25519 key (base64 of 64 bytes) nor an EC key (PEM)"
                    .to_owned(),
            ),
        }
    }
}

impl CdpSigningKey {
    /// The key as the JWT signer takes it.
    pub(crate) fn encoding_key(&self) -> jsonwebtoken::EncodingKey {
        match self.algorithm {
            jsonwebtoken::Algorithm::ES256 => jsonwebtoken::EncodingKey::from_ec_der(&self.pkcs8_der),
            _ => jsonwebtoken::EncodingKey::from_ed_der(&self.pkcs8_der),
        }
    }
}

/// The DER inside `-----BEGIN {label}-----` … `-----END {label}-----`, if the text is that PEM.
fn pem_body(text: &str, label: &str) -> Option<Vec<u8>> {
    let begin = format!("-----BEGIN {label}-----");
    let end = format!("-----END {label}-----");
    let body = text.strip_prefix(&begin)?.trim_end().strip_suffix(&end)?;
    let joined: String = body.split_whitespace().collect();
    STANDARD.decode(joined).ok()
}

/// `PrivateKeyInfo { version 0, AlgorithmIdentifier(P-256), OCTET STRING { sec1 } }` (RFC 5208, RFC 5915).
fn sec1_to_pkcs8(sec1: &[u8]) -> Vec<u8> {
    let mut inner = vec![0x02, 0x01, 0x00];
    inner.extend_from_slice(&EC_P256_ALGORITHM);
    inner.push(0x04);
    inner.extend(der_length(sec1.len()));
    inner.extend_from_slice(sec1);
    let mut der = vec![0x30];
    der.extend(der_length(inner.len()));
    der.extend(inner);
    der
}

/// A DER length: short form below 128, else the count of big-endian length bytes, then those bytes.
fn der_length(length: usize) -> Vec<u8> {
    if length < 0x80 {
        return vec![length as u8];
    }
    let bytes: Vec<u8> = length
        .to_be_bytes()
        .into_iter()
        .skip_while(|byte| *byte == 0)
        .collect();
    let mut encoded = vec![0x80 | bytes.len() as u8];
    encoded.extend(bytes);
    encoded
}

#[cfg(test)]
#[path = "onramp_tests.rs"]
mod tests;
