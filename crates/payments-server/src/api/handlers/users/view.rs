//! The wire shapes of users: the spec's User (search results) and LiveUser.
//!
//! Text the user never set is `""` (the spec types these fields as strings); times never recorded are
//! `null`. `live` is what holds now: declared live and heard from within the last 2 minutes.

use payments_core::Wallet;
use serde::Serialize;

use crate::domain::user::User;

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = User)]
pub(crate) struct UserView<'a> {
    #[schema(value_type = crate::api::openapi::core_types::Wallet)]
    wallet: Wallet,
    display_name: &'a str,
    pfp_url: &'a str,
    space_url: &'a str,
    xp: i64,
    live: bool,
    space_public: bool,
    last_seen: Option<i64>,
    last_heartbeat: Option<i64>,
    domains: &'a [String],
    platforms: &'a [String],
    languages: &'a [String],
}

impl<'a> UserView<'a> {
    pub(crate) fn new(user: &'a User, now_ms: i64) -> Self {
        UserView {
            wallet: user.wallet,
            display_name: &user.display_name,
            pfp_url: user.pfp_url.as_deref().unwrap_or_default(),
            space_url: user.space_url.as_deref().unwrap_or_default(),
            xp: user.xp,
            live: user.is_live_at(now_ms),
            space_public: user.space_public,
            last_seen: user.last_seen,
            last_heartbeat: user.last_heartbeat,
            domains: &user.domains,
            platforms: &user.platforms,
            languages: &user.languages,
        }
    }
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = LiveUser)]
pub(crate) struct LiveUserView<'a> {
    #[schema(value_type = crate::api::openapi::core_types::Wallet)]
    wallet: Wallet,
    display_name: &'a str,
    pfp_url: &'a str,
    space_url: &'a str,
    live_since: Option<i64>,
    last_heartbeat: Option<i64>,
    languages: &'a [String],
    domains: &'a [String],
    platform: &'a str,
}

impl<'a> LiveUserView<'a> {
    pub(crate) fn new(user: &'a User) -> Self {
        LiveUserView {
            wallet: user.wallet,
            display_name: &user.display_name,
            pfp_url: user.pfp_url.as_deref().unwrap_or_default(),
            space_url: user.space_url.as_deref().unwrap_or_default(),
            live_since: user.live_since,
            last_heartbeat: user.last_heartbeat,
            languages: &user.languages,
            domains: &user.domains,
            platform: user.shown_platform(),
        }
    }
}
