//! The `limit` query parameter of the list routes: a default when absent, clamped into `1..=max` when out of
//! range (the spec's "min 1, max 200" reads as clamping, like its users search), 400 when not an integer.

use crate::field_error::FieldError;

/// A parsed `limit`.
///
/// # Errors
/// A [`FieldError`] on `limit` when the text is not an integer.
pub fn parse_limit(text: Option<&str>, default: u32, max: u32) -> Result<u32, FieldError> {
    let Some(text) = text else {
        return Ok(default);
    };
    let text = text.trim();
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(FieldError::new(
            "limit",
            format!("must be an integer (clamped to 1..{max})"),
        ));
    }
    // Too many digits for u32 is past the maximum; a minus sign is below the minimum.
    let requested = if text.starts_with('-') {
        0
    } else {
        digits.parse::<u32>().unwrap_or(u32::MAX)
    };
    Ok(requested.clamp(1, max))
}

#[cfg(test)]
mod tests {
    use super::parse_limit;

    #[test]
    fn a_missing_limit_is_the_default_and_others_are_clamped() {
        assert_eq!(parse_limit(None, 50, 100), Ok(50));
        assert_eq!(parse_limit(Some("7"), 50, 100), Ok(7));
        assert_eq!(parse_limit(Some("0"), 50, 100), Ok(1));
        assert_eq!(parse_limit(Some("-3"), 50, 100), Ok(1));
        assert_eq!(parse_limit(Some("99999999999999"), 50, 100), Ok(100));
    }

    #[test]
    fn a_limit_that_is_not_an_integer_names_the_field() {
        let error = parse_limit(Some("ten"), 50, 100).unwrap_err();
        assert_eq!(error.field, "limit");
    }
}
