//! Token amounts for people: dollars with at least two decimals and as many more as the amount has
//! (`7.75`, `0.03875`), never rounded.

use payments_core::TokenAmount;

const UNITS_PER_USD: u128 = 1_000_000;

/// `7_711_250` base units as `7.71125`.
pub(crate) fn usd_text(amount: TokenAmount) -> String {
    let units = amount.base_units();
    let (dollars, fraction) = (units / UNITS_PER_USD, units % UNITS_PER_USD);
    let digits = format!("{fraction:06}");
    let kept = digits.trim_end_matches('0');
    let kept = if kept.len() < 2 { &digits[..2] } else { kept };
    format!("{dollars}.{kept}")
}

#[cfg(test)]
mod tests {
    use super::usd_text;
    use payments_core::TokenAmount;

    #[test]
    fn amounts_keep_every_decimal_they_have_and_at_least_two() {
        let text = |units| usd_text(TokenAmount::from_base_units(units));
        assert_eq!(text(0), "0.00");
        assert_eq!(text(7_750_000), "7.75");
        assert_eq!(text(7_711_250), "7.71125");
        assert_eq!(text(38_750), "0.03875");
        assert_eq!(text(1), "0.000001");
        assert_eq!(text(12_000_000), "12.00");
    }
}
