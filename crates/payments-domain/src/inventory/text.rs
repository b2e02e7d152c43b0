//! Rules for the text fields of a product.

use crate::field_error::FieldError;

pub const NAME_MAX_CHARS: usize = 200;
pub const CATEGORY_MAX_CHARS: usize = 100;
pub const DESCRIPTION_MAX_CHARS: usize = 5000;
pub const TAG_MAX_CHARS: usize = 40;
pub const MAX_TAGS: usize = 24;
const INDUSTRY_PACK_MAX_CHARS: usize = 32;

/// Industry packs the platform knows; any other lower-case slug is accepted too, for merchant-defined packs.
pub const KNOWN_INDUSTRY_PACKS: [&str; 8] = [
    "general",
    "retail",
    "restaurant",
    "apparel",
    "grocery",
    "electronics",
    "services",
    "digital",
];
pub const DEFAULT_INDUSTRY_PACK: &str = "general";

/// Trimmed, 1..=max characters, no control characters.
pub fn printable(field: &str, text: &str, max_chars: usize) -> Result<String, FieldError> {
    let trimmed = text.trim();
    let length = trimmed.chars().count();
    if length == 0 || length > max_chars {
        return Err(FieldError::new(
            field,
            format!("must be 1 to {max_chars} characters"),
        ));
    }
    if trimmed.chars().any(char::is_control) {
        return Err(FieldError::new(field, "must not contain control characters"));
    }
    Ok(trimmed.to_owned())
}

/// Trimmed, 0..=max characters; absent means empty. Line breaks and tabs are allowed only when `multiline`.
pub fn optional(
    field: &str,
    text: Option<&str>,
    max_chars: usize,
    multiline: bool,
) -> Result<String, FieldError> {
    let trimmed = text.unwrap_or_default().trim();
    if trimmed.chars().count() > max_chars {
        return Err(FieldError::new(
            field,
            format!("must be at most {max_chars} characters"),
        ));
    }
    let allowed = |c: char| !c.is_control() || (multiline && matches!(c, '\n' | '\r' | '\t'));
    if !trimmed.chars().all(allowed) {
        return Err(FieldError::new(field, "must not contain control characters"));
    }
    Ok(trimmed.to_owned())
}

/// Only USD exists for now; any case is accepted and stored as `USD`.
pub fn currency(text: Option<&str>) -> Result<String, FieldError> {
    match text.map(str::trim) {
        None => Ok("USD".to_owned()),
        Some(code) if code.eq_ignore_ascii_case("USD") => Ok("USD".to_owned()),
        Some(_) => Err(FieldError::new("currency", "only USD is supported")),
    }
}

/// -1 = unlimited, 0 = out of stock, >0 = available quantity.
pub fn stock_qty(quantity: i64) -> Result<i64, FieldError> {
    if quantity < -1 {
        return Err(FieldError::new(
            "stockQty",
            "must be -1 (unlimited) or a quantity >= 0",
        ));
    }
    Ok(quantity)
}

/// Each tag trimmed, 1..=40 characters; duplicates (ignoring case) dropped, keeping the first spelling.
pub fn tags(tags: Vec<String>) -> Result<Vec<String>, FieldError> {
    let mut kept: Vec<String> = Vec::with_capacity(tags.len());
    for (index, tag) in tags.iter().enumerate() {
        let tag = printable(&format!("tags[{index}]"), tag, TAG_MAX_CHARS)?;
        if !kept
            .iter()
            .any(|existing| existing.to_lowercase() == tag.to_lowercase())
        {
            kept.push(tag);
        }
    }
    if kept.len() > MAX_TAGS {
        return Err(FieldError::new(
            "tags",
            format!("at most {MAX_TAGS} distinct tags are allowed"),
        ));
    }
    Ok(kept)
}

/// `US`, `US-CA`: two upper-case letters, optionally `-` and 1 to 3 upper-case letters or digits (ISO 3166-2).
pub fn jurisdiction_code(field: &str, code: &str) -> Result<String, FieldError> {
    let error = || FieldError::new(field, "must look like US or US-CA (upper-case ISO 3166 code)");
    let (country, subdivision) = match code.split_once('-') {
        Some((country, subdivision)) => (country, Some(subdivision)),
        None => (code, None),
    };
    if !is_country_code(country) {
        return Err(error());
    }
    if let Some(subdivision) = subdivision {
        let valid = (1..=3).contains(&subdivision.len())
            && subdivision
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit());
        if !valid {
            return Err(error());
        }
    }
    Ok(code.to_owned())
}

/// Two upper-case ASCII letters.
pub fn is_country_code(code: &str) -> bool {
    code.len() == 2 && code.bytes().all(|b| b.is_ascii_uppercase())
}

/// A known pack or a slug: a letter, then letters, digits or `-`, up to 32, lower-cased.
pub fn industry_pack(field: &str, pack: Option<&str>) -> Result<String, FieldError> {
    let Some(pack) = pack else {
        return Ok(DEFAULT_INDUSTRY_PACK.to_owned());
    };
    let slug = pack.trim().to_ascii_lowercase();
    let valid = slug.len() <= INDUSTRY_PACK_MAX_CHARS
        && slug.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
        && slug
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if !valid {
        let known = KNOWN_INDUSTRY_PACKS.join(", ");
        return Err(FieldError::new(
            field,
            format!(
                "must be one of {known} or a slug of up to {INDUSTRY_PACK_MAX_CHARS} letters, digits and '-'"
            ),
        ));
    }
    Ok(slug)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_trimmed_and_deduplicated_ignoring_case() {
        let tags = tags(vec![" Red ".to_owned(), "red".to_owned(), "blue".to_owned()]).unwrap();

        assert_eq!(tags, vec!["Red".to_owned(), "blue".to_owned()]);
    }

    #[test]
    fn jurisdiction_codes_follow_iso_3166() {
        assert!(jurisdiction_code("j", "US").is_ok());
        assert!(jurisdiction_code("j", "US-CA").is_ok());
        assert!(jurisdiction_code("j", "GB-LND").is_ok());
        for bad in ["us-ca", "USA", "US-", "US-CALI", "U", "US_CA", ""] {
            assert!(jurisdiction_code("j", bad).is_err(), "{bad} should be refused");
        }
    }

    #[test]
    fn industry_packs_are_known_names_or_slugs() {
        assert_eq!(industry_pack("p", None).unwrap(), "general");
        assert_eq!(industry_pack("p", Some("Retail")).unwrap(), "retail");
        assert_eq!(industry_pack("p", Some("craft-beer")).unwrap(), "craft-beer");
        assert!(industry_pack("p", Some("craft beer")).is_err());
        assert!(industry_pack("p", Some("-x")).is_err());
    }
}
