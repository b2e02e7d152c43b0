//! Whether the server runs in development mode, decided once at start from what it was given.
//!
//! Development mode loosens things production must not: webhooks may go to loopback and plain-HTTP targets,
//! a random JWT secret is drawn, a master key is kept in a file beside the database, and a full-scope key
//! for a development merchant is printed. So it is never inferred from the listen address alone (a server
//! behind a reverse proxy listens on loopback too):
//!
//! - `--dev` / `PAYMENTS_DEV=true` turns it on, `--dev=false` off;
//! - a server given a production secret (`--jwt-secret` or `--master-key`) never runs in it (asking for both
//!   is refused);
//! - otherwise it is on only for a SQLite database that is new (the file does not exist yet) or was made in
//!   development mode (its `<db>.master.key` file exists), served on a loopback address: the README's
//!   `cargo run -p payments-server` on a fresh checkout.

use std::net::SocketAddr;

use thiserror::Error;

use crate::runtime::master_key::MasterKey;
use crate::store::DatabaseLocation;

/// What development mode is decided from.
#[derive(Debug, Clone, Copy)]
pub struct DevModeInputs<'a> {
    /// `--dev` as given: `None` when not given.
    pub explicit: Option<bool>,
    /// Whether `--jwt-secret` or `--master-key` was given.
    pub production_secrets: bool,
    /// The database.
    pub database: &'a DatabaseLocation,
    /// The listen address.
    pub listen: SocketAddr,
}

/// `--dev` together with a production secret.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "--dev cannot be combined with --jwt-secret or --master-key: a server given production secrets never runs \
     in development mode"
)]
pub struct DevModeConflict;

/// Decides development mode (see the module documentation).
///
/// # Errors
/// [`DevModeConflict`] for `--dev` with a production secret.
pub fn decide_dev_mode(inputs: DevModeInputs<'_>) -> Result<bool, DevModeConflict> {
    match (inputs.explicit, inputs.production_secrets) {
        (Some(true), true) => Err(DevModeConflict),
        (Some(explicit), _) => Ok(explicit),
        (None, true) => Ok(false),
        (None, false) => Ok(inputs.listen.ip().is_loopback() && is_development_database(inputs.database)),
    }
}

/// A SQLite file that does not exist yet, or that development mode created (its key file is beside it).
fn is_development_database(database: &DatabaseLocation) -> bool {
    match database {
        DatabaseLocation::Sqlite(path) => !path.exists() || MasterKey::dev_file_for(path).exists(),
        DatabaseLocation::Postgres(_) => false,
    }
}

/// The line printed at start in development mode.
pub const DEV_MODE_WARNING: &str = "WARNING: DEVELOPMENT MODE: webhooks may go to loopback and plain-HTTP \
     targets, admin sessions use a random secret, and a full-scope key is printed. Never expose this server; \
     production runs with --jwt-secret and --master-key.";

#[cfg(test)]
mod tests {
    use super::*;

    fn decide(explicit: Option<bool>, secrets: bool, database: &DatabaseLocation, listen: &str) -> String {
        let inputs = DevModeInputs {
            explicit,
            production_secrets: secrets,
            database,
            listen: listen.parse().unwrap(),
        };
        match decide_dev_mode(inputs) {
            Ok(true) => "dev".to_owned(),
            Ok(false) => "prod".to_owned(),
            Err(_) => "refused".to_owned(),
        }
    }

    #[test]
    fn development_mode_is_explicit_or_a_fresh_local_try_out_and_never_with_secrets() {
        let dir = tempfile::tempdir().unwrap();
        let fresh = DatabaseLocation::Sqlite(dir.path().join("fresh.db"));
        let existing_path = dir.path().join("existing.db");
        std::fs::write(&existing_path, b"").unwrap();
        let existing = DatabaseLocation::Sqlite(existing_path);
        let dev_made_path = dir.path().join("dev.db");
        std::fs::write(&dev_made_path, b"").unwrap();
        std::fs::write(MasterKey::dev_file_for(&dev_made_path), b"").unwrap();
        let dev_made = DatabaseLocation::Sqlite(dev_made_path);
        let postgres = DatabaseLocation::Postgres("postgres://db.internal/payments".to_owned());
        let loopback = "127.0.0.1:8080";
        let public = "0.0.0.0:8080";

        let cases = [
            (None, false, &fresh, loopback, "dev"),
            (None, false, &fresh, public, "prod"),
            (None, false, &existing, loopback, "prod"),
            (None, false, &dev_made, loopback, "dev"),
            (None, false, &postgres, loopback, "prod"),
            (None, true, &fresh, loopback, "prod"),
            (Some(true), false, &existing, public, "dev"),
            (Some(true), false, &postgres, public, "dev"),
            (Some(true), true, &fresh, loopback, "refused"),
            (Some(false), false, &fresh, loopback, "prod"),
            (Some(false), true, &fresh, loopback, "prod"),
        ];
        for (explicit, secrets, database, listen, expected) in cases {
            assert_eq!(
                decide(explicit, secrets, database, listen),
                expected,
                "{explicit:?} secrets={secrets} {database} {listen}"
            );
        }
    }
}
