//! The bodies a signed-in user sends about itself; each becomes the domain's request, which parses it.

use serde::Deserialize;

use crate::domain::user as domain;

/// `PUT /api/users/me`: the whole profile (absent optional fields are cleared).
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct ProfileRequest {
    display_name: Option<String>,
    pfp_url: Option<String>,
    space_url: Option<String>,
    domains: Option<Vec<String>>,
    platforms: Option<Vec<String>>,
    languages: Option<Vec<String>>,
}

impl From<ProfileRequest> for domain::ProfileRequest {
    fn from(request: ProfileRequest) -> Self {
        domain::ProfileRequest {
            display_name: request.display_name,
            pfp_url: request.pfp_url,
            space_url: request.space_url,
            domains: request.domains,
            platforms: request.platforms,
            languages: request.languages,
        }
    }
}

/// `POST /api/users/heartbeat`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct HeartbeatRequest {
    live: Option<bool>,
    space_public: Option<bool>,
    platform: Option<String>,
}

impl From<HeartbeatRequest> for domain::HeartbeatRequest {
    fn from(request: HeartbeatRequest) -> Self {
        domain::HeartbeatRequest {
            live: request.live,
            space_public: request.space_public,
            platform: request.platform,
        }
    }
}

/// `POST` and `DELETE /api/users/follows`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FollowRequest {
    wallet: Option<String>,
}

impl From<FollowRequest> for domain::FollowRequest {
    fn from(request: FollowRequest) -> Self {
        domain::FollowRequest {
            wallet: request.wallet,
        }
    }
}
