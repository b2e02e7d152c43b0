//! Receipt and webhook-delivery ids.

use std::fmt;

use crate::field_error::FieldError;

const GENERATED_PREFIX: &str = "rcpt_";
/// Longest caller-assigned receipt id.
pub(super) const MAX_RECEIPT_ID_LEN: usize = 64;

/// A receipt id: caller-assigned (`POST /api/receipts`, 1 to 64 characters of `[A-Za-z0-9._-]`) or
/// server-generated (`rcpt_` + 32 hex digits of a UUID v7, for orders and terminal sales).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ReceiptId(String);

impl ReceiptId {
    /// A new id: a UUID v7 starts with its millisecond of creation (then 74 random bits, so ids stay
    /// unguessable), so new receipts land at the end of the id indexes instead of on a random page each,
    /// and one commit of many orders writes a few index pages instead of one per order. The creation time
    /// it shows is the receipt's `createdAt` anyway.
    pub fn generate() -> Self {
        ReceiptId(format!("{GENERATED_PREFIX}{}", uuid::Uuid::now_v7().simple()))
    }

    pub fn parse(field: &str, text: &str) -> Result<Self, FieldError> {
        let well_formed = !text.is_empty()
            && text.len() <= MAX_RECEIPT_ID_LEN
            && text
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
        if well_formed {
            Ok(ReceiptId(text.to_owned()))
        } else {
            Err(FieldError::new(
                field,
                format!("must be 1 to {MAX_RECEIPT_ID_LEN} characters of A-Z, a-z, 0-9, '.', '_' or '-'"),
            ))
        }
    }

    pub fn from_stored(id: String) -> Self {
        ReceiptId(id)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ReceiptId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A webhook delivery id: a UUID v4, sent as `X-Service-Delivery` and `webhook-id`, stable across attempts.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DeliveryId(String);

impl DeliveryId {
    pub fn generate() -> Self {
        DeliveryId(uuid::Uuid::new_v4().to_string())
    }

    pub fn from_stored(id: String) -> Self {
        DeliveryId(id)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caller_ids_are_short_and_plain() {
        assert!(ReceiptId::parse("id", "order-42.a_b").is_ok());
        assert!(ReceiptId::parse("id", &"a".repeat(64)).is_ok());
        for bad in ["", "has space", "slash/inside", "é", &"a".repeat(65)] {
            assert!(ReceiptId::parse("id", bad).is_err(), "{bad} should be refused");
        }
    }

    #[test]
    fn generated_ids_are_valid_caller_ids_too() {
        let id = ReceiptId::generate();

        assert!(id.as_str().starts_with("rcpt_"));
        assert_eq!(id.as_str().len(), 37);
        assert!(ReceiptId::parse("id", id.as_str()).is_ok());
    }
}
