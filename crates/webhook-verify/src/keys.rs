//! The secrets a verifier holds: API keys (X-Service-Signature) and `whsec_` secrets (Standard Webhooks).

use std::fmt;
use std::str::FromStr;

use base64::Engine as _;
use base64::alphabet;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use hmac::{Hmac, Mac as _};
use sha2::Sha256;

use crate::error::KeyError;

/// HMAC-SHA256, the one MAC both schemes use.
pub(crate) type HmacSha256 = Hmac<Sha256>;

/// The prefix of a Standard Webhooks secret.
const WHSEC_PREFIX: &str = "whsec_";
/// The longest key or secret text accepted. Real ones are under 100 characters (a `whsec_` secret holds at
/// most 64 bytes); the bound keeps a misconfigured value from becoming a large allocation.
const MAX_KEY_TEXT_BYTES: usize = 1024;

/// Standard base64 that accepts the secret with or without trailing `=` padding.
const SECRET_BASE64: GeneralPurpose = GeneralPurpose::new(
    &alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// A value that must never reach a log: its `Debug` prints `[redacted]`.
#[derive(Clone)]
pub(crate) struct Redacted<T>(pub(crate) T);

impl<T> fmt::Debug for Redacted<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

/// A merchant API key, the key of the `X-Service-Signature` HMAC.
///
/// The HMAC key is the API key's UTF-8 bytes, exactly as the service issued it. `Debug` never shows it.
///
/// ```
/// use webhook_verify::ApiKey;
///
/// let key = ApiKey::new("sk_test_123")?;
/// assert_eq!(format!("{key:?}"), "ApiKey([redacted])");
/// # Ok::<(), webhook_verify::KeyError>(())
/// ```
#[derive(Clone, Debug)]
pub struct ApiKey(Redacted<HmacSha256>);

impl ApiKey {
    /// Wraps an API key.
    ///
    /// # Errors
    ///
    /// [`KeyError::Empty`] for an empty key, [`KeyError::Whitespace`] when the key starts or ends with
    /// whitespace (a stray newline from a file or an env var would silently make every signature fail), and
    /// [`KeyError::TooLong`] for more than 1024 characters.
    pub fn new(api_key: impl AsRef<str>) -> Result<Self, KeyError> {
        api_key_mac(api_key.as_ref()).map(|mac| Self(Redacted(mac)))
    }

    /// A fresh HMAC keyed with this API key.
    pub(crate) fn mac(&self) -> HmacSha256 {
        self.0.0.clone()
    }
}

impl FromStr for ApiKey {
    type Err = KeyError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::new(s)
    }
}

/// A Standard Webhooks signing secret, written `whsec_<base64>`.
///
/// The HMAC key is the base64-decoded part after `whsec_`. `Debug` never shows it.
///
/// ```
/// use webhook_verify::WebhookSecret;
///
/// let secret = WebhookSecret::new("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")?;
/// assert_eq!(format!("{secret:?}"), "WebhookSecret([redacted])");
/// # Ok::<(), webhook_verify::KeyError>(())
/// ```
#[derive(Clone, Debug)]
pub struct WebhookSecret(Redacted<HmacSha256>);

impl WebhookSecret {
    /// Parses a `whsec_<base64>` secret.
    ///
    /// # Errors
    ///
    /// [`KeyError::MissingWhsecPrefix`] when the text does not start with `whsec_` (this also catches an API
    /// key passed by mistake), [`KeyError::InvalidBase64`] when the rest is not standard base64,
    /// [`KeyError::Empty`] when it decodes to nothing, and [`KeyError::TooLong`] for more than 1024
    /// characters.
    pub fn new(secret: impl AsRef<str>) -> Result<Self, KeyError> {
        let secret = secret.as_ref();
        if secret.len() > MAX_KEY_TEXT_BYTES {
            return Err(KeyError::TooLong);
        }
        let encoded = secret
            .strip_prefix(WHSEC_PREFIX)
            .ok_or(KeyError::MissingWhsecPrefix)?;
        let key = SECRET_BASE64
            .decode(encoded)
            .map_err(|_| KeyError::InvalidBase64)?;
        if key.is_empty() {
            return Err(KeyError::Empty);
        }
        keyed_mac(&key).map(|mac| Self(Redacted(mac)))
    }

    /// The secret the service derives from an API key: `whsec_` followed by the base64 of the key's bytes.
    ///
    /// The service keys its Standard Webhooks signatures with the same API key as `X-Service-Signature`, so
    /// when you hold only an API key, this is your Standard Webhooks secret.
    ///
    /// # Errors
    ///
    /// As [`ApiKey::new`]: [`KeyError::Empty`], [`KeyError::Whitespace`] or [`KeyError::TooLong`].
    pub fn from_api_key(api_key: impl AsRef<str>) -> Result<Self, KeyError> {
        api_key_mac(api_key.as_ref()).map(|mac| Self(Redacted(mac)))
    }

    /// A fresh HMAC keyed with the decoded secret.
    pub(crate) fn mac(&self) -> HmacSha256 {
        self.0.0.clone()
    }
}

impl FromStr for WebhookSecret {
    type Err = KeyError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::new(s)
    }
}

/// An HMAC keyed with an API key's UTF-8 bytes, once the key passed the checks of [`ApiKey::new`].
fn api_key_mac(api_key: &str) -> Result<HmacSha256, KeyError> {
    if api_key.is_empty() {
        return Err(KeyError::Empty);
    }
    if api_key.len() > MAX_KEY_TEXT_BYTES {
        return Err(KeyError::TooLong);
    }
    if api_key.trim() != api_key {
        return Err(KeyError::Whitespace);
    }
    keyed_mac(api_key.as_bytes())
}

/// HMAC accepts keys of any length; the error arm only exists because the trait is generic.
fn keyed_mac(key: &[u8]) -> Result<HmacSha256, KeyError> {
    HmacSha256::new_from_slice(key).map_err(|_| KeyError::Empty)
}
