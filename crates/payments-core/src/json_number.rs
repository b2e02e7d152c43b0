//! Exact JSON numbers: a JSON decoder reads a number with a fraction or an exponent as a binary float, so
//! `19.9900000000000000001` arrives as `19.99` and a tax rate `0.99999999999999999999` as `1`, silently
//! rounded before any amount or rate parser sees it. [`first_inexact_number`] finds, in the raw JSON text,
//! the first number a float cannot carry exactly as written, so the edge refuses the body instead.

use rust_decimal::Decimal;

/// The text of the first number in `json` that does not read back as written once decoded into a binary
/// float (`f64`), or `None` when every number does. Integers without fraction or exponent that fit 64 bits are exact
/// (decoders read them as integers). Numbers inside strings are not numbers and are skipped.
///
/// The scan does not check that `json` is well formed; the decoder that runs next does.
///
/// ```
/// use payments_core::first_inexact_number;
///
/// assert_eq!(first_inexact_number(br#"{"priceUsd": 19.99}"#), None);
/// assert_eq!(
///     first_inexact_number(br#"{"priceUsd": 19.9900000000000000001}"#).as_deref(),
///     Some("19.9900000000000000001")
/// );
/// assert_eq!(first_inexact_number(br#"{"note": "19.9900000000000000001"}"#), None);
/// ```
pub fn first_inexact_number(json: &[u8]) -> Option<String> {
    let mut index = 0;
    let mut in_string = false;
    while let Some(&byte) = json.get(index) {
        if in_string {
            match byte {
                b'\\' => index += 1,
                b'"' => in_string = false,
                _ => {}
            }
            index += 1;
            continue;
        }
        if byte == b'"' {
            in_string = true;
            index += 1;
            continue;
        }
        if byte == b'-' || byte.is_ascii_digit() {
            let start = index;
            while json
                .get(index)
                .is_some_and(|b| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E'))
            {
                index += 1;
            }
            let text = String::from_utf8_lossy(json.get(start..index).unwrap_or_default());
            if !is_exact(&text) {
                return Some(text.into_owned());
            }
            continue;
        }
        index += 1;
    }
    None
}

/// Whether the number `text` reads into a float (or a 64-bit integer) without losing anything.
fn is_exact(text: &str) -> bool {
    let is_integer = !text.contains(['.', 'e', 'E']);
    if is_integer && (text.parse::<u64>().is_ok() || text.parse::<i64>().is_ok()) {
        return true;
    }
    let Ok(float) = text.parse::<f64>() else {
        // Not a number at all: the decoder refuses it with a better message.
        return true;
    };
    if !float.is_finite() {
        return false;
    }
    // Display of an f64 is the shortest text that reads back to the same float.
    match (decimal(text), decimal(&float.to_string())) {
        (Some(written), Some(read)) => written == read,
        // Beyond 28 significant digits or the decimal range: a float cannot carry it as written either.
        _ => false,
    }
}

fn decimal(text: &str) -> Option<Decimal> {
    if text.contains(['e', 'E']) {
        Decimal::from_scientific(text).ok()
    } else {
        Decimal::from_str_exact(text).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_and_rates_a_float_holds_exactly_pass() {
        for json in [
            r#"{"a": 19.99, "b": 0.0825, "c": 1, "d": -1, "e": 1.5e2, "f": 0, "g": 0.1}"#,
            r#"[18446744073709551615, -9223372036854775808, 2.50, 100.00]"#,
        ] {
            assert_eq!(first_inexact_number(json.as_bytes()), None, "{json}");
        }
    }

    #[test]
    fn digits_beyond_what_a_float_carries_are_named() {
        let cases = [
            (
                r#"{"priceUsd": 19.9900000000000000001}"#,
                "19.9900000000000000001",
            ),
            (r#"{"taxRate": 0.99999999999999999999}"#, "0.99999999999999999999"),
            (r#"[1, 18446744073709551616]"#, "18446744073709551616"),
            (r#"{"x": 1e400}"#, "1e400"),
        ];
        for (json, expected) in cases {
            assert_eq!(
                first_inexact_number(json.as_bytes()).as_deref(),
                Some(expected),
                "{json}"
            );
        }
    }

    #[test]
    fn numbers_inside_strings_and_escapes_are_skipped() {
        let json = br#"{"id": "a\"19.9900000000000000001", "n": 2}"#;

        assert_eq!(first_inexact_number(json), None);
    }
}
