//! `GET /api/users/search` and `GET /api/users/live` query parameters, with the spec's defaults and clamps.
//!
//! Numbers are clamped where the spec says "clamped" (`limit`, `scan`) and refused where it states a
//! bound (`minXp`, `maxXp` >= 0); something that is not a number is a 400 `invalid_input` either way.

use payments_core::Wallet;

use crate::field_error::FieldError;
use crate::user::{LIVE_WINDOW_MS, MetricKind};

pub(super) const DEFAULT_LIMIT: u32 = 25;
/// The most users one search (or live listing, or GraphQL page) returns.
pub(super) const MAX_LIMIT: u32 = 100;
pub(super) const DEFAULT_SCAN: u32 = 400;
pub(super) const MAX_SCAN: u32 = 1000;
/// Longest `q`, in characters (a wallet is 42).
pub(super) const MAX_Q_CHARS: usize = 100;
/// Most values one metric filter may name (a profile has at most 16 of each).
pub(super) const MAX_FILTER_VALUES: usize = 16;
/// The longest query string read (4 KiB, like the inventory list).
pub(super) const MAX_QUERY_BYTES: usize = 4096;

/// A parsed search. Text is lower-cased here; the store compares lower-cased values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserSearch {
    /// Matched as a substring of the wallet (lower-case hex) or of the lower-cased display name.
    pub q: Option<String>,
    /// Every (kind, value) the user must have.
    pub metrics: Vec<(MetricKind, String)>,
    pub min_xp: i64,
    pub max_xp: i64,
    /// `live=true`: only users declared live with a public space and heard from at or after this time.
    pub live_after_ms: Option<i64>,
    pub limit: u32,
    /// How many users (in xp order, within the xp bounds) are read before the other filters are applied.
    pub scan: u32,
}

impl UserSearch {
    /// The leaderboard: the `first` users with the most xp.
    pub fn top(first: u32) -> Self {
        UserSearch {
            q: None,
            metrics: Vec::new(),
            min_xp: 0,
            max_xp: i64::MAX,
            live_after_ms: None,
            limit: first,
            scan: first,
        }
    }

    /// `query_bytes` is the raw query string's length; `param(name)` a parameter's value.
    pub fn parse<'a>(
        query_bytes: usize,
        param: impl Fn(&str) -> Option<&'a str>,
        now_ms: i64,
    ) -> Result<Self, FieldError> {
        if query_bytes > MAX_QUERY_BYTES {
            return Err(FieldError::new(
                "query",
                format!("the query string is {query_bytes} bytes; at most {MAX_QUERY_BYTES} are read"),
            ));
        }
        let get = |name: &str| param(name).map(str::trim).filter(|value| !value.is_empty());
        let q = get("q").map(query_text).transpose()?;
        let mut metrics = Vec::new();
        for kind in MetricKind::ALL {
            if let Some(list) = get(kind.field()) {
                metrics.extend(metric_filter(kind, list)?);
            }
        }
        let limit = get("limit").map_or(Ok(DEFAULT_LIMIT), |text| clamped("limit", text, 1, MAX_LIMIT))?;
        let scan = get("scan").map_or(Ok(DEFAULT_SCAN.max(limit)), |text| {
            clamped("scan", text, limit, MAX_SCAN)
        })?;
        let live = get("live").map(|text| boolean("live", text)).transpose()?;
        Ok(UserSearch {
            q,
            metrics,
            min_xp: get("minXp").map_or(Ok(0), |text| xp("minXp", text, Round::Up))?,
            max_xp: get("maxXp").map_or(Ok(i64::MAX), |text| xp("maxXp", text, Round::Down))?,
            live_after_ms: live
                .unwrap_or(false)
                .then(|| now_ms.saturating_sub(LIVE_WINDOW_MS)),
            limit,
            scan,
        })
    }
}

/// `GET /api/users/live`: users heard from at or after `after_ms`, at most `limit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LiveQuery {
    pub after_ms: i64,
    pub limit: u32,
}

impl LiveQuery {
    /// `limit`: clamped to 1..=[`MAX_LIMIT`], default [`MAX_LIMIT`].
    pub fn parse(limit: Option<&str>, now_ms: i64) -> Result<Self, FieldError> {
        let limit = limit
            .map(str::trim)
            .filter(|text| !text.is_empty())
            .map_or(Ok(MAX_LIMIT), |text| clamped("limit", text, 1, MAX_LIMIT))?;
        Ok(LiveQuery::within_window(now_ms, limit))
    }

    /// Live users at `now_ms`, at most `limit`.
    pub fn within_window(now_ms: i64, limit: u32) -> Self {
        LiveQuery {
            after_ms: now_ms.saturating_sub(LIVE_WINDOW_MS),
            limit,
        }
    }
}

fn query_text(text: &str) -> Result<String, FieldError> {
    if text.chars().count() > MAX_Q_CHARS {
        return Err(FieldError::new(
            "q",
            format!("must be at most {MAX_Q_CHARS} characters"),
        ));
    }
    // A checksummed or upper-case wallet finds the same user as its lower-case form.
    Ok(Wallet::parse(text).map_or_else(|_| text.to_lowercase(), |wallet| wallet.to_string()))
}

/// Comma-separated, trimmed, lower-cased; empty entries ignored.
fn metric_filter(kind: MetricKind, text: &str) -> Result<Vec<(MetricKind, String)>, FieldError> {
    let values: Vec<(MetricKind, String)> = text
        .split(',')
        .map(str::trim)
        .filter(|value| !value.is_empty())
        .map(|value| (kind, value.to_lowercase()))
        .collect();
    if values.len() > MAX_FILTER_VALUES {
        return Err(FieldError::new(
            kind.field(),
            format!("at most {MAX_FILTER_VALUES} values"),
        ));
    }
    Ok(values)
}

fn boolean(field: &str, text: &str) -> Result<bool, FieldError> {
    match text.to_ascii_lowercase().as_str() {
        "true" | "1" => Ok(true),
        "false" | "0" => Ok(false),
        _ => Err(FieldError::new(field, "must be true or false")),
    }
}

/// A decimal number as written (`-3`, `12`, `2.5`): sign, whole part, whether a fraction is non-zero.
struct Number {
    negative: bool,
    /// Saturates at `u64::MAX`.
    whole: u64,
    has_fraction: bool,
}

fn number(field: &str, text: &str) -> Result<Number, FieldError> {
    let not_a_number = || FieldError::new(field, "must be a number");
    let (negative, unsigned) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let (whole, fraction) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let digits = |part: &str| part.bytes().all(|byte| byte.is_ascii_digit());
    if whole.is_empty()
        || !digits(whole)
        || !digits(fraction)
        || (unsigned.contains('.') && fraction.is_empty())
    {
        return Err(not_a_number());
    }
    Ok(Number {
        negative,
        whole: whole.parse::<u64>().unwrap_or(u64::MAX),
        has_fraction: fraction.bytes().any(|byte| byte != b'0'),
    })
}

/// A number clamped into `min..=max` (fractions dropped).
fn clamped(field: &str, text: &str, min: u32, max: u32) -> Result<u32, FieldError> {
    let number = number(field, text)?;
    if number.negative {
        return Ok(min);
    }
    Ok(u32::try_from(number.whole).unwrap_or(u32::MAX).clamp(min, max))
}

#[derive(Debug, Clone, Copy)]
enum Round {
    Up,
    Down,
}

/// An xp bound >= 0; xp are whole, so a fractional minimum rounds up and a fractional maximum down.
fn xp(field: &str, text: &str, round: Round) -> Result<i64, FieldError> {
    let number = number(field, text)?;
    if number.negative && (number.whole > 0 || number.has_fraction) {
        return Err(FieldError::new(field, "must be >= 0"));
    }
    let whole = i64::try_from(number.whole).unwrap_or(i64::MAX);
    Ok(match round {
        Round::Up if number.has_fraction => whole.saturating_add(1),
        Round::Up | Round::Down => whole,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_700_000_000_000;

    fn search(query: &[(&str, &str)]) -> Result<UserSearch, FieldError> {
        UserSearch::parse(
            0,
            |name| {
                query
                    .iter()
                    .find(|(key, _)| *key == name)
                    .map(|(_, value)| *value)
            },
            NOW,
        )
    }

    #[test]
    fn defaults_are_the_specs() {
        let parsed = search(&[]).unwrap();

        assert_eq!((parsed.limit, parsed.scan), (25, 400));
        assert_eq!((parsed.min_xp, parsed.max_xp), (0, i64::MAX));
        assert_eq!(parsed.live_after_ms, None);
    }

    #[test]
    fn limit_and_scan_are_clamped() {
        let cases = [
            (("0", "1"), (1, 1)),
            (("-5", "5000"), (1, 1000)),
            (("250", "10"), (100, 100)),
            (("7.9", "99999999999999999999"), (7, 1000)),
        ];
        for ((limit, scan), expected) in cases {
            let parsed = search(&[("limit", limit), ("scan", scan)]).unwrap();
            assert_eq!((parsed.limit, parsed.scan), expected, "limit={limit} scan={scan}");
        }
    }

    #[test]
    fn numbers_that_are_not_numbers_are_refused() {
        for (name, value) in [("limit", "ten"), ("scan", "1e3"), ("minXp", "5."), ("maxXp", "x")] {
            assert_eq!(search(&[(name, value)]).unwrap_err().field, name);
        }
    }

    #[test]
    fn xp_bounds_must_not_be_negative_and_round_inward() {
        assert_eq!(search(&[("minXp", "-1")]).unwrap_err().field, "minXp");
        assert_eq!(search(&[("maxXp", "-0.5")]).unwrap_err().field, "maxXp");
        let parsed = search(&[("minXp", "1.5"), ("maxXp", "9.9")]).unwrap();
        assert_eq!((parsed.min_xp, parsed.max_xp), (2, 9));
    }

    #[test]
    fn live_true_means_heard_from_within_two_minutes() {
        let parsed = search(&[("live", "true")]).unwrap();
        assert_eq!(parsed.live_after_ms, Some(NOW - 120_000));
        assert_eq!(search(&[("live", "false")]).unwrap().live_after_ms, None);
        assert_eq!(search(&[("live", "yes")]).unwrap_err().field, "live");
    }

    #[test]
    fn metric_filters_are_lower_cased_and_q_finds_a_checksummed_wallet() {
        let parsed = search(&[
            ("languages", "EN, fr,"),
            ("q", "0x4A2Bd4f4A39EC4541baD64e197b26471523B7D41"),
        ])
        .unwrap();

        assert_eq!(
            parsed.metrics,
            [
                (MetricKind::Language, "en".to_owned()),
                (MetricKind::Language, "fr".to_owned())
            ]
        );
        assert_eq!(
            parsed.q.as_deref(),
            Some("0x4a2bd4f4a39ec4541bad64e197b26471523b7d41")
        );
    }
}
