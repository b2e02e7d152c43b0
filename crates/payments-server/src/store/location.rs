//! Where the data lives, from `--db`: a SQLite file path (the embedded default) or a PostgreSQL URL.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::store::postgres::PgPoolOptions;
use crate::store::{Availability, PgStore, Repositories, SqliteStore, StoreError, StoreTiming};

/// `--db payments.db` is a SQLite file; `--db postgres://…` (or `postgresql://…`) a PostgreSQL database.
#[derive(Clone, PartialEq, Eq)]
pub enum DatabaseLocation {
    /// A SQLite file, created with its schema when missing.
    Sqlite(PathBuf),
    /// A PostgreSQL connection URL (it may carry a password: `Debug` never prints it).
    Postgres(String),
}

impl DatabaseLocation {
    /// Reads a `--db` value.
    pub fn parse(value: &str) -> Self {
        if value.starts_with("postgres://") || value.starts_with("postgresql://") {
            DatabaseLocation::Postgres(value.to_owned())
        } else {
            DatabaseLocation::Sqlite(PathBuf::from(value))
        }
    }

    /// The SQLite file, if this is one.
    pub fn sqlite_path(&self) -> Option<&Path> {
        match self {
            DatabaseLocation::Sqlite(path) => Some(path),
            DatabaseLocation::Postgres(_) => None,
        }
    }

    /// Where development mode keeps files that belong with the data (the development master key): beside
    /// the SQLite file, or in the working directory for PostgreSQL.
    pub fn sidecar_base(&self) -> PathBuf {
        match self {
            DatabaseLocation::Sqlite(path) => path.clone(),
            DatabaseLocation::Postgres(_) => PathBuf::from("payments-postgres"),
        }
    }
}

impl From<PathBuf> for DatabaseLocation {
    fn from(path: PathBuf) -> Self {
        DatabaseLocation::Sqlite(path)
    }
}

impl From<&Path> for DatabaseLocation {
    fn from(path: &Path) -> Self {
        DatabaseLocation::Sqlite(path.to_path_buf())
    }
}

impl fmt::Debug for DatabaseLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_string())
    }
}

/// Prints the location without any password (`postgres://user:***@host/db`).
impl fmt::Display for DatabaseLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatabaseLocation::Sqlite(path) => write!(f, "{}", path.display()),
            DatabaseLocation::Postgres(url) => match url::Url::parse(url) {
                Ok(mut parsed) => {
                    if parsed.password().is_some() {
                        let _ = parsed.set_password(Some("***"));
                    }
                    write!(f, "{parsed}")
                }
                Err(_) => f.write_str("postgres://[unparseable URL]"),
            },
        }
    }
}

/// Opens the database (applying migrations) and serves every repository from it.
///
/// # Errors
/// When the database cannot be reached, opened or migrated.
pub(crate) async fn open(location: &DatabaseLocation, now_ms: i64) -> Result<Repositories, StoreError> {
    let availability = Availability::default();
    let timing = StoreTiming::default();
    let mut repositories = match location {
        DatabaseLocation::Sqlite(path) => {
            let store = SqliteStore::open(path, now_ms, availability.clone())?.timed(timing.clone());
            Repositories::of(Arc::new(store), availability)
        }
        DatabaseLocation::Postgres(url) => {
            let store = PgStore::open_with(url, now_ms, PgPoolOptions::default(), availability.clone())
                .await?
                .timed(timing.clone());
            Repositories::of(Arc::new(store), availability)
        }
    };
    repositories.timing = timing;
    Ok(repositories)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_postgres_url_is_recognised_and_never_printed_with_its_password() {
        let location = DatabaseLocation::parse("postgres://app:s3cret@db.internal:5432/payments");

        assert_eq!(location.sqlite_path(), None);
        assert_eq!(
            location.to_string(),
            "postgres://app:***@db.internal:5432/payments"
        );
        assert!(!format!("{location:?}").contains("s3cret"));
    }

    #[test]
    fn anything_else_is_a_sqlite_file() {
        let location = DatabaseLocation::parse("data/payments.db");

        assert_eq!(location.sqlite_path(), Some(Path::new("data/payments.db")));
        assert_eq!(location.to_string(), "data/payments.db");
    }
}
