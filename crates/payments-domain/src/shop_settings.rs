//! A shop-settings update as posted to `POST /api/shop/config`, parsed field by field.
//!
//! Absent fields keep their stored value; an empty string clears an optional text field. Unknown
//! fields are refused (a typo must not be silently ignored).

use payments_core::{FeePct, Jurisdiction, Wallet};
use url::Url;

use crate::field_error::FieldError;

const MAX_BRAND_NAME_CHARS: usize = 80;
const MAX_BRAND_KEY_CHARS: usize = 64;
const MAX_EMAIL_CHARS: usize = 254;
/// A logo data URL may be an inline image; bounded so shop config stays a small read.
const MAX_LOGO_URL_BYTES: usize = 512 * 1024;
const MAX_URL_BYTES: usize = 2048;
const MAX_JURISDICTIONS: usize = 100;
const MAX_CODE_CHARS: usize = 32;

/// The settings as sent, before [`ShopConfigUpdate::try_from`] checks them.
#[derive(Debug)]
pub struct ShopConfigRequest {
    /// Only a platform admin may name a wallet other than its own.
    pub wallet: Option<Wallet>,
    pub brand_name: Option<String>,
    pub processing_fee_pct: Option<serde_json::Number>,
    pub brand_key: Option<String>,
    pub support_email: Option<String>,
    pub logo_url: Option<String>,
    pub redirect_url: Option<String>,
    pub jurisdictions: Option<Vec<Jurisdiction>>,
    pub default_jurisdiction: Option<String>,
}

/// `None` keeps the stored value; `Some(None)` clears an optional field.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShopConfigUpdate {
    pub brand_name: Option<String>,
    pub processing_fee_pct: Option<FeePct>,
    pub brand_key: Option<Option<String>>,
    pub support_email: Option<Option<String>>,
    pub logo_url: Option<Option<String>>,
    pub redirect_url: Option<Option<String>>,
    pub jurisdictions: Option<Vec<Jurisdiction>>,
    /// Checked against the merchant's jurisdictions and the catalog by the service.
    pub default_jurisdiction: Option<Option<String>>,
}

impl TryFrom<ShopConfigRequest> for ShopConfigUpdate {
    type Error = FieldError;

    fn try_from(request: ShopConfigRequest) -> Result<Self, FieldError> {
        Ok(ShopConfigUpdate {
            brand_name: request.brand_name.map(brand_name).transpose()?,
            processing_fee_pct: request
                .processing_fee_pct
                .map(|pct| parse_add_on("processingFeePct", &pct))
                .transpose()?,
            brand_key: request
                .brand_key
                .map(|key| clearable(key, brand_key))
                .transpose()?,
            support_email: request
                .support_email
                .map(|email| clearable(email, support_email))
                .transpose()?,
            logo_url: request.logo_url.map(|url| clearable(url, logo_url)).transpose()?,
            redirect_url: request
                .redirect_url
                .map(|url| clearable(url, redirect_url))
                .transpose()?,
            jurisdictions: request.jurisdictions.map(jurisdictions).transpose()?,
            default_jurisdiction: request
                .default_jurisdiction
                .map(|code| clearable(code, Ok))
                .transpose()?,
        })
    }
}

/// The merchant add-on: an exact decimal percentage between 0 and 10.
pub fn parse_add_on(field: &str, number: &serde_json::Number) -> Result<FeePct, FieldError> {
    FeePct::parse_merchant_add_on(&number.to_string())
        .map_err(|error| FieldError::new(field, error.to_string()))
}

fn clearable(
    text: String,
    parse: impl FnOnce(String) -> Result<String, FieldError>,
) -> Result<Option<String>, FieldError> {
    if text.is_empty() {
        Ok(None)
    } else {
        parse(text).map(Some)
    }
}

fn brand_name(name: String) -> Result<String, FieldError> {
    let trimmed = name.trim();
    let chars = trimmed.chars().count();
    if chars == 0 || chars > MAX_BRAND_NAME_CHARS {
        return Err(FieldError::new(
            "brandName",
            format!("must be 1 to {MAX_BRAND_NAME_CHARS} characters"),
        ));
    }
    Ok(trimmed.to_owned())
}

/// A slug: lower-case letters, digits and inner hyphens (it names the shop in webhook bodies).
fn brand_key(key: String) -> Result<String, FieldError> {
    let valid = key.len() <= MAX_BRAND_KEY_CHARS
        && key
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !key.starts_with('-')
        && !key.ends_with('-');
    if valid {
        Ok(key)
    } else {
        Err(FieldError::new(
            "brandKey",
            format!(
                "must be a slug of up to {MAX_BRAND_KEY_CHARS} lower-case letters, digits and inner hyphens"
            ),
        ))
    }
}

/// A plausibility check only (one `@`, a dotted domain, no spaces); delivery proves the rest.
fn support_email(email: String) -> Result<String, FieldError> {
    let valid = email.len() <= MAX_EMAIL_CHARS
        && !email.chars().any(char::is_whitespace)
        && email.split_once('@').is_some_and(|(local, domain)| {
            !local.is_empty() && domain.contains('.') && !domain.contains('@')
        });
    if valid {
        Ok(email)
    } else {
        Err(FieldError::new("supportEmail", "must be an email address"))
    }
}

fn logo_url(url: String) -> Result<String, FieldError> {
    if url.len() > MAX_LOGO_URL_BYTES {
        return Err(FieldError::new(
            "logoUrl",
            format!("must be at most {MAX_LOGO_URL_BYTES} bytes"),
        ));
    }
    if url.starts_with("data:image/") || https(&url) {
        Ok(url)
    } else {
        Err(FieldError::new(
            "logoUrl",
            "must be an https URL or an image data URL",
        ))
    }
}

fn redirect_url(url: String) -> Result<String, FieldError> {
    if url.len() <= MAX_URL_BYTES && https(&url) {
        Ok(url)
    } else {
        Err(FieldError::new("redirectUrl", "must be an https URL"))
    }
}

fn https(url: &str) -> bool {
    Url::parse(url).is_ok_and(|url| url.scheme() == "https" && url.host().is_some())
}

/// Codes unique (case-insensitively) and well-formed, components unique within a jurisdiction, and
/// the full rate (the sum of the components) at most 1. Component rates are 0..=1 by their type.
fn jurisdictions(list: Vec<Jurisdiction>) -> Result<Vec<Jurisdiction>, FieldError> {
    if list.len() > MAX_JURISDICTIONS {
        return Err(FieldError::new(
            "jurisdictions",
            format!("at most {MAX_JURISDICTIONS} jurisdictions"),
        ));
    }
    for (index, jurisdiction) in list.iter().enumerate() {
        let field = format!("jurisdictions[{index}]");
        if !code_is_valid(&jurisdiction.code) {
            return Err(FieldError::new(
                format!("{field}.code"),
                format!("must be 1 to {MAX_CODE_CHARS} letters, digits, '-' or '_'"),
            ));
        }
        if list[..index]
            .iter()
            .any(|earlier| earlier.code.eq_ignore_ascii_case(&jurisdiction.code))
        {
            return Err(FieldError::new(
                format!("{field}.code"),
                format!("{} appears more than once", jurisdiction.code),
            ));
        }
        check_components(&field, jurisdiction)?;
    }
    Ok(list)
}

fn check_components(field: &str, jurisdiction: &Jurisdiction) -> Result<(), FieldError> {
    for (index, component) in jurisdiction.components.iter().enumerate() {
        let earlier = &jurisdiction.components[..index];
        if !code_is_valid(&component.code)
            || earlier
                .iter()
                .any(|c| c.code.eq_ignore_ascii_case(&component.code))
        {
            return Err(FieldError::new(
                format!("{field}.components[{index}].code"),
                "must be a unique code of letters, digits, '-' or '_'",
            ));
        }
    }
    jurisdiction
        .rate(None)
        .map(|_| ())
        .map_err(|_| FieldError::new(format!("{field}.components"), "rates add up to more than 1"))
}

fn code_is_valid(code: &str) -> bool {
    !code.is_empty()
        && code.len() <= MAX_CODE_CHARS
        && code
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}
