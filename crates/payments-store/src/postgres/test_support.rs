//! A throwaway PostgreSQL database per test: created on a reachable server, dropped afterwards.
//!
//! The server comes from `PAYMENTS_TEST_POSTGRES_URL` (default `postgres://postgres@127.0.0.1:5432/postgres`).
//! Without one, tests skip (printing why) so a laptop without PostgreSQL still runs the suite, except under
//! `CI=true`, where a missing server is a failure rather than a silently green run.

use std::time::Duration;

use tokio_postgres::{Client, Config, NoTls};

/// Where test databases are created unless `PAYMENTS_TEST_POSTGRES_URL` says otherwise.
const DEFAULT_TEST_POSTGRES_URL: &str = "postgres://postgres@127.0.0.1:5432/postgres";
const URL_VARIABLE: &str = "PAYMENTS_TEST_POSTGRES_URL";
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);

/// A uniquely named database (`payments_test_<16 hex digits>`), dropped with `WITH (FORCE)` on
/// [`PgTestDatabase::drop_database`] or, failing that, on `Drop`.
#[derive(Debug)]
pub struct PgTestDatabase {
    admin_url: String,
    name: String,
    url: String,
    dropped: bool,
}

impl PgTestDatabase {
    /// Creates the database; `None` (after printing `skipping: ...`) when the server does not answer.
    ///
    /// # Panics
    /// When the server does not answer and `CI=true`, or when it answers but refuses to create a database.
    pub async fn create() -> Option<Self> {
        let admin_url = std::env::var(URL_VARIABLE).unwrap_or_else(|_| DEFAULT_TEST_POSTGRES_URL.to_owned());
        let shown = redacted(&admin_url);
        let admin = match connect(&admin_url).await {
            Ok(client) => client,
            Err(error) if std::env::var("CI").is_ok_and(|ci| ci == "true") => {
                panic!("PostgreSQL not reachable at {shown} ({error}); CI must provide one ({URL_VARIABLE})")
            }
            Err(_) => {
                eprintln!("skipping: PostgreSQL not reachable at {shown}");
                return None;
            }
        };
        let name = format!(
            "payments_test_{}",
            &uuid::Uuid::new_v4().simple().to_string()[..16]
        );
        if let Err(error) = admin.batch_execute(&format!("CREATE DATABASE {name}")).await {
            panic!("cannot create test database {name} at {shown}: {error}");
        }
        let url = with_database(&admin_url, &name);
        Some(PgTestDatabase {
            admin_url,
            name,
            url,
            dropped: false,
        })
    }

    /// The new database's URL (holds the password, if the admin URL has one).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The database's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Drops the database now (closing its connections).
    ///
    /// # Panics
    /// When the server refuses to drop it.
    pub async fn drop_database(mut self) {
        self.dropped = true;
        if let Err(error) = drop_named(&self.admin_url, &self.name).await {
            panic!("cannot drop test database {}: {error}", self.name);
        }
    }
}

impl Drop for PgTestDatabase {
    /// Best effort, on a thread of its own: `Drop` cannot await, and may run inside a runtime.
    fn drop(&mut self) {
        if self.dropped {
            return;
        }
        let (admin_url, name) = (self.admin_url.clone(), self.name.clone());
        let dropping = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build();
            if let Ok(runtime) = runtime
                && let Err(error) = runtime.block_on(drop_named(&admin_url, &name))
            {
                eprintln!("cannot drop test database {name}: {error}");
            }
        });
        let _ = dropping.join();
    }
}

async fn connect(url: &str) -> Result<Client, tokio_postgres::Error> {
    let mut config: Config = url.parse()?;
    config.connect_timeout(CONNECT_TIMEOUT);
    let (client, connection) = config.connect(NoTls).await?;
    tokio::spawn(connection);
    Ok(client)
}

async fn drop_named(admin_url: &str, name: &str) -> Result<(), tokio_postgres::Error> {
    let admin = connect(admin_url).await?;
    admin
        .batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        .await
}

/// `admin_url` pointing at database `name`: the path of a URL, or `dbname=` of a key-value string.
fn with_database(admin_url: &str, name: &str) -> String {
    match url::Url::parse(admin_url) {
        Ok(mut url) if matches!(url.scheme(), "postgres" | "postgresql") => {
            url.set_path(name);
            url.to_string()
        }
        _ => format!("{admin_url} dbname={name}"),
    }
}

/// The URL for messages: any password replaced by `***`.
fn redacted(url_text: &str) -> String {
    match url::Url::parse(url_text) {
        Ok(mut url) if url.password().is_some() => {
            let _ = url.set_password(Some("***"));
            url.to_string()
        }
        Ok(url) => url.to_string(),
        Err(_) => "(a key-value connection string)".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_never_show_the_password() {
        assert_eq!(
            redacted("postgres://payments:hunter2@db:5432/postgres"),
            "postgres://payments:***@db:5432/postgres"
        );
        assert_eq!(
            redacted("host=db user=payments password=hunter2"),
            "(a key-value connection string)"
        );
    }

    #[test]
    fn the_test_url_names_the_new_database() {
        assert_eq!(
            with_database("postgres://postgres@127.0.0.1:5432/postgres", "payments_test_ab"),
            "postgres://postgres@127.0.0.1:5432/payments_test_ab"
        );
        assert_eq!(
            with_database("host=127.0.0.1 user=postgres", "payments_test_ab"),
            "host=127.0.0.1 user=postgres dbname=payments_test_ab"
        );
    }
}
