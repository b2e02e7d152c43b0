//! User profiles as stored (`users`).

use super::{bad, json};
use payments_core::Wallet;
use payments_domain::user::{MetricKind, ProfileUpdate, User};

/// A `users` row as every user read selects it.
pub(crate) struct UserRow {
    pub(crate) wallet: String,
    pub(crate) display_name: String,
    pub(crate) pfp_url: Option<String>,
    pub(crate) space_url: Option<String>,
    pub(crate) domains_json: String,
    pub(crate) platforms_json: String,
    pub(crate) languages_json: String,
    pub(crate) xp: i64,
    pub(crate) live: bool,
    pub(crate) space_public: bool,
    pub(crate) live_since: Option<i64>,
    pub(crate) live_platform: Option<String>,
    pub(crate) last_heartbeat: Option<i64>,
    pub(crate) last_seen: Option<i64>,
}

impl UserRow {
    pub(crate) fn into_record(self) -> Result<User, String> {
        Ok(User {
            wallet: Wallet::parse(&self.wallet).map_err(|error| bad("wallet", error))?,
            display_name: self.display_name,
            pfp_url: self.pfp_url,
            space_url: self.space_url,
            domains: json("domains_json", &self.domains_json)?,
            platforms: json("platforms_json", &self.platforms_json)?,
            languages: json("languages_json", &self.languages_json)?,
            xp: self.xp,
            live: self.live,
            space_public: self.space_public,
            live_since: self.live_since,
            live_platform: self.live_platform,
            last_heartbeat: self.last_heartbeat,
            last_seen: self.last_seen,
        })
    }
}

/// The values a profile save stores, in the statement's order (`$1`..`$9`).
pub(crate) struct ProfileColumns<'a> {
    pub(crate) wallet: String,
    pub(crate) display_name: &'a str,
    /// The lower-cased name the directory sorts and searches by.
    pub(crate) name_key: String,
    pub(crate) pfp_url: Option<&'a str>,
    pub(crate) space_url: Option<&'a str>,
    pub(crate) domains_json: String,
    pub(crate) platforms_json: String,
    pub(crate) languages_json: String,
    pub(crate) now_ms: i64,
}

impl<'a> ProfileColumns<'a> {
    /// # Errors
    /// When a list cannot be serialized (plain strings always can).
    pub(crate) fn of(update: &'a ProfileUpdate) -> serde_json::Result<Self> {
        Ok(ProfileColumns {
            wallet: update.wallet.to_string(),
            display_name: &update.display_name,
            name_key: update.display_name.to_lowercase(),
            pfp_url: update.pfp_url.as_deref(),
            space_url: update.space_url.as_deref(),
            domains_json: serde_json::to_string(&update.domains)?,
            platforms_json: serde_json::to_string(&update.platforms)?,
            languages_json: serde_json::to_string(&update.languages)?,
            now_ms: update.now_ms,
        })
    }
}

/// The profile's metric rows, `(kind, value)`: one per domain, platform and language, kinds in
/// [`MetricKind::ALL`]'s order.
pub(crate) fn profile_metrics(update: &ProfileUpdate) -> impl Iterator<Item = (&'static str, &str)> {
    MetricKind::ALL.into_iter().flat_map(move |kind| {
        let values = match kind {
            MetricKind::Domain => &update.domains,
            MetricKind::Platform => &update.platforms,
            MetricKind::Language => &update.languages,
        };
        values.iter().map(move |value| (kind.as_str(), value.as_str()))
    })
}
