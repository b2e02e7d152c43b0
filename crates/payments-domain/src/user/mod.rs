//! Users: a wallet with a public profile, the metrics the search filters on (domains, platforms,
//! languages), derived experience points (`payments_core::xp_for_spending`), and live presence kept fresh by
//! heartbeats. A wallet becomes a listed user the first time it writes as itself (profile, heartbeat or
//! follow) after the EIP-712 sign-in; the xp of a buyer who never did is kept but never listed.

mod profile;
mod search;

pub use profile::{
    FollowRequest, Heartbeat, HeartbeatRequest, ProfileRequest, ProfileUpdate, next_live_since,
};
pub use search::{LiveQuery, UserSearch};

use payments_core::Wallet;

/// How recent a heartbeat must be for its user to count as live (spec: within the last 2 minutes).
pub const LIVE_WINDOW_MS: i64 = 2 * 60 * 1000;

/// Which list of a profile a metric belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MetricKind {
    Domain,
    Platform,
    Language,
}

impl MetricKind {
    pub const ALL: [MetricKind; 3] = [MetricKind::Domain, MetricKind::Platform, MetricKind::Language];

    /// The stored name (`domain`, `platform`, `language`).
    pub const fn as_str(self) -> &'static str {
        match self {
            MetricKind::Domain => "domain",
            MetricKind::Platform => "platform",
            MetricKind::Language => "language",
        }
    }

    /// The wire name of the profile field and of the search parameter.
    pub const fn field(self) -> &'static str {
        match self {
            MetricKind::Domain => "domains",
            MetricKind::Platform => "platforms",
            MetricKind::Language => "languages",
        }
    }
}

/// A stored user, as every read returns it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    pub wallet: Wallet,
    pub display_name: String,
    pub pfp_url: Option<String>,
    pub space_url: Option<String>,
    /// Lower-cased, unique, in the order the user gave them.
    pub domains: Vec<String>,
    pub platforms: Vec<String>,
    pub languages: Vec<String>,
    pub xp: i64,
    /// As last declared by a heartbeat; see [`User::is_live_at`] for whether it still holds.
    pub live: bool,
    pub space_public: bool,
    /// When the current live session started (unix ms); `None` when not live.
    pub live_since: Option<i64>,
    /// The platform the last live heartbeat named.
    pub live_platform: Option<String>,
    pub last_heartbeat: Option<i64>,
    /// The last time the wallet wrote as itself (unix ms).
    pub last_seen: Option<i64>,
}

impl User {
    /// Live at `now_ms`: declared live and heard from within [`LIVE_WINDOW_MS`].
    pub fn is_live_at(&self, now_ms: i64) -> bool {
        self.live
            && self
                .last_heartbeat
                .is_some_and(|beat| beat >= now_ms.saturating_sub(LIVE_WINDOW_MS))
    }

    /// The platform a live listing shows: the one the heartbeat named, else the profile's first.
    pub fn shown_platform(&self) -> &str {
        self.live_platform
            .as_deref()
            .or(self.platforms.first().map(String::as_str))
            .unwrap_or_default()
    }
}

/// One search answer: the users to show and how many matched among the scanned candidates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserPage {
    pub users: Vec<User>,
    pub total: u64,
}

/// What following did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FollowOutcome {
    Followed,
    AlreadyFollowing,
    /// The followed wallet is not a listed user; nothing was written.
    UnknownUser,
}

/// One page of the wallets a user follows, ordered by wallet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FollowPage {
    pub users: Vec<User>,
    /// Whether more follow after the last one.
    pub has_next: bool,
}
