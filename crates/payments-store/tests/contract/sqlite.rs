//! The repository contract suite on SQLite: a fresh database file per test.

use std::sync::Arc;

use tempfile::TempDir;

use crate::ContractBackend;
use crate::Repositories;
use payments_store::{Availability, SqliteStore};

struct SqliteBackend {
    store: Arc<SqliteStore>,
    availability: Availability,
    dir: TempDir,
}

impl ContractBackend for SqliteBackend {
    async fn start() -> Option<Self> {
        let dir = tempfile::tempdir().unwrap();
        let availability = Availability::default();
        let store = SqliteStore::open(&dir.path().join("contract.db"), 0, availability.clone()).unwrap();
        Some(SqliteBackend {
            store: Arc::new(store),
            availability,
            dir,
        })
    }

    fn repositories(&self) -> Repositories {
        Repositories::of(Arc::clone(&self.store), self.availability.clone())
    }

    async fn finish(self) {
        drop(self.store);
        drop(self.dir);
    }
}

crate::contract_suite!(SqliteBackend);

#[cfg(unix)]
#[tokio::test]
async fn a_new_sqlite_database_and_its_wal_are_readable_by_their_owner_only() {
    use std::os::unix::fs::PermissionsExt as _;

    let backend = SqliteBackend::start().await.unwrap();

    for name in ["contract.db", "contract.db-wal"] {
        let mode = std::fs::metadata(backend.dir.path().join(name))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "{name}");
    }
}
