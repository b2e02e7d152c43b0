//! The repository contract: the same test bodies run against every backend (each takes the backend's
//! [`Repositories`]), races included: parallel callers, then assertions on what the database holds.
//! SQLite runs here on a temporary file; another backend adds its own runner calling the same bodies.

mod fixtures;
mod races;

use crate::store::{Availability, Repositories, SqliteStore};

/// A fresh SQLite database in a temporary directory (kept alive with the repositories).
pub(super) fn sqlite() -> (Repositories, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let availability = Availability::default();
    let store = SqliteStore::open(&dir.path().join("contract.db"), 0, availability.clone()).unwrap();
    (Repositories::of(std::sync::Arc::new(store), availability), dir)
}

/// Declares one `#[tokio::test]` per contract body for a backend runner.
macro_rules! contract_tests {
    ($runner:path; $($body:ident),+ $(,)?) => {
        $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $body() {
                let (repos, _guard) = $runner();
                super::races::$body(&repos).await;
            }
        )+
    };
}

mod on_sqlite {
    contract_tests!(super::sqlite;
        parallel_creates_with_one_claim_have_one_effect,
        a_claim_with_another_body_is_a_conflict_and_writes_nothing,
        parallel_reservations_never_take_stock_below_zero,
        parallel_transitions_see_each_other,
        two_dispatchers_never_claim_the_same_delivery,
        a_switched_off_datastore_is_unavailable_and_keeps_its_data,
        keys_are_found_by_hash_until_revoked_and_rotation_is_atomic,
    );
}

#[cfg(unix)]
#[test]
fn a_new_sqlite_database_and_its_wal_are_readable_by_their_owner_only() {
    use std::os::unix::fs::PermissionsExt as _;

    let (_repos, dir) = sqlite();

    for name in ["contract.db", "contract.db-wal"] {
        let mode = std::fs::metadata(dir.path().join(name))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "{name}");
    }
}
