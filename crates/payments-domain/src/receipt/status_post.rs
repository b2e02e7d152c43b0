//! `POST /api/receipts/status` body, parsed in the order the spec's error codes are checked:
//! `missing_receipt_id`, `invalid_wallet`, `missing_status`, then the status itself.

use payments_core::{
    Cents, Failure, FailureCategory, PaymentProof, ReceiptEvent, ReceiptStatus, TrackingStatus, Wallet,
};

use crate::field_error::FieldError;
use crate::receipt::id::ReceiptId;

#[derive(Debug, Default)]
pub struct StatusPostRequest {
    pub receipt_id: Option<String>,
    pub wallet: Option<String>,
    pub status: Option<String>,
    pub failure_code: Option<String>,
    pub failure_category: Option<String>,
    pub failure_reason: Option<String>,
    pub failure_action: Option<String>,
    pub transaction_hash: Option<String>,
    /// A chain field, like the hash: only an admin (test mode) or the chain may name the buyer.
    pub buyer_wallet: Option<String>,
}

/// Why a status post was refused before reaching the receipt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StatusPostError {
    MissingReceiptId,
    InvalidWallet(String),
    MissingStatus,
    Invalid(FieldError),
}

/// A validated status post.
#[derive(Debug, Clone)]
pub struct StatusPost {
    pub receipt_id: ReceiptId,
    pub wallet: Wallet,
    pub status: ReceiptStatus,
    pub failure: Option<Failure>,
    pub transaction_hash: Option<String>,
    pub buyer_wallet: Option<Wallet>,
}

impl StatusPostRequest {
    /// The status the body names, when it names a known one (to pick the credential before parsing).
    pub fn named_status(&self) -> Option<ReceiptStatus> {
        self.status
            .as_deref()
            .and_then(|status| status.trim().parse().ok())
    }

    /// `checkout_success` with a `transactionHash`: a claim the server verifies on chain, which any poster
    /// with `receipts:write` may make (the chain, not the poster, then vouches for it).
    pub fn claims_payment(&self) -> bool {
        self.named_status() == Some(ReceiptStatus::CheckoutSuccess)
            && self
                .transaction_hash
                .as_deref()
                .is_some_and(|hash| !hash.trim().is_empty())
    }

    pub fn parse(self) -> Result<StatusPost, StatusPostError> {
        let receipt_id = present(self.receipt_id).ok_or(StatusPostError::MissingReceiptId)?;
        let receipt_id = ReceiptId::parse("receiptId", &receipt_id).map_err(StatusPostError::Invalid)?;
        let wallet = present(self.wallet)
            .ok_or_else(|| StatusPostError::InvalidWallet("wallet is required".to_owned()))?;
        let wallet = Wallet::parse(&wallet)
            .map_err(|error| StatusPostError::InvalidWallet(format!("wallet: {error}")))?;
        let status = present(self.status).ok_or(StatusPostError::MissingStatus)?;
        let status: ReceiptStatus = status
            .parse()
            .map_err(|error| StatusPostError::Invalid(FieldError::new("status", format!("{error}"))))?;
        let failure = if status == ReceiptStatus::Failed {
            Some(failure(
                self.failure_code,
                self.failure_category,
                self.failure_reason,
                self.failure_action,
            )?)
        } else {
            None
        };
        let transaction_hash = match present(self.transaction_hash) {
            Some(hash) => Some(transaction_hash(&hash).map_err(StatusPostError::Invalid)?),
            None => None,
        };
        let buyer_wallet = present(self.buyer_wallet)
            .map(|buyer| {
                Wallet::parse(&buyer).map_err(|error| {
                    StatusPostError::Invalid(FieldError::new("buyerWallet", error.to_string()))
                })
            })
            .transpose()?;
        Ok(StatusPost {
            receipt_id,
            wallet,
            status,
            failure,
            transaction_hash,
            buyer_wallet,
        })
    }
}

impl StatusPost {
    /// The event for this status. `paid` needs the proof (the admin's attestation) and the amount received
    /// (the receipt's total). `None` for statuses that are not events (`generated`, refund results).
    pub fn event(&self, total: Cents, attesting_admin: Option<Wallet>) -> Option<ReceiptEvent> {
        Some(match self.status {
            ReceiptStatus::Pending => ReceiptEvent::PaymentInitiated,
            ReceiptStatus::LinkOpened => ReceiptEvent::Tracking(TrackingStatus::LinkOpened),
            ReceiptStatus::BuyerLoggedIn => ReceiptEvent::Tracking(TrackingStatus::BuyerLoggedIn),
            ReceiptStatus::CheckoutInitialized => ReceiptEvent::Tracking(TrackingStatus::CheckoutInitialized),
            ReceiptStatus::CheckoutSuccess => ReceiptEvent::CheckoutSucceeded,
            ReceiptStatus::TxMined => ReceiptEvent::TransactionMined,
            ReceiptStatus::RecipientValidated => ReceiptEvent::RecipientValidated,
            ReceiptStatus::TxMismatch => ReceiptEvent::TransactionMismatch,
            ReceiptStatus::Completed => ReceiptEvent::SplitExecuted,
            ReceiptStatus::Reconciled => ReceiptEvent::Reconciled,
            ReceiptStatus::RefundRequested => ReceiptEvent::RefundRequested,
            ReceiptStatus::Failed => ReceiptEvent::Failed(self.failure.clone()?),
            ReceiptStatus::Paid => ReceiptEvent::PaymentConfirmed {
                proof: PaymentProof::AdminAttestation {
                    admin: attesting_admin?,
                    transaction_hash: self.transaction_hash.clone(),
                },
                amount: total,
            },
            ReceiptStatus::Generated | ReceiptStatus::RefundPartial | ReceiptStatus::Refunded => return None,
            // A status added to payments-core that this server has no event for is not postable.
            _ => return None,
        })
    }
}

fn present(value: Option<String>) -> Option<String> {
    value
        .map(|value| value.trim().to_owned())
        .filter(|value| !value.is_empty())
}

fn failure(
    code: Option<String>,
    category: Option<String>,
    reason: Option<String>,
    action: Option<String>,
) -> Result<Failure, StatusPostError> {
    let required = |field: &str, value: Option<String>| {
        present(value).ok_or_else(|| {
            StatusPostError::Invalid(FieldError::new(field, "is required when status is failed"))
        })
    };
    let code = required("failureCode", code)?;
    let category = required("failureCategory", category)?;
    let category: FailureCategory = serde_json::from_value(serde_json::Value::String(category.clone()))
        .map_err(|_| {
            StatusPostError::Invalid(FieldError::new(
                "failureCategory",
                format!(
                    "must be one of card_decline, compliance, limits, blockchain, session, system; got '{}'",
                    category.chars().take(64).collect::<String>()
                ),
            ))
        })?;
    let reason = required("failureReason", reason)?;
    let action = required("failureAction", action)?;
    Failure::new(code, category, reason, action).map_err(|error| {
        let field = match &error {
            payments_core::FailureError::MalformedCode(_) => "failureCode",
            payments_core::FailureError::BadText { field } => field,
            // A refusal added to payments-core: named by the object it belongs to.
            _ => "failure",
        };
        StatusPostError::Invalid(FieldError::new(field, error.to_string()))
    })
}

/// `0x` + 64 hex digits, stored lower-case.
pub(super) fn transaction_hash(text: &str) -> Result<String, FieldError> {
    let hex = text.strip_prefix("0x").unwrap_or("");
    if hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(text.to_ascii_lowercase())
    } else {
        Err(FieldError::new(
            "transactionHash",
            "must be 0x followed by 64 hex digits",
        ))
    }
}
