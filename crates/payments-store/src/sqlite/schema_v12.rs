//! v12: `instance_settings`, what every instance on one database must agree on, recorded by the first that
//! needs it (first writer wins): the database's key mode (`key_mode`: `test` or `live`, so `keys create`
//! issues keys of the database's world and a server of the other world refuses to start on it) and the
//! development master key (`dev_master_key`, base64) that dev-mode instances sharing a PostgreSQL database
//! seal and open receipts' signing keys with.

pub(super) const SQL: &str = "
CREATE TABLE instance_settings (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    recorded_at INTEGER NOT NULL
);
";
