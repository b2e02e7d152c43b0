//! The writes a signed-in wallet makes about itself: its profile (`PUT /api/users/me`), heartbeats and
//! follows. Parsed here, so the store receives only valid, normalized values.

use payments_core::Wallet;
use url::Url;

use crate::field_error::FieldError;
use crate::inventory::text;
use crate::user::{LIVE_WINDOW_MS, MetricKind};

/// Longest display name, in characters.
pub(super) const MAX_DISPLAY_NAME_CHARS: usize = 64;
/// Most entries of each metric list (domains, platforms, languages).
pub(super) const MAX_METRICS: usize = 16;
/// Longest metric, in characters.
pub(super) const MAX_METRIC_CHARS: usize = 32;
/// Longest profile picture or space URL, in bytes (the server's URL limit).
pub(super) const MAX_URL_BYTES: usize = 2048;

/// `PUT /api/users/me`: the whole profile as sent (absent optional fields are cleared), before [`Self::parse`].
#[derive(Debug, Default)]
pub struct ProfileRequest {
    pub display_name: Option<String>,
    pub pfp_url: Option<String>,
    pub space_url: Option<String>,
    pub domains: Option<Vec<String>>,
    pub platforms: Option<Vec<String>>,
    pub languages: Option<Vec<String>>,
}

/// A validated profile of `wallet`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProfileUpdate {
    pub wallet: Wallet,
    pub display_name: String,
    pub pfp_url: Option<String>,
    pub space_url: Option<String>,
    pub domains: Vec<String>,
    pub platforms: Vec<String>,
    pub languages: Vec<String>,
    pub now_ms: i64,
}

impl ProfileRequest {
    pub fn parse(self, wallet: Wallet, now_ms: i64) -> Result<ProfileUpdate, FieldError> {
        let display_name = self
            .display_name
            .ok_or_else(|| FieldError::new("displayName", "is required"))?;
        Ok(ProfileUpdate {
            wallet,
            display_name: text::printable("displayName", &display_name, MAX_DISPLAY_NAME_CHARS)?,
            pfp_url: https_url("pfpUrl", self.pfp_url)?,
            space_url: https_url("spaceUrl", self.space_url)?,
            domains: metric_list(MetricKind::Domain, self.domains.unwrap_or_default())?,
            platforms: metric_list(MetricKind::Platform, self.platforms.unwrap_or_default())?,
            languages: metric_list(MetricKind::Language, self.languages.unwrap_or_default())?,
            now_ms,
        })
    }
}

/// An https URL with a host, or `None` for absent or empty.
fn https_url(field: &str, url: Option<String>) -> Result<Option<String>, FieldError> {
    let Some(url) = url.map(|url| url.trim().to_owned()).filter(|url| !url.is_empty()) else {
        return Ok(None);
    };
    if url.len() > MAX_URL_BYTES {
        return Err(FieldError::new(
            field,
            format!("must be at most {MAX_URL_BYTES} bytes"),
        ));
    }
    match Url::parse(&url) {
        Ok(parsed) if parsed.scheme() == "https" && parsed.host().is_some() => Ok(Some(url)),
        _ => Err(FieldError::new(field, "must be an https URL")),
    }
}

/// Trimmed, lower-cased, unique (first occurrence kept), at most [`MAX_METRICS`] entries of
/// 1..=[`MAX_METRIC_CHARS`] characters without commas (the search's separator) or control characters.
pub(super) fn metric_list(kind: MetricKind, values: Vec<String>) -> Result<Vec<String>, FieldError> {
    let field = kind.field();
    if values.len() > MAX_METRICS {
        return Err(FieldError::new(field, format!("at most {MAX_METRICS} entries")));
    }
    let mut normalized: Vec<String> = Vec::with_capacity(values.len());
    for (index, value) in values.iter().enumerate() {
        let name = format!("{field}[{index}]");
        let value = text::printable(&name, value, MAX_METRIC_CHARS)?.to_lowercase();
        if value.contains(',') {
            return Err(FieldError::new(name, "must not contain a comma"));
        }
        if !normalized.contains(&value) {
            normalized.push(value);
        }
    }
    Ok(normalized)
}

/// `POST /api/users/heartbeat` as sent, before [`Self::parse`].
#[derive(Debug, Default)]
pub struct HeartbeatRequest {
    pub live: Option<bool>,
    pub space_public: Option<bool>,
    pub platform: Option<String>,
}

/// A validated heartbeat of `wallet`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heartbeat {
    pub wallet: Wallet,
    pub live: bool,
    pub space_public: bool,
    /// The platform the user is live on, when it says.
    pub platform: Option<String>,
    pub now_ms: i64,
}

impl HeartbeatRequest {
    pub fn parse(self, wallet: Wallet, now_ms: i64) -> Result<Heartbeat, FieldError> {
        let live = self.live.ok_or_else(|| FieldError::new("live", "is required"))?;
        let space_public = self
            .space_public
            .ok_or_else(|| FieldError::new("spacePublic", "is required"))?;
        let platform = self
            .platform
            .filter(|platform| !platform.trim().is_empty())
            .map(|platform| {
                text::printable("platform", &platform, MAX_METRIC_CHARS).map(|value| value.to_lowercase())
            })
            .transpose()?;
        Ok(Heartbeat {
            wallet,
            live,
            space_public,
            platform,
            now_ms,
        })
    }
}

/// When the live session of a user that sends `beat` started: kept while the user stays live without a gap
/// longer than the live window, restarted at `beat.now_ms` otherwise, and `None` once it is not live.
pub fn next_live_since(
    beat: &Heartbeat,
    previous_beat: Option<i64>,
    previous_since: Option<i64>,
) -> Option<i64> {
    if !beat.live {
        return None;
    }
    let continuing = previous_beat.is_some_and(|at| at >= beat.now_ms.saturating_sub(LIVE_WINDOW_MS));
    match previous_since {
        Some(since) if continuing => Some(since),
        _ => Some(beat.now_ms),
    }
}

/// `POST` and `DELETE /api/users/follows` as sent, before [`Self::parse`].
#[derive(Debug, Default)]
pub struct FollowRequest {
    pub wallet: Option<String>,
}

impl FollowRequest {
    /// The followed wallet; following oneself is refused.
    pub fn parse(self, follower: Wallet) -> Result<Wallet, FieldError> {
        let text = self
            .wallet
            .filter(|wallet| !wallet.trim().is_empty())
            .ok_or_else(|| FieldError::new("wallet", "is required"))?;
        let followed =
            Wallet::parse(text.trim()).map_err(|error| FieldError::new("wallet", error.to_string()))?;
        if followed == follower {
            return Err(FieldError::new("wallet", "a user cannot follow itself"));
        }
        Ok(followed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wallet() -> Wallet {
        Wallet::parse("0x2222222222222222222222222222222222222222").unwrap()
    }

    fn beat(live: bool, now_ms: i64) -> Heartbeat {
        Heartbeat {
            wallet: wallet(),
            live,
            space_public: true,
            platform: None,
            now_ms,
        }
    }

    #[test]
    fn metrics_are_trimmed_lower_cased_and_deduplicated() {
        let parsed = metric_list(
            MetricKind::Language,
            vec![" EN ".to_owned(), "en".to_owned(), "Fr".to_owned()],
        )
        .unwrap();

        assert_eq!(parsed, ["en", "fr"]);
    }

    #[test]
    fn a_metric_with_a_comma_or_too_many_metrics_are_refused() {
        let comma = metric_list(MetricKind::Domain, vec!["a,b".to_owned()]).unwrap_err();
        assert_eq!(comma.field, "domains[0]");
        let many = metric_list(MetricKind::Domain, vec!["x".to_owned(); MAX_METRICS + 1]).unwrap_err();
        assert_eq!(many.field, "domains");
    }

    #[test]
    fn a_live_session_survives_gaps_shorter_than_the_window_only() {
        let start = 1_000_000;
        assert_eq!(next_live_since(&beat(true, start), None, None), Some(start));
        let soon = start + LIVE_WINDOW_MS;
        assert_eq!(
            next_live_since(&beat(true, soon), Some(start), Some(start)),
            Some(start)
        );
        let late = soon + LIVE_WINDOW_MS + 1;
        assert_eq!(
            next_live_since(&beat(true, late), Some(soon), Some(start)),
            Some(late)
        );
        assert_eq!(next_live_since(&beat(false, late), Some(soon), Some(start)), None);
    }

    #[test]
    fn following_oneself_is_refused() {
        let request = FollowRequest {
            wallet: Some(wallet().to_string()),
        };

        assert_eq!(request.parse(wallet()).unwrap_err().field, "wallet");
    }
}
