//! Migrations whose SQL is the same text in both dialects, kept once; each backend's `migrations.rs` lists
//! them at their version beside its own dialect's files. A released migration's text never changes (a
//! database records only the version it applied): the test below pins every one's digest.

pub(crate) mod v19;
pub(crate) mod v20;
pub(crate) mod v23;
pub(crate) mod v24;
pub(crate) mod v6;

#[cfg(test)]
mod tests {
    use sha2::{Digest, Sha256};

    /// `(version, first 16 hex digits of the SHA-256 of its SQL)`.
    fn digests(migrations: &[(i64, &str)]) -> Vec<(i64, String)> {
        migrations
            .iter()
            .map(|(version, sql)| {
                (
                    *version,
                    hex::encode(Sha256::digest(sql.as_bytes()))[..16].to_owned(),
                )
            })
            .collect()
    }

    #[test]
    fn every_released_sqlite_migration_keeps_its_text() {
        assert_eq!(digests(crate::sqlite::MIGRATIONS), pinned(SQLITE));
    }

    #[test]
    fn every_released_postgres_migration_keeps_its_text() {
        assert_eq!(digests(crate::postgres::MIGRATIONS), pinned(POSTGRES));
    }

    fn pinned(digests: &[(i64, &str)]) -> Vec<(i64, String)> {
        digests
            .iter()
            .map(|(version, digest)| (*version, (*digest).to_owned()))
            .collect()
    }

    /// Digests of the migrations as released (taken before the shared ones moved here).
    const SQLITE: &[(i64, &str)] = &[
        (1, "2e1039c6106d9438"),
        (2, "e77991f9c7bc1f07"),
        (3, "417ae6882f62fd1a"),
        (4, "68cf664ccf6be847"),
        (5, "b8b850df99fa45e0"),
        (6, "d4c3759475649146"),
        (7, "f85509a62476fbe2"),
        (8, "77ed04390a7c2c5a"),
        (9, "17ef8c9ced5d0d3b"),
        (10, "59d0075991e7294b"),
        (11, "4886058dfd2534e4"),
        (12, "57b2452029efdee3"),
        (13, "35f8f5afadf573cc"),
        (14, "14575147abfdbe9a"),
        (15, "2df2b90956b5028b"),
        (16, "cd896a319e533ed5"),
        (17, "f1c674bda38c0d66"),
        (18, "18832505e3edb5d9"),
        (19, "e03af354e5eeef5d"),
        (20, "82a03db21db0b137"),
        (21, "64bf18274a906eb2"),
        (22, "5848d13ea379f2ad"),
        (23, "8ee5edd7b7be6231"),
        (24, "4c51416b93b40888"),
    ];
    const POSTGRES: &[(i64, &str)] = &[
        (1, "d430e3faa232dd5a"),
        (2, "2b63a7698100d48d"),
        (3, "196089e43a12dba4"),
        (4, "72bf01b908723c78"),
        (5, "edd7b2cc05c1b7d0"),
        (6, "d4c3759475649146"),
        (7, "a84f4568b9c712b1"),
        (8, "ba2aaa5a722fc181"),
        (9, "3c9d643c65dfedc3"),
        (10, "eb4d2086b3f720e0"),
        (11, "f596b1d29f7e8af5"),
        (12, "f9b975aa582e3af8"),
        (13, "d98926f00fa61e0f"),
        (14, "87c9f2db0f6da0d4"),
        (15, "615a81895c4feb5f"),
        (16, "6c1a1d71e2dcca9e"),
        (17, "213bb56e1ba859fb"),
        (18, "8c813592e3bc3553"),
        (19, "e03af354e5eeef5d"),
        (20, "82a03db21db0b137"),
        (21, "8f4e41eb5a9802bb"),
        (22, "407e2f9105193cfb"),
        (23, "8ee5edd7b7be6231"),
        (24, "4c51416b93b40888"),
    ];
}
