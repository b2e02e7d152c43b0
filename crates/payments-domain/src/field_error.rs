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

/// An optional `true`/`false` query parameter named `field`; anything else is refused.
///
/// # Errors
/// A [`FieldError`] on `field` when the text is neither `true` nor `false`.
pub fn parse_flag(field: &str, text: Option<&str>) -> Result<Option<bool>, FieldError> {
    match text {
        None => Ok(None),
        Some("true") => Ok(Some(true)),
        Some("false") => Ok(Some(false)),
        Some(_) => Err(FieldError::new(field, "must be true or false")),
    }
}
