//! The service's own scheme: `X-Service-Signature: sha256=<hex>` over the raw body, keyed with the API key.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use hmac::Mac as _;

use crate::error::VerifyError;
use crate::headers::{self, Headers, X_SERVICE_SIGNATURE, X_SERVICE_TIMESTAMP};
use crate::keys::ApiKey;
use crate::tolerance::{Tolerance, parse_digits};
use crate::verifier::{Scheme, Verified};

const PREFIX: &str = "sha256=";
/// A SHA-256 tag is 32 bytes, 64 hex characters.
const TAG_LEN: usize = 32;

/// Verifies the `X-Service-*` headers of a request against any of `keys`.
pub(crate) fn verify<H: Headers + ?Sized>(
    keys: &[ApiKey],
    headers: &H,
    body: &[u8],
    tolerance: Tolerance,
    now: SystemTime,
) -> Result<Verified, VerifyError> {
    let tag = parse_signature(headers::required_text(headers, X_SERVICE_SIGNATURE)?)?;
    let timestamp = match tolerance {
        Tolerance::Disabled => None,
        Tolerance::Within(_) => {
            let millis = parse_digits(
                headers::required_text(headers, X_SERVICE_TIMESTAMP)?,
                X_SERVICE_TIMESTAMP,
            )?;
            Some(Duration::from_millis(millis))
        }
    };

    let signed_by_any = keys.iter().any(|key| {
        let mut mac = key.mac();
        mac.update(body);
        mac.verify_slice(&tag).is_ok()
    });
    if !signed_by_any {
        return Err(VerifyError::SignatureMismatch);
    }

    if let Some(timestamp) = timestamp {
        tolerance.check(timestamp, now)?;
    }
    Ok(Verified {
        scheme: Scheme::XService,
        timestamp: timestamp.and_then(|t| UNIX_EPOCH.checked_add(t)),
        webhook_id: None,
    })
}

/// Parses `sha256=<64 lowercase hex>`; anything else is malformed, never "probably fine".
fn parse_signature(text: &str) -> Result<[u8; TAG_LEN], VerifyError> {
    let malformed = |reason| VerifyError::MalformedHeader {
        name: X_SERVICE_SIGNATURE,
        reason,
    };
    let hex_tag = text
        .strip_prefix(PREFIX)
        .ok_or(malformed("expected `sha256=<hex>`"))?;
    if hex_tag.len() != 2 * TAG_LEN {
        return Err(malformed("expected 64 hex characters after `sha256=`"));
    }
    if !hex_tag.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        return Err(malformed("expected lowercase hex after `sha256=`"));
    }
    let mut tag = [0; TAG_LEN];
    hex::decode_to_slice(hex_tag, &mut tag)
        .map_err(|_| malformed("expected lowercase hex after `sha256=`"))?;
    Ok(tag)
}

/// The header value `sha256=<hex>` for `body` signed with `key`.
#[cfg(feature = "test-helpers")]
pub(crate) fn sign(key: &ApiKey, body: &[u8]) -> String {
    let mut mac = key.mac();
    mac.update(body);
    format!("{PREFIX}{}", hex::encode(mac.finalize().into_bytes()))
}
