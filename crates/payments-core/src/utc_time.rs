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

/// Reads a UTC time as written by [`utc_iso8601`] (`2024-02-29T13:05:00Z`) or a date alone (`2024-02-29`,
/// its midnight UTC) into Unix ms; `None` for anything else (other offsets, impossible dates, years past
/// 9999).
///
/// ```
/// use payments_core::{parse_utc_time, utc_iso8601};
/// assert_eq!(parse_utc_time("2023-11-14T22:13:20Z"), Some(1_700_000_000_000));
/// assert_eq!(parse_utc_time("1970-01-02"), Some(86_400_000));
/// assert_eq!(parse_utc_time("2023-02-29"), None);
/// ```
pub fn parse_utc_time(text: &str) -> Option<i64> {
    let (date, time) = match text.split_once('T') {
        Some((date, time)) => (date, Some(time.strip_suffix('Z')?)),
        None => (text, None),
    };
    let number = |part: &str, digits: usize| -> Option<i64> {
        (part.len() == digits && part.bytes().all(|b| b.is_ascii_digit())).then(|| part.parse().ok())?
    };
    let mut date_parts = date.split('-');
    let (year, month, day) = (
        number(date_parts.next()?, 4)?,
        number(date_parts.next()?, 2)?,
        number(date_parts.next()?, 2)?,
    );
    if date_parts.next().is_some()
        || !(1..=12).contains(&month)
        || day < 1
        || day > days_in_month(year, month)
    {
        return None;
    }
    let day_secs = match time {
        None => 0,
        Some(time) => {
            let mut time_parts = time.split(':');
            let (hour, minute, second) = (
                number(time_parts.next()?, 2)?,
                number(time_parts.next()?, 2)?,
                number(time_parts.next()?, 2)?,
            );
            if time_parts.next().is_some() || hour > 23 || minute > 59 || second > 59 {
                return None;
            }
            hour * 3600 + minute * 60 + second
        }
    };
    Some((days_from_civil(year, month, day) * 86_400 + day_secs) * 1000)
}

fn days_in_month(year: i64, month: i64) -> i64 {
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a civil date (H. Hinnant's `days_from_civil`, the inverse of the above).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let yoe = year.rem_euclid(400);
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::{parse_utc_time, utc_iso8601};

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

    #[test]
    fn written_times_read_back_to_the_same_ms() {
        for ms in [
            0,
            951_782_400_000,
            1_735_689_599_000,
            4_102_444_800_000,
            253_402_300_799_000,
        ] {
            assert_eq!(parse_utc_time(&utc_iso8601(ms)), Some(ms), "{}", utc_iso8601(ms));
        }
        assert_eq!(parse_utc_time("2000-02-29"), Some(951_782_400_000));
    }

    #[test]
    fn other_forms_of_time_are_refused() {
        for text in [
            "",
            "2024",
            "2024-13-01",
            "2024-00-10",
            "2023-02-29",
            "2024-04-31",
            "2024-1-01",
            "2024-01-01T24:00:00Z",
            "2024-01-01T10:00:00",
            "2024-01-01T10:00:00+02:00",
            "2024-01-01T10:00Z",
            "+2024-01-01",
            "2024-01-01-01",
            "１９７０-01-01",
        ] {
            assert_eq!(parse_utc_time(text), None, "{text:?}");
        }
    }
}
