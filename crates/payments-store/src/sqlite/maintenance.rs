//! Operator tasks on a SQLite file that do not run the server: a read-only check (`config check`) and an
//! online backup (`payments-server backup`).

use std::path::Path;
use std::time::Duration;

use rusqlite::backup::Backup;
use rusqlite::{Connection, OpenFlags, OptionalExtension as _};

use crate::StoreError;

const HAS_MIGRATIONS_TABLE: &str =
    "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations')";
const SCHEMA_VERSION: &str = "SELECT MAX(version) FROM schema_migrations";
const QUICK_CHECK: &str = "PRAGMA quick_check";

/// Pages copied per backup step: small steps let the server's writer commit between them (the backup then
/// restarts from the changed pages, so a busy server still gets a consistent copy).
const BACKUP_PAGES_PER_STEP: std::ffi::c_int = 256;
/// Pause between steps, so a backup of a large file does not hold the writer off for long.
const BACKUP_PAUSE: Duration = Duration::from_millis(5);

/// Opens `path` read-only (never creating it), runs `PRAGMA quick_check` and reads the schema version:
/// `None` for a file the server has not initialised yet.
pub(crate) fn check(path: &Path) -> Result<Option<i64>, StoreError> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|error| StoreError::Unavailable(format!("opening {} read-only: {error}", path.display())))?;
    let verdict: String = conn
        .query_row(QUICK_CHECK, [], |row| row.get(0))
        .map_err(|error| StoreError::Unavailable(format!("{}: {error}", path.display())))?;
    if verdict != "ok" {
        return Err(StoreError::Corrupt(format!(
            "{}: quick_check: {verdict}",
            path.display()
        )));
    }
    let initialised: bool = conn
        .query_row(HAS_MIGRATIONS_TABLE, [], |row| row.get(0))
        .map_err(|error| StoreError::Query(Box::new(error)))?;
    if !initialised {
        return Ok(None);
    }
    conn.query_row(SCHEMA_VERSION, [], |row| row.get::<_, Option<i64>>(0))
        .optional()
        .map(Option::flatten)
        .map_err(|error| StoreError::Query(Box::new(error)))
}

/// Copies the live database `from` into a new file `to` with SQLite's online backup API: a consistent
/// snapshot even while a server writes (WAL included), unlike copying the file. `to` must not exist; it
/// is created with mode 0600 (it holds everything the database does).
pub(crate) fn backup(from: &Path, to: &Path) -> Result<(), StoreError> {
    if !from.exists() {
        return Err(StoreError::Unavailable(format!(
            "no database at {}",
            from.display()
        )));
    }
    if to.exists() {
        return Err(StoreError::Unavailable(format!(
            "{} exists already: back up to a new file",
            to.display()
        )));
    }
    let source = Connection::open_with_flags(from, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(|error| StoreError::Unavailable(format!("opening {}: {error}", from.display())))?;
    super::create_private(to)?;
    let mut target = Connection::open(to)
        .map_err(|error| StoreError::Unavailable(format!("opening {}: {error}", to.display())))?;
    let copied = Backup::new(&source, &mut target)
        .and_then(|backup| backup.run_to_completion(BACKUP_PAGES_PER_STEP, BACKUP_PAUSE, None));
    if let Err(error) = copied {
        drop(target);
        // A half-written copy must not be mistaken for a backup.
        let _ = std::fs::remove_file(to);
        return Err(StoreError::Unavailable(format!(
            "backing up {} to {}: {error}",
            from.display(),
            to.display()
        )));
    }
    Ok(())
}
