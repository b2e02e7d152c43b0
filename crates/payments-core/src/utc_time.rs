//! Unix times as ISO 8601 UTC text, for the wire fields the spec types as ISO strings and for people reading
//! the CLI. UTC only: a local offset would need a time-zone database, and a `Z` time reads the same anywhere.

/// A Unix ms time as `YYYY-MM-DDTHH:MM:SSZ` (whole seconds, proleptic Gregorian calendar).
///
/// ```
/// use payments_core::utc_iso8601;
/// assert_eq!(utc_iso8601(1_700_000_000_000), "2023-11-14T22:13:20Z");
/// ```
pub fn utc_iso8601(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let (days, day_secs) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Days since 1970-01-01 to a civil date (H. Hinnant's `civil_from_days`).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let (hour, minute, second) = (day_secs / 3600, day_secs % 3600 / 60, day_secs % 60);
    format!("{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}Z")
}

#[cfg(test)]
mod tests {
    use super::utc_iso8601;

    #[test]
    fn unix_ms_are_written_as_utc_dates() {
        assert_eq!(utc_iso8601(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc_iso8601(951_782_400_000), "2000-02-29T00:00:00Z");
        assert_eq!(utc_iso8601(1_735_689_599_999), "2024-12-31T23:59:59Z");
        assert_eq!(utc_iso8601(-1), "1969-12-31T23:59:59Z");
    }

    #[test]
    fn extreme_times_do_not_panic() {
        assert!(utc_iso8601(i64::MAX).ends_with('Z'));
        assert!(utc_iso8601(i64::MIN).ends_with('Z'));
    }
}
