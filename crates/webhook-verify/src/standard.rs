//! Standard Webhooks: `webhook-signature: v1,<base64>` over `{webhook-id}.{webhook-timestamp}.{body}`.
//!
//! Specification: <https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md>

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::alphabet;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use hmac::Mac as _;

use crate::error::VerifyError;
use crate::headers::{self, Headers, WEBHOOK_ID, WEBHOOK_SIGNATURE, WEBHOOK_TIMESTAMP};
use crate::keys::{HmacSha256, WebhookSecret};
use crate::tolerance::{Tolerance, parse_digits};
use crate::verifier::{Scheme, Verified};

/// The only signature version this scheme defines; entries of other versions are skipped.
const VERSION: &str = "v1";
/// A SHA-256 tag is 32 bytes.
const TAG_LEN: usize = 32;
/// Standard base64; padding is accepted whether present or not.
const SIGNATURE_BASE64: GeneralPurpose = GeneralPurpose::new(
    &alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// Verifies the `webhook-*` headers of a request against any of `secrets`.
pub(crate) fn verify<H: Headers + ?Sized>(
    secrets: &[WebhookSecret],
    headers: &H,
    body: &[u8],
    tolerance: Tolerance,
    now: SystemTime,
) -> Result<Verified, VerifyError> {
    let id = headers::required_text(headers, WEBHOOK_ID)?;
    if id.is_empty() {
        return Err(VerifyError::MalformedHeader {
            name: WEBHOOK_ID,
            reason: "value is empty",
        });
    }
    let timestamp_text = headers::required_text(headers, WEBHOOK_TIMESTAMP)?;
    let timestamp = Duration::from_secs(parse_digits(timestamp_text, WEBHOOK_TIMESTAMP)?);
    let candidates = parse_signatures(headers::required_text(headers, WEBHOOK_SIGNATURE)?)?;

    let signed_by_any = secrets.iter().any(|secret| {
        let tag = signed_content_mac(secret, id, timestamp_text, body);
        candidates
            .iter()
            .any(|candidate| tag.clone().verify_slice(candidate).is_ok())
    });
    if !signed_by_any {
        return Err(VerifyError::SignatureMismatch);
    }

    // Checked after the signature: the timestamp is signed, so this is now a trustworthy age.
    tolerance.check(timestamp, now)?;
    Ok(Verified {
        scheme: Scheme::StandardWebhooks,
        timestamp: UNIX_EPOCH.checked_add(timestamp),
        webhook_id: Some(id.to_owned()),
    })
}

/// The 32-byte tags of every `v1,<base64>` entry; entries of other versions or with bad base64 never match.
fn parse_signatures(text: &str) -> Result<Vec<[u8; TAG_LEN]>, VerifyError> {
    let mut saw_v1 = false;
    let mut tags = Vec::new();
    for entry in text.split_ascii_whitespace() {
        let Some((version, encoded)) = entry.split_once(',') else {
            continue;
        };
        if version != VERSION {
            continue;
        }
        saw_v1 = true;
        let decoded = SIGNATURE_BASE64.decode(encoded).ok();
        if let Some(tag) = decoded.and_then(|bytes| <[u8; TAG_LEN]>::try_from(bytes).ok()) {
            tags.push(tag);
        }
    }
    if saw_v1 {
        Ok(tags)
    } else {
        Err(VerifyError::MalformedHeader {
            name: WEBHOOK_SIGNATURE,
            reason: "no `v1,<base64>` signature",
        })
    }
}

/// The HMAC state after absorbing `{id}.{timestamp}.{body}`, ready to finalize or compare.
fn signed_content_mac(secret: &WebhookSecret, id: &str, timestamp: &str, body: &[u8]) -> HmacSha256 {
    let mut mac = secret.mac();
    mac.update(id.as_bytes());
    mac.update(b".");
    mac.update(timestamp.as_bytes());
    mac.update(b".");
    mac.update(body);
    mac
}

/// The header value `v1,<base64>` for `body` with this id and timestamp (unix seconds).
#[cfg(feature = "test-helpers")]
pub(crate) fn sign(secret: &WebhookSecret, id: &str, timestamp_secs: u64, body: &[u8]) -> String {
    let tag = signed_content_mac(secret, id, &timestamp_secs.to_string(), body)
        .finalize()
        .into_bytes();
    format!(
        "{VERSION},{}",
        base64::engine::general_purpose::STANDARD.encode(tag)
    )
}
