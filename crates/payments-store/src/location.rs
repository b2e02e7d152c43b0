//! Where the data lives, from `--db`: a SQLite file path (the embedded default) or a PostgreSQL URL.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::{Availability, PgPoolOptions, PgStore, Repositories, SqliteStore, StoreError, StoreTiming};

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
pub async fn open<S: Send + 'static, T: Send + 'static>(
    location: &DatabaseLocation,
    now_ms: i64,
) -> Result<Repositories<S, T>, StoreError> {
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

/// What a read-only look at a database found (`payments-server config check`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum DatabaseState {
    /// No SQLite file yet: the server creates it (in a directory that exists) at its first start.
    Missing,
    /// It opens, but the server never initialised it (an empty file or database).
    Uninitialised,
    /// It opens and holds the server's schema, at this migration version.
    Schema(i64),
}

/// Looks at the database without creating, migrating or writing anything: a SQLite file is opened
/// read-only and quick-checked, a PostgreSQL server is connected to once.
///
/// # Errors
/// When the database cannot be reached or opened, or SQLite finds it damaged; a missing SQLite file in a
/// missing directory.
pub async fn check_database(location: &DatabaseLocation) -> Result<DatabaseState, StoreError> {
    match location {
        DatabaseLocation::Sqlite(path) if !path.exists() => {
            let parent = match path.parent() {
                Some(parent) if !parent.as_os_str().is_empty() => parent,
                _ => Path::new("."),
            };
            if parent.is_dir() {
                Ok(DatabaseState::Missing)
            } else {
                Err(StoreError::Unavailable(format!(
                    "no database at {} and no directory {} to create it in",
                    path.display(),
                    parent.display()
                )))
            }
        }
        DatabaseLocation::Sqlite(path) => {
            let path = path.clone();
            let version = tokio::task::spawn_blocking(move || super::sqlite::check(&path))
                .await
                .map_err(|error| StoreError::Task(error.to_string()))??;
            Ok(version.map_or(DatabaseState::Uninitialised, DatabaseState::Schema))
        }
        DatabaseLocation::Postgres(url) => Ok(super::postgres::check(url)
            .await?
            .map_or(DatabaseState::Uninitialised, DatabaseState::Schema)),
    }
}

/// Copies a live SQLite database into the new file `to` with SQLite's online backup API (consistent while
/// a server writes to it); `to` is created with mode 0600 and must not exist.
///
/// # Errors
/// When `from` does not exist or cannot be read, `to` exists or cannot be written.
pub fn backup_sqlite(from: &Path, to: &Path) -> Result<(), StoreError> {
    super::sqlite::backup(from, to)
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
