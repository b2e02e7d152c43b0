//! Receipt statuses and payment failures, with their wire names.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Every status a receipt can have (spec "Status values seen on receipts").
///
/// The spec's nine webhook meanings map as: portal opened = `link_opened`, wallet connected =
/// `buyer_logged_in`, checkout started = `checkout_initialized`, payment submitted = `checkout_success`,
/// payment confirmed on chain = `paid`, funds verified and split executed = `completed` (then
/// `reconciled`), failed = `failed`, refund requested = `refund_requested`, refund processed =
/// `refund_partial` or `refunded`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ReceiptStatus {
    /// Order created, awaiting payment.
    Generated,
    /// Payment initiated (receipts created by `POST /api/receipts` start here).
    Pending,
    /// The buyer opened the payment page.
    LinkOpened,
    /// The buyer connected a wallet.
    BuyerLoggedIn,
    /// The buyer started checkout.
    CheckoutInitialized,
    /// The buyer submitted payment.
    CheckoutSuccess,
    /// A payment transaction was mined.
    TxMined,
    /// The mined transaction pays the right recipient.
    RecipientValidated,
    /// A transaction was seen that does not match the receipt (token, recipient or amount).
    TxMismatch,
    /// Confirmed transfers reached the deposit address but do not cover the total yet: the buyer is asked
    /// for the remainder (`amountDueUsd`).
    Underpaid,
    /// Payment confirmed on chain.
    Paid,
    /// Payment split to the recipients.
    Completed,
    /// Funds verified against the ledger after the split.
    Reconciled,
    /// The payment attempt failed (details in [`Failure`]); the buyer may try again.
    Failed,
    /// A refund was requested.
    RefundRequested,
    /// Part of the paid amount was refunded.
    RefundPartial,
    /// The whole paid amount was refunded.
    Refunded,
}

impl ReceiptStatus {
    /// All statuses, in the order of the payment flow.
    pub const ALL: [ReceiptStatus; 17] = [
        ReceiptStatus::Generated,
        ReceiptStatus::Pending,
        ReceiptStatus::LinkOpened,
        ReceiptStatus::BuyerLoggedIn,
        ReceiptStatus::CheckoutInitialized,
        ReceiptStatus::CheckoutSuccess,
        ReceiptStatus::TxMined,
        ReceiptStatus::RecipientValidated,
        ReceiptStatus::TxMismatch,
        ReceiptStatus::Underpaid,
        ReceiptStatus::Paid,
        ReceiptStatus::Completed,
        ReceiptStatus::Reconciled,
        ReceiptStatus::Failed,
        ReceiptStatus::RefundRequested,
        ReceiptStatus::RefundPartial,
        ReceiptStatus::Refunded,
    ];

    /// The wire name (`link_opened`).
    pub const fn as_str(self) -> &'static str {
        match self {
            ReceiptStatus::Generated => "generated",
            ReceiptStatus::Pending => "pending",
            ReceiptStatus::LinkOpened => "link_opened",
            ReceiptStatus::BuyerLoggedIn => "buyer_logged_in",
            ReceiptStatus::CheckoutInitialized => "checkout_initialized",
            ReceiptStatus::CheckoutSuccess => "checkout_success",
            ReceiptStatus::TxMined => "tx_mined",
            ReceiptStatus::RecipientValidated => "recipient_validated",
            ReceiptStatus::TxMismatch => "tx_mismatch",
            ReceiptStatus::Underpaid => "underpaid",
            ReceiptStatus::Paid => "paid",
            ReceiptStatus::Completed => "completed",
            ReceiptStatus::Reconciled => "reconciled",
            ReceiptStatus::Failed => "failed",
            ReceiptStatus::RefundRequested => "refund_requested",
            ReceiptStatus::RefundPartial => "refund_partial",
            ReceiptStatus::Refunded => "refunded",
        }
    }

    /// Whether money has been received (paid and everything after it).
    pub const fn is_settled(self) -> bool {
        matches!(
            self,
            ReceiptStatus::Paid
                | ReceiptStatus::Completed
                | ReceiptStatus::Reconciled
                | ReceiptStatus::RefundRequested
                | ReceiptStatus::RefundPartial
                | ReceiptStatus::Refunded
        )
    }
}

impl fmt::Display for ReceiptStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An unknown status name.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown status '{0}'")]
pub struct UnknownStatus(pub String);

impl FromStr for ReceiptStatus {
    type Err = UnknownStatus;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        ReceiptStatus::ALL
            .into_iter()
            .find(|status| status.as_str() == text)
            .ok_or_else(|| UnknownStatus(text.chars().take(64).collect()))
    }
}

/// The spec's six payment failure categories.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum FailureCategory {
    /// Issuer declines, wrong security code, insufficient funds, expired card, fraud screening, 3-D.
    CardDecline,
    /// Identity steps, documents, date of birth, sanctions, minimum age, unsupported jurisdiction.
    Compliance,
    /// Over a tier or single-transaction limit, under the minimum.
    Limits,
    /// Insufficient tokens or gas, signature rejected, slippage, revert, ownership challenge.
    Blockchain,
    /// Portal closed, session expired, cancelled.
    Session,
    /// Network timeout or processing error.
    System,
}

/// Why a payment attempt failed, as carried by a `failed` receipt and its webhook.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Failure {
    /// A `PORTAL_...` code, e.g. `PORTAL_PAY_INSUFFICIENT_FUNDS`.
    pub failure_code: String,
    /// One of the six categories.
    pub failure_category: FailureCategory,
    /// What happened, for people.
    pub failure_reason: String,
    /// What the buyer can do about it.
    pub failure_action: String,
}

/// Why failure details were refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum FailureError {
    /// The code is not `PORTAL_` followed by upper-case letters, digits and underscores.
    #[error("failureCode must look like PORTAL_<UPPER_SNAKE>, got '{0}'")]
    MalformedCode(String),
    /// Reason or action empty or longer than 500 characters.
    #[error("{field} must be 1 to 500 characters")]
    BadText {
        /// Which field.
        field: &'static str,
    },
}

impl Failure {
    /// Validates failure details.
    ///
    /// # Errors
    /// [`FailureError::MalformedCode`] or [`FailureError::BadText`].
    pub fn new(
        failure_code: String,
        failure_category: FailureCategory,
        failure_reason: String,
        failure_action: String,
    ) -> Result<Failure, FailureError> {
        let tail = failure_code.strip_prefix("PORTAL_").unwrap_or("");
        let well_formed = !tail.is_empty()
            && failure_code.len() <= 64
            && tail
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_');
        if !well_formed {
            return Err(FailureError::MalformedCode(
                failure_code.chars().take(64).collect(),
            ));
        }
        for (field, text) in [
            ("failureReason", &failure_reason),
            ("failureAction", &failure_action),
        ] {
            if text.trim().is_empty() || text.chars().count() > 500 {
                return Err(FailureError::BadText { field });
            }
        }
        Ok(Failure {
            failure_code,
            failure_category,
            failure_reason,
            failure_action,
        })
    }
}
