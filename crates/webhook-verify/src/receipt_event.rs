//! The typed body of a `receipt.status_updated` webhook.

use serde::{Deserialize, Serialize};

use crate::status::{FailureCategory, ReceiptStatus};

/// The event type of a receipt's status change: the body's `event`, an envelope's `type`.
pub const RECEIPT_STATUS_UPDATED: &str = "receipt.status_updated";

/// Amounts below this many dollars convert to cents exactly (`2^53 / 100`, rounded down).
const MAX_EXACT_USD: f64 = 90_071_992_547_409.0;

/// The body of a `receipt.status_updated` webhook, sent whenever a receipt's payment status changes.
///
/// Field names are camelCase on the wire. Only `event`, `receiptId` and `status` are required; every other
/// field may be absent or `null` and is then `None`. Unknown fields are ignored, and unknown statuses or
/// failure categories land in an `Unknown` variant instead of failing.
///
/// Get one from [`Verifier::verify_and_parse`](crate::Verifier::verify_and_parse) as
/// [`Event::ReceiptStatusUpdated`](crate::Event::ReceiptStatusUpdated); it checks the signature first. Never
/// act on a body you have not verified.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ReceiptStatusUpdated {
    /// Always [`RECEIPT_STATUS_UPDATED`].
    pub event: String,
    /// The receipt whose status changed.
    pub receipt_id: String,
    /// The current status.
    pub status: ReceiptStatus,
    /// The status before this change.
    pub previous_status: Option<ReceiptStatus>,
    /// Failure code of a failed payment, of the form `PORTAL_<...>` (e.g. `PORTAL_PAY_INSUFFICIENT_FUNDS`).
    pub failure_code: Option<String>,
    /// Failure category of a failed payment.
    pub failure_category: Option<FailureCategory>,
    /// Human-readable failure reason.
    pub failure_reason: Option<String>,
    /// Remediation advice for a failed payment.
    pub failure_action: Option<String>,
    /// On-chain transaction hash, when paid or completed.
    pub transaction_hash: Option<String>,
    /// The buyer's wallet, when known.
    pub buyer_wallet: Option<String>,
    /// The merchant's wallet.
    pub merchant_wallet: Option<String>,
    /// Receipt total in USD as sent; see [`ReceiptStatusUpdated::total_cents`] for exact arithmetic.
    pub total_usd: Option<f64>,
    /// Payment token symbol.
    pub token: Option<String>,
    /// Card-onramp session id.
    pub onramp_session_id: Option<String>,
    /// Whether the onramp session id belongs to this receipt only.
    pub is_onramp_session_unique: Option<bool>,
    /// Your own reference, supplied when the order was created.
    pub transaction_id: Option<String>,
    /// Your own metadata object, supplied when the order was created.
    pub metadata: Option<serde_json::Value>,
    /// When the status changed, Unix milliseconds.
    pub timestamp: Option<u64>,
    /// Brand key of the merchant.
    pub brand_key: Option<String>,
    /// USD received at the receipt's deposit address (exact decimal; use the base units for arithmetic).
    pub amount_received_usd: Option<f64>,
    /// The same in token base units (6 decimals), an integer string: exact.
    pub amount_received_base_units: Option<String>,
    /// USD still to send to pay the total (0 once paid); an `underpaid` receipt's missing part.
    pub amount_due_usd: Option<f64>,
    /// The same in token base units, an integer string: exact.
    pub amount_due_base_units: Option<String>,
    /// USD received beyond the total (an overpayment, also one after paid): what you may refund.
    pub overpaid_usd: Option<f64>,
    /// The same in token base units, an integer string: exact.
    pub overpaid_base_units: Option<String>,
    /// Where the paying transfer stands on chain, while the receipt is paid on chain: a body without it
    /// (any other status, or an older server) gives `None`.
    pub payment: Option<PaymentBlock>,
}

/// The block of the transfer that paid a receipt, its depth and finality (the body's `payment`).
///
/// A payment that is not `finalized` can still be removed by a chain reorganisation; the receipt then
/// becomes `failed` with `failureCode` `PORTAL_PAYMENT_REORGED`. Wait for `finalized` before handing over
/// something you cannot take back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PaymentBlock {
    /// The block number of the transfer that completed the payment.
    pub block_number: u64,
    /// That block's hash, `0x`-hex.
    pub block_hash: String,
    /// Blocks mined on top of it when the server last read the chain.
    pub confirmations: u64,
    /// Whether the chain's finalized block has reached it.
    pub finalized: bool,
}

impl ReceiptStatusUpdated {
    /// The total in integer cents, when `totalUsd` is present and has at most two decimals.
    ///
    /// ```
    /// # let event: webhook_verify::ReceiptStatusUpdated = serde_json::from_str(
    /// #     r#"{"event":"receipt.status_updated","receiptId":"R-1","status":"paid","totalUsd":7635.81}"#)?;
    /// assert_eq!(event.total_cents(), Some(763_581));
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    pub fn total_cents(&self) -> Option<i64> {
        let usd = self.total_usd?;
        if !usd.is_finite() || usd.abs() >= MAX_EXACT_USD {
            return None;
        }
        let cents = (usd * 100.0).round();
        // Exact: both sides are the correctly rounded double of the same two-decimal number.
        (cents / 100.0 == usd).then_some(cents as i64)
    }
}
