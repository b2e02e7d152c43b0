//! User discovery (`GET /api/users/search`, `/api/users/live`, `/api/users/{wallet}`, scope `users:read`)
//! and a signed-in wallet's own writes (`PUT /api/users/me`, `POST /api/users/heartbeat`,
//! `POST`/`DELETE /api/users/follows`, which take an [`AdminSession`]: any wallet may sign in).

use payments_core::Wallet;
use reqwest::Method;
use serde::{Deserialize, Serialize};
use url::Url;

use crate::client::{Auth, Client};
use crate::error::Error;
use crate::inventory::Degraded;
use crate::session::AdminSession;

mod writes;
pub use writes::{Heartbeat, ProfileUpdate};

/// A user as the search, the user route and the writes show it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct User {
    /// The user's wallet.
    pub wallet: Wallet,
    /// `""` when never set.
    #[serde(default)]
    pub display_name: String,
    /// `""` when never set.
    #[serde(default)]
    pub pfp_url: String,
    /// `""` when never set.
    #[serde(default)]
    pub space_url: String,
    /// Derived from the wallet's paid purchases: one per whole dollar, net of refunds.
    #[serde(default)]
    pub xp: i64,
    /// Declared live and heard from within the last 2 minutes.
    #[serde(default)]
    pub live: bool,
    /// Whether the user's space is public.
    #[serde(default)]
    pub space_public: bool,
    /// The last time the wallet wrote as itself, unix ms.
    #[serde(default)]
    pub last_seen: Option<i64>,
    /// The last heartbeat, unix ms.
    #[serde(default)]
    pub last_heartbeat: Option<i64>,
    /// Lower-cased.
    #[serde(default)]
    pub domains: Vec<String>,
    /// Lower-cased.
    #[serde(default)]
    pub platforms: Vec<String>,
    /// Lower-cased.
    #[serde(default)]
    pub languages: Vec<String>,
}

/// A user live now, as `GET /api/users/live` shows it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct LiveUser {
    /// The user's wallet.
    pub wallet: Wallet,
    /// `""` when never set.
    #[serde(default)]
    pub display_name: String,
    /// `""` when never set.
    #[serde(default)]
    pub pfp_url: String,
    /// `""` when never set.
    #[serde(default)]
    pub space_url: String,
    /// When the current live session started, unix ms.
    #[serde(default)]
    pub live_since: Option<i64>,
    /// The last heartbeat, unix ms.
    #[serde(default)]
    pub last_heartbeat: Option<i64>,
    /// Lower-cased.
    #[serde(default)]
    pub languages: Vec<String>,
    /// Lower-cased.
    #[serde(default)]
    pub domains: Vec<String>,
    /// The platform the user is live on (the heartbeat's, else the profile's first); `""` when none.
    #[serde(default)]
    pub platform: String,
}

/// `GET /api/users/search` parameters; every one optional (the server clamps `limit` to 1..=100, default
/// 25, and `scan` to `limit..=1000`, default 400).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct UserSearch {
    /// Case-insensitive, over wallet and display name.
    pub q: Option<String>,
    /// The user must have every one.
    pub domains: Vec<String>,
    /// The user must have every one.
    pub platforms: Vec<String>,
    /// The user must have every one.
    pub languages: Vec<String>,
    /// At least this much xp.
    pub min_xp: Option<u64>,
    /// At most this much xp.
    pub max_xp: Option<u64>,
    /// Only users live now with a public space.
    pub live: bool,
    /// How many users to return.
    pub limit: Option<u32>,
    /// How many candidates (in xp order) `q` is checked against.
    pub scan: Option<u32>,
}

impl UserSearch {
    /// No filters.
    pub fn new() -> Self {
        UserSearch::default()
    }

    /// Sets `q`.
    #[must_use]
    pub fn q(mut self, q: impl Into<String>) -> Self {
        self.q = Some(q.into());
        self
    }

    /// Sets `limit`.
    #[must_use]
    pub fn limit(mut self, limit: u32) -> Self {
        self.limit = Some(limit);
        self
    }

    fn append_to(&self, url: &mut Url) {
        let mut pairs = url.query_pairs_mut();
        if let Some(q) = &self.q {
            pairs.append_pair("q", q);
        }
        for (name, values) in [
            ("domains", &self.domains),
            ("platforms", &self.platforms),
            ("languages", &self.languages),
        ] {
            if !values.is_empty() {
                pairs.append_pair(name, &values.join(","));
            }
        }
        let numbers = [
            ("minXp", self.min_xp),
            ("maxXp", self.max_xp),
            ("limit", self.limit.map(u64::from)),
            ("scan", self.scan.map(u64::from)),
        ];
        for (name, value) in numbers {
            if let Some(value) = value {
                pairs.append_pair(name, &value.to_string());
            }
        }
        if self.live {
            pairs.append_pair("live", "true");
        }
    }
}

/// A search answer.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct UserSearchPage {
    /// By xp, most first.
    pub users: Vec<User>,
    /// Matches among the scanned candidates; `None` in degraded mode.
    pub total: Option<u64>,
    /// Set when the service answered in degraded mode (the list is then empty).
    pub degraded: Option<Degraded>,
}

/// The live listing.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct LiveUsers {
    /// Most recent heartbeat first.
    pub live: Vec<LiveUser>,
    /// Set when the service answered in degraded mode (the list is then empty).
    pub degraded: Option<Degraded>,
}

/// What a follow or unfollow did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct FollowChange {
    /// The followed (or no longer followed) wallet.
    pub wallet: Wallet,
    /// Whether the caller follows it now.
    pub following: bool,
    /// False when the call repeated the current state.
    pub changed: bool,
}

#[derive(Debug, Deserialize)]
struct SearchResponse {
    users: Vec<User>,
    #[serde(default)]
    total: Option<u64>,
    #[serde(default)]
    degraded: Option<bool>,
    #[serde(default)]
    reason: Option<String>,
}

#[derive(Debug, Deserialize)]
struct LiveResponse {
    live: Vec<LiveUser>,
    #[serde(default)]
    degraded: Option<bool>,
    #[serde(default)]
    reason: Option<String>,
}

#[derive(Debug, Deserialize)]
struct SavedResponse {
    user: User,
}

#[derive(Debug, Serialize)]
struct FollowBody {
    wallet: Wallet,
}

fn degraded(flag: Option<bool>, reason: Option<String>) -> Option<Degraded> {
    flag.filter(|degraded| *degraded).map(|_| Degraded {
        reason: reason.unwrap_or_default(),
    })
}

impl Client {
    /// Searches users (`GET /api/users/search`, scope `users:read`).
    ///
    /// # Errors
    /// [`Error::Api`]: `forbidden` (403, no `users:read`), `invalid_input` (400, e.g. a negative `minXp`),
    /// `rate_limited` (429); [`Error::Transport`] or [`Error::Decode`] as for every call.
    pub async fn search_users(&self, search: &UserSearch) -> Result<UserSearchPage, Error> {
        let mut url = self.url("api/users/search")?;
        search.append_to(&mut url);
        let answer: SearchResponse = self.get_json(url, Auth::Subscription).await?;
        Ok(UserSearchPage {
            users: answer.users,
            total: answer.total,
            degraded: degraded(answer.degraded, answer.reason),
        })
    }

    /// Users live now (`GET /api/users/live`, scope `users:read`); `limit` is clamped to 1..=100.
    ///
    /// # Errors
    /// As [`Client::search_users`].
    pub async fn live_users(&self, limit: Option<u32>) -> Result<LiveUsers, Error> {
        let mut url = self.url("api/users/live")?;
        if let Some(limit) = limit {
            url.query_pairs_mut().append_pair("limit", &limit.to_string());
        }
        let answer: LiveResponse = self.get_json(url, Auth::Subscription).await?;
        Ok(LiveUsers {
            live: answer.live,
            degraded: degraded(answer.degraded, answer.reason),
        })
    }

    /// One user (`GET /api/users/{wallet}`, scope `users:read`).
    ///
    /// # Errors
    /// [`Error::Api`] `not_found` (404) when the wallet is not a user; otherwise as [`Client::search_users`].
    pub async fn get_user(&self, wallet: Wallet) -> Result<User, Error> {
        let url = self.url(&format!("api/users/{wallet}"))?;
        self.get_json(url, Auth::Subscription).await
    }

    /// Saves the session wallet's profile (`PUT /api/users/me`).
    ///
    /// # Errors
    /// [`Error::Api`]: `unauthorized` (401, no live session), `forbidden` (403, CSRF), `invalid_input`
    /// (400, naming the field).
    pub async fn save_profile(&self, session: &AdminSession, profile: &ProfileUpdate) -> Result<User, Error> {
        let request = self
            .admin_request(session, Method::PUT, "api/users/me")?
            .json(profile);
        let saved: SavedResponse = self.send_json(request).await?;
        Ok(saved.user)
    }

    /// Records a heartbeat of the session wallet (`POST /api/users/heartbeat`).
    ///
    /// # Errors
    /// As [`Client::save_profile`].
    pub async fn heartbeat(&self, session: &AdminSession, beat: &Heartbeat) -> Result<User, Error> {
        let request = self
            .admin_request(session, Method::POST, "api/users/heartbeat")?
            .json(beat);
        let saved: SavedResponse = self.send_json(request).await?;
        Ok(saved.user)
    }

    /// Follows `wallet` (`POST /api/users/follows`).
    ///
    /// # Errors
    /// [`Error::Api`] `not_found` (404) when `wallet` is not a user, `invalid_input` when it is the
    /// session's own; otherwise as [`Client::save_profile`].
    pub async fn follow(&self, session: &AdminSession, wallet: Wallet) -> Result<FollowChange, Error> {
        let request = self
            .admin_request(session, Method::POST, "api/users/follows")?
            .json(&FollowBody { wallet });
        self.send_json(request).await
    }

    /// Stops following `wallet` (`DELETE /api/users/follows`).
    ///
    /// # Errors
    /// As [`Client::follow`] (no `not_found`).
    pub async fn unfollow(&self, session: &AdminSession, wallet: Wallet) -> Result<FollowChange, Error> {
        let request = self
            .admin_request(session, Method::DELETE, "api/users/follows")?
            .json(&FollowBody { wallet });
        self.send_json(request).await
    }
}
