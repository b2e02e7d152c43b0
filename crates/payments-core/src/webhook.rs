//! Webhook signing and the `receipt.status_updated` body (spec "Events").
//!
//! Two signatures go with every delivery:
//! - `X-Service-Signature: sha256=<lowercase hex HMAC-SHA256(key = API key bytes, message = raw body)>`,
//!   the spec's scheme;
//! - the [Standard Webhooks](https://www.standardwebhooks.com/) `webhook-signature: v1,<base64>` over
//!   `{id}.{timestamp}.{body}`, which also covers the id and timestamp and so gives replay protection.

use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::Sha256;
use thiserror::Error;

use crate::deposit_balance::ReceiptBalance;
use crate::money::Cents;
use crate::payment_block::PaymentBlock;
use crate::receipt_status::{FailureCategory, ReceiptStatus};
use crate::wallet::Wallet;

/// The one event type the service sends.
pub const RECEIPT_STATUS_UPDATED: &str = "receipt.status_updated";
/// The prefix of a Standard Webhooks secret.
pub const STANDARD_WEBHOOKS_SECRET_PREFIX: &str = "whsec_";

type HmacSha256 = Hmac<Sha256>;

fn hmac_sha256(key: &[u8], parts: &[&[u8]]) -> [u8; 32] {
    // HMAC takes keys of any length (long ones are hashed), so `new_from_slice` never fails for
    // Hmac<Sha256>; the fallback only satisfies the type.
    let mut mac = HmacSha256::new_from_slice(key).unwrap_or_else(|_| HmacSha256::new(&Default::default()));
    for part in parts {
        mac.update(part);
    }
    mac.finalize().into_bytes().into()
}

/// The `X-Service-Signature` header value for a body: `sha256=<lowercase hex>`.
///
/// ```
/// let header = payments_core::x_service_signature(b"key", b"{}");
/// assert!(header.starts_with("sha256=") && header.len() == 7 + 64);
/// ```
pub fn x_service_signature(api_key: &[u8], body: &[u8]) -> String {
    format!("sha256={}", hex::encode(hmac_sha256(api_key, &[body])))
}

/// A Standard Webhooks secret (`whsec_<base64 key>`) with its decoded key bytes.
#[derive(Clone, PartialEq, Eq)]
pub struct StandardWebhooksSecret {
    key: Vec<u8>,
}

impl std::fmt::Debug for StandardWebhooksSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StandardWebhooksSecret([redacted])")
    }
}

/// A malformed `whsec_` secret.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SecretError {
    /// Missing the `whsec_` prefix.
    #[error("secret must start with whsec_")]
    MissingPrefix,
    /// The part after the prefix is not base64 or is empty.
    #[error("secret is not whsec_ followed by base64")]
    NotBase64,
}

impl StandardWebhooksSecret {
    /// Parses `whsec_<base64>`.
    ///
    /// # Errors
    /// [`SecretError::MissingPrefix`] or [`SecretError::NotBase64`].
    pub fn parse(text: &str) -> Result<Self, SecretError> {
        let encoded = text
            .strip_prefix(STANDARD_WEBHOOKS_SECRET_PREFIX)
            .ok_or(SecretError::MissingPrefix)?;
        let key = BASE64.decode(encoded).map_err(|_| SecretError::NotBase64)?;
        if key.is_empty() {
            return Err(SecretError::NotBase64);
        }
        Ok(StandardWebhooksSecret { key })
    }

    /// Uses raw key bytes (the server keys Standard Webhooks signatures with the same API key as
    /// `X-Service-Signature`, so merchants hold one secret: `whsec_` + base64 of their API key).
    pub fn from_key_bytes(key: &[u8]) -> Self {
        StandardWebhooksSecret { key: key.to_vec() }
    }

    /// The `whsec_...` text form.
    pub fn to_whsec(&self) -> String {
        format!("{STANDARD_WEBHOOKS_SECRET_PREFIX}{}", BASE64.encode(&self.key))
    }

    /// The `webhook-signature` value `v1,<base64>` over `{id}.{timestamp}.{body}`.
    pub fn sign(&self, webhook_id: &str, timestamp_secs: i64, body: &[u8]) -> String {
        let timestamp = timestamp_secs.to_string();
        let mac = hmac_sha256(
            &self.key,
            &[webhook_id.as_bytes(), b".", timestamp.as_bytes(), b".", body],
        );
        format!("v1,{}", BASE64.encode(mac))
    }
}

/// The body of a `receipt.status_updated` webhook, with every field of the spec's table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReceiptStatusUpdated {
    /// Always [`RECEIPT_STATUS_UPDATED`].
    pub event: String,
    /// The receipt.
    pub receipt_id: String,
    /// Current status.
    pub status: ReceiptStatus,
    /// Status before this change.
    pub previous_status: ReceiptStatus,
    /// Failure code when failed.
    pub failure_code: Option<String>,
    /// Failure category when failed.
    pub failure_category: Option<FailureCategory>,
    /// Failure reason when failed.
    pub failure_reason: Option<String>,
    /// Remediation advice when failed.
    pub failure_action: Option<String>,
    /// On-chain hash once paid.
    pub transaction_hash: Option<String>,
    /// The buyer's wallet once known.
    pub buyer_wallet: Option<Wallet>,
    /// The merchant.
    pub merchant_wallet: Wallet,
    /// The receipt total.
    pub total_usd: Cents,
    /// Payment token symbol.
    pub token: String,
    /// Card-onramp session id.
    pub onramp_session_id: Option<String>,
    /// Whether the onramp session belongs to this receipt only.
    pub is_onramp_session_unique: bool,
    /// Caller-supplied reference.
    pub transaction_id: Option<String>,
    /// Caller-supplied metadata.
    pub metadata: Option<serde_json::Value>,
    /// When the change happened, unix ms.
    pub timestamp: i64,
    /// The merchant's brand key.
    pub brand_key: String,
    /// Paid after its payment window ended (only sent when true): the merchant decides whether to fulfil
    /// or refund.
    #[serde(default, skip_serializing_if = "is_false")]
    pub paid_late: bool,
    /// What the receipt's deposit holds: `amountReceivedUsd`, `amountDueUsd`, `overpaidUsd` with their
    /// `...BaseUnits`. Absent for a receipt without a deposit address (nothing to count).
    #[serde(flatten)]
    pub balance: Option<ReceiptBalance>,
    /// The paying transfer's block, depth and finality, while the receipt is paid on chain (absent
    /// otherwise): a receiver may wait for `finalized` before shipping something it cannot take back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payment: Option<PaymentBlock>,
}

const fn is_false(value: &bool) -> bool {
    !*value
}

#[cfg(test)]
#[path = "webhook_tests.rs"]
mod tests;
