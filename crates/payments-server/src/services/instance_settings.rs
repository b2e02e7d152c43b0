//! What every instance on one database must agree on, read or recorded at start (`instance_settings`,
//! schema v12; the first instance to record a value wins):
//!
//! - the key mode (`key_mode`, recorded by the first server): `keys create` issues keys of the database's
//!   world (never guessed from a missing flag); a server of the other mode starts with a warning (a database
//!   moved to a real chain) and refuses the recorded mode's keys at every request;
//! - the development master key (`dev_master_key`): dev-mode instances on one PostgreSQL database seal and
//!   open receipts' signing keys with one key, so any instance can sign any receipt's webhooks. Production
//!   still requires `--master-key`; a SQLite database keeps its development key in the file beside it.

use crate::domain::api_key::KeyMode;
use crate::runtime::config::ServerConfig;
use crate::runtime::master_key::MasterKey;
use crate::store::{DatabaseLocation, KeyRepository, StoreError};

/// The setting naming the database's key mode (`test` or `live`).
const KEY_MODE_SETTING: &str = "key_mode";
/// The setting holding the development master key (base64) of dev-mode instances on PostgreSQL.
const DEV_MASTER_KEY_SETTING: &str = "dev_master_key";

/// Why a server cannot start on this database.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InstanceError {
    /// The database belongs to the other world.
    #[error(
        "this database is recorded as {} (its keys are {}...); a server in {} mode cannot use it: \
         test and live never share a database",
        recorded.as_str(), recorded.prefix(), server.as_str()
    )]
    ModeMismatch { recorded: KeyMode, server: KeyMode },
    /// Keys are to be issued for a database no server has recorded a mode in, and no flag says which.
    #[error(
        "no server has run on this database yet, so it records no mode: say --chain-rpc-url URL (the \
         server's node) for sk_live_ keys or --test-mode for sk_test_ keys, or start the server on it first"
    )]
    ModeUnknown,
    /// A recorded value does not read as what it should be.
    #[error("the database's instance setting {0} is malformed")]
    Malformed(&'static str),
    /// The datastore failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Records the server's key mode (or warns when another is recorded) and, in development mode on
/// PostgreSQL without `--master-key`, takes the database's development master key (recording a new one when
/// none is there).
///
/// # Errors
/// A store failure, or a malformed record.
pub(crate) async fn agree_with_database(
    config: &mut ServerConfig,
    keys: &dyn KeyRepository,
    now_ms: i64,
) -> Result<(), InstanceError> {
    let server = KeyMode::for_chain(!config.is_test_mode());
    let recorded = keys
        .record_setting(KEY_MODE_SETTING, server.as_str(), now_ms)
        .await?;
    let recorded = KeyMode::parse(&recorded).ok_or(InstanceError::Malformed(KEY_MODE_SETTING))?;
    if recorded != server {
        // A database moved between worlds (its server now on a real chain): keys of the recorded mode are
        // refused by this server at every request, so nothing mixes; say so once at start.
        tracing::warn!(
            recorded = recorded.as_str(),
            server = server.as_str(),
            "this database is recorded in the other key mode: its {} keys are refused here; \
             rotate them with the server's chain flags",
            recorded.prefix()
        );
    }
    if config.dev_mode
        && config.master_key.is_none()
        && matches!(config.database, DatabaseLocation::Postgres(_))
    {
        let shared = keys
            .record_setting(DEV_MASTER_KEY_SETTING, &MasterKey::generate().to_base64(), now_ms)
            .await?;
        let key =
            MasterKey::parse_base64(&shared).map_err(|_| InstanceError::Malformed(DEV_MASTER_KEY_SETTING))?;
        config.master_key = Some(key);
    }
    Ok(())
}

/// The mode keys are issued in for this database: the one it records; else `requested` (the `keys`
/// command's `--chain-rpc-url` / `--test-mode`), which is then recorded. A request contradicting the record is
/// refused, and so is issuing with neither (never guessed from a missing flag).
///
/// # Errors
/// [`InstanceError::ModeMismatch`], [`InstanceError::ModeUnknown`], a store failure or a malformed record.
pub(crate) async fn issuing_mode(
    keys: &dyn KeyRepository,
    requested: Option<KeyMode>,
    now_ms: i64,
) -> Result<KeyMode, InstanceError> {
    let recorded = match keys.fetch_setting(KEY_MODE_SETTING).await? {
        Some(text) => Some(KeyMode::parse(&text).ok_or(InstanceError::Malformed(KEY_MODE_SETTING))?),
        None => None,
    };
    match (recorded, requested) {
        (Some(recorded), Some(server)) if recorded != server => {
            Err(InstanceError::ModeMismatch { recorded, server })
        }
        (Some(recorded), _) => Ok(recorded),
        (None, Some(requested)) => {
            let recorded = keys
                .record_setting(KEY_MODE_SETTING, requested.as_str(), now_ms)
                .await?;
            match KeyMode::parse(&recorded) {
                Some(recorded) if recorded == requested => Ok(recorded),
                Some(recorded) => Err(InstanceError::ModeMismatch {
                    recorded,
                    server: requested,
                }),
                None => Err(InstanceError::Malformed(KEY_MODE_SETTING)),
            }
        }
        (None, None) => Err(InstanceError::ModeUnknown),
    }
}
