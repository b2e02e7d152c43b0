//! Admin sessions on the wire.

use serde::Serialize;

use crate::domain::admin as domain;

/// What a signed-in wallet may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Role {
    /// Acts on its own wallet.
    Merchant,
    /// Named in the server config; may act on any wallet and revoke sessions.
    PlatformAdmin,
}

impl From<domain::Role> for Role {
    fn from(role: domain::Role) -> Self {
        match role {
            domain::Role::Merchant => Role::Merchant,
            domain::Role::PlatformAdmin => Role::PlatformAdmin,
        }
    }
}

/// The roles of a session as its answer lists them.
pub(crate) fn roles(roles: &[domain::Role]) -> Vec<Role> {
    roles.iter().copied().map(Role::from).collect()
}
