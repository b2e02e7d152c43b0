//! A refused input value, naming the field it came from.

use thiserror::Error;

/// One invalid field: `field` is the wire name (`priceUsd`, `tags[2]`, `shippingConfig.weightLbs`).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{field}: {message}")]
pub struct FieldError {
    pub field: String,
    pub message: String,
}

impl FieldError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        FieldError {
            field: field.into(),
            message: message.into(),
        }
    }
}
