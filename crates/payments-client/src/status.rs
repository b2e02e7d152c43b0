//! `GET /healthz` and `GET /api/status/ping`.

use payments_core::Wallet;
use serde::{Deserialize, Serialize};

use crate::client::{Auth, Client};
use crate::error::Error;
use crate::or_unknown::{OrUnknown, wire_names};

/// How the service says it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum HealthStatus {
    /// `ok`: healthy.
    Ok,
    /// `degraded`: running without its datastore (some routes still answer).
    Degraded,
}

wire_names!(HealthStatus {
    Ok => "ok",
    Degraded => "degraded",
});

/// Whether the service reaches its datastore.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DatastoreState {
    /// `ok`: reachable.
    Ok,
    /// `unavailable`: it does not answer.
    Unavailable,
}

wire_names!(DatastoreState {
    Ok => "ok",
    Unavailable => "unavailable",
});

/// The open health check's answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Health {
    /// `ok` when the service is healthy; `degraded` when it runs without its datastore.
    pub status: OrUnknown<HealthStatus>,
    /// The datastore's state, when the service reports it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub datastore: Option<OrUnknown<DatastoreState>>,
}

impl Health {
    /// Whether the service says it is healthy (a status this version does not know is not).
    pub fn is_ok(&self) -> bool {
        self.status == HealthStatus::Ok
    }
}

/// Diagnostics of the status ping: who the key belongs to and what it may do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Ping {
    /// `true` when the key is valid.
    pub ok: bool,
    /// The merchant wallet the key acts for.
    pub merchant: Wallet,
    /// The subscription the key belongs to.
    pub subscription_id: String,
    /// Scopes granted to the key.
    #[serde(default)]
    pub scopes: Vec<String>,
    /// The server's clock, Unix milliseconds.
    pub server_time: u64,
    /// The server's version.
    pub version: String,
}

impl Client {
    /// Checks the service's health (`GET /healthz`, no key needed).
    ///
    /// # Errors
    /// [`Error::Api`] when the service answers with an error status (a proxy in front of an unhealthy
    /// service may answer 502/503), [`Error::Transport`] when it cannot be reached, [`Error::Decode`] on
    /// an unexpected body. A degraded service answers 200 with [`Health::is_ok`] false.
    pub async fn health(&self) -> Result<Health, Error> {
        self.get_json(self.url("healthz")?, Auth::None).await
    }

    /// Checks the key and shows what it grants (`GET /api/status/ping`, key sent as `x-api-key`).
    ///
    /// # Errors
    /// [`Error::Api`] with [`ErrorCode::Unauthorized`](crate::ErrorCode::Unauthorized) for a missing or
    /// invalid key; [`Error::Transport`] or [`Error::Decode`] as for every call.
    pub async fn ping(&self) -> Result<Ping, Error> {
        self.get_json(self.url("api/status/ping")?, Auth::ApiKey).await
    }
}
