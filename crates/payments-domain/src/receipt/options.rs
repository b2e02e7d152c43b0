//! The optional buyer, billing, redirect and reference fields shared by orders and receipts.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::field_error::FieldError;
use crate::receipt::payment_window::PaymentWindow;
use crate::receipt::webhook_target::TargetPolicy;

/// Largest `metadata` object, as compact JSON.
pub(super) const MAX_METADATA_BYTES: usize = 4096;
const MAX_TEXT_CHARS: usize = 200;
const MAX_URL_CHARS: usize = 2048;
const MAX_LOGIC_CHARS: usize = 4000;
const MAX_REFERENCE_CHARS: usize = 128;

/// Wire form: camelCase names, with snake_case aliases.
#[derive(Debug, Clone, Default)]
pub struct ReceiptOptionsRequest {
    pub onramp_redirect_url: Option<String>,
    pub redirect_url: Option<String>,
    pub post_payment_logic: Option<String>,
    pub buyer_email: Option<String>,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub billing_email: Option<String>,
    pub phone: Option<String>,
    pub address_line1: Option<String>,
    pub address_line2: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub postal_code: Option<String>,
    pub country: Option<String>,
    pub transaction_id: Option<String>,
    pub metadata: Option<Value>,
    pub webhook_url: Option<String>,
    /// This receipt's payment window in minutes (5 to 10,080); the server's default when absent.
    pub expires_in_mins: Option<i64>,
}

/// The receipt's `billingAddress`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BillingAddress {
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub phone: Option<String>,
    pub email: Option<String>,
    pub line1: Option<String>,
    pub line2: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub zip: Option<String>,
    pub country: Option<String>,
}

/// Validated options, stored as JSON with the receipt.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReceiptOptions {
    pub redirect_url: Option<String>,
    pub onramp_redirect_url: Option<String>,
    pub post_payment_logic: Option<String>,
    pub buyer_email: Option<String>,
    pub transaction_id: Option<String>,
    pub metadata: Option<Map<String, Value>>,
    pub billing: BillingAddress,
}

impl ReceiptOptionsRequest {
    /// `expiresInMins`, checked; `None` leaves the server's default window.
    pub(super) fn payment_window(&self) -> Result<Option<PaymentWindow>, FieldError> {
        PaymentWindow::parse("expiresInMins", self.expires_in_mins)
    }

    /// Validates everything but `webhook_url`, which the caller checks with [`TargetPolicy::check`] too.
    pub(super) fn parse(self, policy: TargetPolicy) -> Result<ReceiptOptions, FieldError> {
        let url = |field: &str, value: Option<String>| -> Result<Option<String>, FieldError> {
            let Some(value) = text(field, value, MAX_URL_CHARS)? else {
                return Ok(None);
            };
            policy
                .check(&value)
                .map(|url| Some(url.to_string()))
                .map_err(|error| FieldError::new(field, error.to_string()))
        };
        let metadata = match self.metadata {
            None | Some(Value::Null) => None,
            Some(Value::Object(map)) => {
                let size = serde_json::to_vec(&map)
                    .map(|bytes| bytes.len())
                    .unwrap_or(usize::MAX);
                if size > MAX_METADATA_BYTES {
                    return Err(FieldError::new(
                        "metadata",
                        format!("must be at most {MAX_METADATA_BYTES} bytes of JSON, got {size}"),
                    ));
                }
                Some(map)
            }
            Some(_) => return Err(FieldError::new("metadata", "must be a JSON object")),
        };
        Ok(ReceiptOptions {
            redirect_url: url("redirect_url", self.redirect_url)?,
            onramp_redirect_url: url("onrampRedirectUrl", self.onramp_redirect_url)?,
            post_payment_logic: text("postPaymentLogic", self.post_payment_logic, MAX_LOGIC_CHARS)?,
            buyer_email: email("buyerEmail", self.buyer_email)?,
            transaction_id: text("transactionId", self.transaction_id, MAX_REFERENCE_CHARS)?,
            metadata,
            billing: BillingAddress {
                first_name: text("firstName", self.first_name, MAX_TEXT_CHARS)?,
                last_name: text("lastName", self.last_name, MAX_TEXT_CHARS)?,
                phone: text("phone", self.phone, 40)?,
                email: email("billingEmail", self.billing_email)?,
                line1: text("addressLine1", self.address_line1, MAX_TEXT_CHARS)?,
                line2: text("addressLine2", self.address_line2, MAX_TEXT_CHARS)?,
                city: text("city", self.city, MAX_TEXT_CHARS)?,
                state: text("state", self.state, MAX_TEXT_CHARS)?,
                zip: text("postalCode", self.postal_code, 20)?,
                country: country(self.country)?,
            },
        })
    }
}

/// Trims; empty counts as absent; refuses control characters and over-long text.
fn text(field: &str, value: Option<String>, max_chars: usize) -> Result<Option<String>, FieldError> {
    let Some(value) = value
        .map(|value| value.trim().to_owned())
        .filter(|value| !value.is_empty())
    else {
        return Ok(None);
    };
    if value.chars().count() > max_chars {
        return Err(FieldError::new(
            field,
            format!("must be at most {max_chars} characters"),
        ));
    }
    if value.chars().any(char::is_control) {
        return Err(FieldError::new(field, "must not contain control characters"));
    }
    Ok(Some(value))
}

fn email(field: &str, value: Option<String>) -> Result<Option<String>, FieldError> {
    let value = text(field, value, 254)?;
    match &value {
        Some(address)
            if !address.split_once('@').is_some_and(|(local, domain)| {
                !local.is_empty() && domain.contains('.') && !address.contains(char::is_whitespace)
            }) =>
        {
            Err(FieldError::new(field, "must be an email address"))
        }
        _ => Ok(value),
    }
}

fn country(value: Option<String>) -> Result<Option<String>, FieldError> {
    let value = text("country", value, 2)?;
    match value {
        Some(code) if code.len() == 2 && code.bytes().all(|b| b.is_ascii_alphabetic()) => {
            Ok(Some(code.to_ascii_uppercase()))
        }
        Some(_) => Err(FieldError::new("country", "must be a 2-letter ISO country code")),
        None => Ok(None),
    }
}
