//! Custom key/value attributes of a product.

use serde_json::{Map, Value};

use crate::field_error::FieldError;
use crate::inventory::text;

pub(super) const MAX_ATTRIBUTES: usize = 50;
pub(super) const KEY_MAX_CHARS: usize = 64;
pub(super) const STRING_VALUE_MAX_CHARS: usize = 500;

/// At most 50 keys (1..=64 printable characters each) with string (<= 500 characters), number or boolean
/// values; nested values and null are refused so attributes stay flat and filterable.
pub(super) fn validate(attributes: Map<String, Value>) -> Result<Map<String, Value>, FieldError> {
    if attributes.len() > MAX_ATTRIBUTES {
        return Err(FieldError::new(
            "attributes",
            format!("at most {MAX_ATTRIBUTES} keys are allowed"),
        ));
    }
    let mut valid = Map::with_capacity(attributes.len());
    for (key, value) in attributes {
        let field = format!("attributes.{key}");
        let clean_key = text::printable(&field, &key, KEY_MAX_CHARS)?;
        let value = match value {
            Value::String(text) if text.chars().count() > STRING_VALUE_MAX_CHARS => {
                return Err(FieldError::new(
                    field,
                    format!("must be at most {STRING_VALUE_MAX_CHARS} characters"),
                ));
            }
            value @ (Value::String(_) | Value::Number(_) | Value::Bool(_)) => value,
            Value::Null | Value::Array(_) | Value::Object(_) => {
                return Err(FieldError::new(field, "must be a string, number or boolean"));
            }
        };
        valid.insert(clean_key, value);
    }
    Ok(valid)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn object(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap()
    }

    #[test]
    fn flat_scalar_values_are_accepted() {
        let attributes = object(json!({"color": "red", "size": 42, "organic": true}));

        assert_eq!(validate(attributes.clone()).unwrap(), attributes);
    }

    #[test]
    fn nested_values_are_refused_naming_the_key() {
        let error = validate(object(json!({"dims": {"w": 1}}))).unwrap_err();

        assert_eq!(error.field, "attributes.dims");
    }
}
